"""An inline map of a request as a cache key, so that a contract checks and builds a map that
keeps coming back (a caller sends its game's map with every turn) only once."""

from typing import Any

import msgspec


class InlineKey:
    """Two inline maps are the same key when their msgpack encodings are, which keeps apart
    everything that converting them tells apart (unlike JSON, which writes NaN as null).
    Hashing and comparing the encoding costs a fraction of checking the map."""

    __slots__ = ("encoded", "spec")

    def __init__(self, spec: dict[str, Any], encoded: bytes) -> None:
        self.spec = spec
        self.encoded = encoded

    def __hash__(self) -> int:
        return hash(self.encoded)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InlineKey) and self.encoded == other.encoded


def inline_key(spec: dict[str, Any]) -> InlineKey | None:
    """The key of an inline map, or None for one that cannot be a key (an integer beyond 64
    bits, values nested too deeply): converting it says what is wrong."""
    try:
        return InlineKey(spec, msgspec.msgpack.encode(spec))
    except (TypeError, OverflowError, RecursionError, msgspec.EncodeError):
        return None
