"""The built-in Art of War maps, shipped as package data; each is read once and kept."""

from functools import cache

import msgspec

from rules.artofwar.board import Board, MapError, MapFile, board_from_file
from rules.kit.packaged import packaged_json, packaged_names


@cache
def builtin_names() -> tuple[str, ...]:
    return packaged_names(__package__)


@cache
def builtin_board(name: str) -> Board:
    """A map shipped with the package, by name; MapError if there is none."""
    if name not in builtin_names():
        raise MapError(f"unknown map: {name!r} (built-in maps: {', '.join(builtin_names())})")
    return board_from_file(msgspec.json.decode(packaged_json(__package__, name), type=MapFile))
