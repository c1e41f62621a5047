"""The built-in maps, shipped as package data. The one place in `rules` that reads a file:
each map is read once and kept."""

from functools import cache
from importlib import resources

from rules.skirmish.board import GameMap, MapError, decode_map


@cache
def builtin_names() -> tuple[str, ...]:
    folder = resources.files(__package__)
    return tuple(
        sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))
    )


@cache
def builtin_map(name: str) -> GameMap:
    """A map shipped with the package, by name; MapError if there is none."""
    if name not in builtin_names():
        raise MapError(f"unknown map: {name!r} (built-in maps: {', '.join(builtin_names())})")
    return decode_map((resources.files(__package__) / f"{name}.json").read_bytes())
