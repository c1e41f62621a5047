"""What a turn reports (§8's response): one record kind per phase, in wire form."""

from typing import Literal

import msgspec

from rules.artofwar.diplomacy import Ending

Result = Literal[
    "transferred",
    "conquered",
    "bounced",
    "retreated",
    "destroyed",
    "disbanded",
    "held",
    "placed",
    "invalid",
    "replaced",
    "not_run",
]
EventKind = Literal[
    "placed",
    "transferred_out",
    "transferred_in",
    "attacked",
    "skirmish",
    "retreated",
    "invaded",
    "defended",
    "conquered",
    "returned",
    "disbanded",
    "built",
]


class ArtOfWarOrderReport(msgspec.Struct, frozen=True, omit_defaults=True):
    player: str
    text: str
    # Required, so that it is written even for the most common result (omit_defaults).
    result: Result
    kind: Literal["transfer", "attack", "hold", "place"] | None = None
    source: str | None = msgspec.field(default=None, name="from")
    target: str | None = msgspec.field(default=None, name="to")
    sent: int | None = None
    survivors: int | None = None
    reason: str | None = None


class Placement(msgspec.Struct, frozen=True):
    player: str
    territory: str
    units: int


class Transfer(msgspec.Struct, frozen=True):
    player: str
    source: str = msgspec.field(name="from")
    target: str = msgspec.field(name="to")
    units: int = 0


class Skirmish(msgspec.Struct, frozen=True):
    between: tuple[str, str]
    units: dict[str, int]
    draws: dict[str, list[float]]
    hits: dict[str, int]
    survivors: dict[str, int]
    breakthrough: str | None


class Defenders(msgspec.Struct, frozen=True):
    stayed: int
    retreated: int
    transferred: int
    total: int


class Group(msgspec.Struct, frozen=True):
    source: str = msgspec.field(name="from")
    player: str = ""
    units: int = 0
    assigned: int = 0
    draws: list[float] = []
    hits: int = 0
    defender_draws: list[float] = []
    defender_hits: int = 0
    losses: int = 0
    survivors: int = 0


class Tie(msgspec.Struct, frozen=True):
    among: list[str]
    draw: float
    index: int


class Advance(msgspec.Struct, frozen=True, omit_defaults=True):
    source: str = msgspec.field(name="from")
    player: str = ""
    units: int = 0
    tie: Tie | None = None


class Battle(msgspec.Struct, frozen=True):
    target: str
    owner: str | None
    defenders: Defenders
    groups: list[Group]
    unassigned: int
    defender_losses: int
    defenders_left: int
    advance: Advance | None


class Return(msgspec.Struct, frozen=True):
    source: str = msgspec.field(name="from")
    player: str = ""
    units: int = 0
    result: Literal["bounced", "disbanded"] = "bounced"


class Build(msgspec.Struct, frozen=True):
    territory: str
    player: str
    protected: bool
    units: int


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing that happened in a territory, for the map's hover titles."""

    kind: EventKind
    source: str | None = msgspec.field(default=None, name="from")
    target: str | None = msgspec.field(default=None, name="to")
    opponent: str | None = msgspec.field(default=None, name="with")
    player: str | None = None
    units: int | None = None
    defenders: int | None = None
    lost: int | None = None


class TurnResult(msgspec.Struct, frozen=True):
    """A resolved turn: everything §8's response carries but the draws' provenance."""

    treaty: Ending | None
    orders: list[ArtOfWarOrderReport]
    placements: list[Placement]
    transfers: list[Transfer]
    skirmishes: list[Skirmish]
    battles: list[Battle]
    returns: list[Return]
    builds: list[Build]
    owners: dict[str, str]
    units: dict[str, int]
    pending_builds: dict[str, int]
    eliminated: list[str]
    ending: Ending | None
    draws: list[float]
    events: dict[str, list[Event]]
