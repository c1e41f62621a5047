"""The answers about maps and effects (GET /v1/maps, /v1/maps/{name}, /v1/effects,
/v1/art-of-war/maps) and the body that generates a map; a map itself is
`rules.skirmish.board.GameMap`, an Art of War map `rules.artofwar.board.MapFile`."""

from typing import Annotated

import msgspec

from rules.artofwar.board import MapFile
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
    # Starting homes for players: a game on the map seats one player per home.
    homes: int
    # How many players a game on the map can start with; null if it cannot host a game.
    players: PlayerCounts | None


class MapList(msgspec.Struct, frozen=True):
    maps: list[MapSummary]


class ArtOfWarMaps(msgspec.Struct, frozen=True):
    """The Art of War's built-in maps, whole, by name."""

    maps: list[MapFile]


class GenerateBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: Annotated[int, msgspec.Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    type: MapType = "normal"
    seed: Seed = 0


class EffectInfo(msgspec.Struct, frozen=True):
    name: EffectName
    description: str


class EffectList(msgspec.Struct, frozen=True):
    effects: list[EffectInfo]
