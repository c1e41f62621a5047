"""The built-in Art of War maps, shipped as package data; each is read once and kept."""

from functools import cache
from importlib import resources

import msgspec

from rules.artofwar.board import Board, MapError, MapFile, board_from_file


@cache
def builtin_names() -> tuple[str, ...]:
    folder = resources.files(__package__)
    return tuple(
        sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))
    )


@cache
def builtin_board(name: str) -> Board:
    """A map shipped with the package, by name; MapError if there is none."""
    if name not in builtin_names():
        raise MapError(f"unknown map: {name!r} (built-in maps: {', '.join(builtin_names())})")
    data = (resources.files(__package__) / f"{name}.json").read_bytes()
    return board_from_file(msgspec.json.decode(data, type=MapFile))
