"""The working position of a turn being resolved, shared by the phases in order."""

import msgspec

from rules.artofwar.board import Board
from rules.artofwar.draws import Draws
from rules.artofwar.records import Event, EventKind, Result
from rules.artofwar.state import State
from rules.artofwar.validate import CarriedMove, Checked


class Attack(msgspec.Struct):
    """An invading group (§4 phase 3): one per source territory."""

    move: CarriedMove
    units: int
    survivors: int = 0


class Work(msgspec.Struct):
    board: Board
    state: State
    checked: Checked
    draws: Draws
    units: dict[str, int]
    # Per territory after phase 2: units that stayed, retreated from a skirmish, came in.
    stay: dict[str, int] = {}
    retreated: dict[str, int] = {}
    inflow: dict[str, int] = {}
    # Target -> its invading groups, in ascending source order.
    attacks: dict[str, list[Attack]] = {}
    # Order line -> its result and survivors.
    results: dict[int, tuple[Result, int | None]] = {}
    events: dict[str, list[Event]] = {}

    def event(
        self,
        territory: str,
        kind: EventKind,
        *,
        source: str | None = None,
        target: str | None = None,
        opponent: str | None = None,
        player: str | None = None,
        units: int | None = None,
        defenders: int | None = None,
        lost: int | None = None,
    ) -> None:
        event = Event(kind, source, target, opponent, player, units, defenders, lost)
        self.events.setdefault(territory, []).append(event)

    def owner(self, territory: str) -> str | None:
        return self.state.owners.get(territory)

    def attacking(self, move: CarriedMove) -> bool:
        return self.owner(move.target) != move.player
