"""The answers about maps and effects (GET /v1/maps, /v1/maps/{name}, /v1/effects) and the
body that generates a map; a Skirmish Society map itself is `rules.skirmish.board.GameMap`,
another game's its definition's `map_type` (rules/game.py, `Mapped`)."""

from typing import Annotated

import msgspec

from rules.registry import DEFAULT_GAME
from rules.skirmish.effects import EffectName
from rules.skirmish.mapgen import MAX_PLAYERS, MIN_PLAYERS, MapType
from schema.api import Seed


class PlayerCounts(msgspec.Struct, frozen=True):
    min: int
    max: int


class MapSummary(msgspec.Struct, frozen=True):
    name: str
    description: str
    territories: int
    # Starting homes for players: a Skirmish Society game on the map seats one player per
    # home (0 on another game's map).
    homes: int
    # How many players a Skirmish Society game on the map can start with; null if it cannot
    # host one (as another game's map cannot).
    players: PlayerCounts | None
    # The game the map is for (rules/registry.py): added after the list first had Skirmish
    # Society's maps only, so its clients read it as they did.
    game: str = DEFAULT_GAME


class MapList(msgspec.Struct, frozen=True):
    maps: list[MapSummary]


class GenerateBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: Annotated[int, msgspec.Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    type: MapType = "normal"
    seed: Seed = 0


class EffectInfo(msgspec.Struct, frozen=True):
    name: EffectName
    description: str


class EffectList(msgspec.Struct, frozen=True):
    effects: list[EffectInfo]
