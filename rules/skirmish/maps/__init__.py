"""The built-in maps, shipped as package data (rules/kit/packaged.py): each map is read once
and kept."""

from functools import cache

from rules.kit.packaged import packaged_json, packaged_names
from rules.skirmish.board import GameMap, MapError, decode_map


@cache
def builtin_names() -> tuple[str, ...]:
    return packaged_names(__package__)


@cache
def builtin_map(name: str) -> GameMap:
    """A map shipped with the package, by name; MapError if there is none."""
    if name not in builtin_names():
        raise MapError(f"unknown map: {name!r} (built-in maps: {', '.join(builtin_names())})")
    return decode_map(packaged_json(__package__, name))
