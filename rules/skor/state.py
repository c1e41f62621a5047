"""Skor's state on the wire (docs/skor.md, "State"): the same object in a request and a
response, encoded canonically (structures in hex order, pieces in canonical order)."""

from typing import Annotated, Literal

import msgspec

Culture = Literal[
    "technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien", "alternative"
]
StructureKind = Literal[
    "city", "resource", "obstruction", "farm", "base", "fortification", "debris", "turret", "road"
]
PieceKind = Literal["civilian", "military"]
Phase = Literal["move", "build", "tech", "purge"]
EndingBy = Literal["city", "resignation", "round_limit", "agreement", "forfeit"]
Level = Annotated[int, msgspec.Meta(ge=0, le=3)]
# Resource amounts are bounded so a request cannot carry absurd numbers.
Amount = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
Count = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]

# The longest game (its rounds) the options allow.
MAX_ROUND_LIMIT = 10_000
BRANCHES = ("city", "resource", "civilians", "military", "diplomacy", "espionage")


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    round_limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUND_LIMIT)] = 100
    alternative_culture: bool = False


class Tech(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    city: Level = 0
    resource: Level = 0
    civilians: Level = 0
    military: Level = 0
    diplomacy: Level = 0
    espionage: Level = 0

    def level(self, branch: str) -> int:
        value: int = getattr(self, branch)
        return value


class Structure(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: StructureKind
    by: str | None = None


class Piece(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    at: str
    player: str
    kind: PieceKind
    moved: bool = False


class Turn(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A turn in play has every field; after the round limit only `number` and `player`."""

    number: Annotated[int, msgspec.Meta(ge=1, le=20_001)]
    player: str
    grace: bool | None = None
    phase: Phase | None = None
    production: Amount | None = None
    upkeep: Amount | None = None
    fed: bool | None = None
    available: Amount | None = None
    spawns: Annotated[int, msgspec.Meta(ge=0, le=2)] | None = None
    alien_spawn: bool | None = None
    dice: Count | None = None


class Ending(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    winner: str | None
    by: EndingBy


class State(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    options: Options = Options()
    players: Annotated[list[str], msgspec.Meta(min_length=2, max_length=2)]
    cultures: Annotated[dict[str, Culture], msgspec.Meta(max_length=2)]
    tech: Annotated[dict[str, Tech], msgspec.Meta(max_length=2)] = {}
    structures: Annotated[dict[str, Structure], msgspec.Meta(max_length=40)]
    # Two pieces a hex at most: more cannot be a position.
    pieces: Annotated[list[Piece], msgspec.Meta(max_length=80)]
    turn: Turn
    incoming: Annotated[dict[str, Amount], msgspec.Meta(max_length=2)] = {}
    generation: Count = 0
    ending: Ending | None = None
