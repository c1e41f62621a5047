"""What the house around the game room asks of the Art of War (rules/house.py's optional
parts): its built-in maps, its what-if, its sandbox page and its demo."""

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from rules.artofwar.board import MapFile, map_file_of
from rules.artofwar.contract import ArtOfWarRequest, ArtOfWarResponse, adjudicate_json
from rules.artofwar.maps import builtin_board, builtin_names
from rules.house import DemoFlag, MapListing, Sandbox

GENERATED = "generated"


class ArtOfWarMap(MapFile, frozen=True, kw_only=True):
    """An Art of War built-in map, whole (GET /v1/maps/{name}). `game` tells it from a
    Skirmish Society map, which has none: that answer came first, and stays as it was."""

    game: Literal["art-of-war"]


class ArtOfWarHouse:
    map_type = ArtOfWarMap
    what_if_types = (ArtOfWarRequest, ArtOfWarResponse)
    sandbox = Sandbox(
        "the Art of War's sandbox",
        "runs a turn of the Art of War from any position, with every player's orders",
    )
    demo_seconds = 2.0
    demo_flags = (
        DemoFlag(
            "map",
            GENERATED,
            "the Art of War's map: generated (from --seed, for the players) or a built-in one",
            choices=(GENERATED, *builtin_names()),
        ),
    )

    def builtin_maps(self) -> tuple[MapListing, ...]:
        boards = ((name, builtin_board(name)) for name in builtin_names())
        return tuple(MapListing(n, b.description, len(b.territories)) for n, b in boards)

    def builtin_map(self, name: str) -> ArtOfWarMap | None:
        if name not in builtin_names():
            return None
        whole = msgspec.structs.asdict(map_file_of(builtin_board(name)))
        return ArtOfWarMap(**whole, game="art-of-war")

    def what_if(self, data: bytes | str) -> bytes:
        return adjudicate_json(data)

    def demo_options(self, flags: Mapping[str, Any], seed: int) -> dict[str, Any]:
        generated = {"map_seed": seed} if flags["map"] == GENERATED else {}
        return {"map": flags["map"], **generated}
