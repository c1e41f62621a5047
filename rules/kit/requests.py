"""The one error of every game's adjudication contract, and the one way each reads its
request, so that a malformed one is told the same way in every game."""

from typing import TypeVar

import msgspec

T = TypeVar("T")


class RequestError(ValueError):
    """A malformed request: the message says what is wrong, in one line."""


def decoded(decoder: msgspec.json.Decoder[T], data: bytes | str) -> T:
    """The request `decoder` reads from `data`; RequestError saying why if it cannot."""
    try:
        return decoder.decode(data)
    # ValidationError is a DecodeError too: it must be caught first.
    except msgspec.ValidationError as error:
        raise RequestError(f"malformed request: {error}") from error
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        raise RequestError(f"invalid JSON: {error}") from error
    # Free-form JSON (an inline map, a state) nested a thousand deep exhausts the decoder's
    # recursion.
    except RecursionError:
        raise RequestError("invalid JSON: nested too deeply") from None
