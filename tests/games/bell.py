"""The bell: every seat rings it once a turn, in the open, and the turn tolls at an hour of
the day, as Skirmish Society's turns resolve: a daily sealed wait with lock windows around the
hour, closed by the clock or early by an admin once every seat has rung (`EarlyClose`), and
reminding everyone who plays, once a turn. With `seconds`, a turn lasts that long instead, and
an unpause gives all of it again (Skirmish Society's fast mode). `rounds` tolls end the game.

Its options are those of the clock: `hour` (UTC), `not_before`, `after_unpause`, `lock`,
`lead` (the reminder's, seconds before the deadline) and `seconds`."""

from collections.abc import Mapping
from typing import Any

import msgspec

from rules.game import Daily, Draws, Ending, Move, MoveRefused, OptionsRefused, Reminder, Seat, Wait

DEFAULTS: dict[str, Any] = {
    "rounds": 3,
    "hour": 12,
    "not_before": 4_200,
    "after_unpause": 300,
    "lock": 300,
    "lead": 3_600,
    "seconds": None,
}


class Hung(msgspec.Struct, frozen=True, tag="hung.v1"):
    seats: tuple[Seat, ...]
    options: dict[str, Any]


class Rang(msgspec.Struct, frozen=True, tag="rang.v1"):
    seat: Seat


class Tolled(msgspec.Struct, frozen=True, tag="tolled.v1"):
    # The seats that rang in the turn the toll ends.
    rung: list[Seat]


Event = Hung | Rang | Tolled


class State(msgspec.Struct, frozen=True):
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    tolls: int = 0
    rung: frozenset[Seat] = frozenset()


class Bell:
    name = "bell"
    version = 1
    state_type = State
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (("ring", "ring the bell for this turn"),)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if set(options) - DEFAULTS.keys():
            raise OptionsRefused(f"the options are {', '.join(DEFAULTS)}")
        checked = {**DEFAULTS, **options}
        if not all(type(value) is int for key, value in checked.items() if key != "seconds"):
            raise OptionsRefused("every option is a whole number")
        if not 0 <= checked["hour"] <= 23:
            raise OptionsRefused("hour is 0 to 23, UTC")
        return checked

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 4

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        return [Hung(seats, dict(options))]

    def evolve(self, state: State | None, event: Event) -> State:
        match event:
            case Hung():
                return State(event.seats, event.options)
            case Rang():
                assert state is not None
                return msgspec.structs.replace(state, rung=state.rung | {event.seat})
            case Tolled():
                assert state is not None
                return msgspec.structs.replace(state, tolls=state.tolls + 1, rung=frozenset())

    def to_move(self, state: State) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        options = state.options
        seconds = options["seconds"]
        clock = (
            {"daily": Daily(options["hour"], options["not_before"], options["after_unpause"])}
            if seconds is None
            else {"seconds": seconds, "restarts": True}
        )
        return Wait(
            frozenset(state.seats),
            sealed=True,
            lock=options["lock"],
            reminder=Reminder(options["lead"], everyone=True, once_a_turn=True),
            closes="admin",
            **clock,
        )

    def move(self, state: State, seat: Seat, move: Move, draws: Draws) -> list[Event]:
        if move != "ring":
            raise MoveRefused(f"ring the bell, not {move!r}")
        if seat in state.rung:
            raise MoveRefused("you rang this turn already")
        return [Rang(seat)]

    def seal(self, earlier: Move | None, move: Move) -> Move:
        raise AssertionError("the bell seals no move: each ring is played at once")

    def resolve(self, state: State, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        return [Tolled(sorted(state.rung))]

    def time_out(self, state: State, seat: Seat, draws: Draws) -> list[Event]:
        raise AssertionError("the bell's waits are sealed: they toll, never time out")

    def leave(self, state: State, seat: Seat) -> list[Event]:
        return []

    def ending(self, state: State) -> Ending | None:
        if state.tolls < state.options["rounds"]:
            return None
        return Ending("rounds", dict.fromkeys(state.seats, "drew"))

    def view(self, state: State, seats: frozenset[Seat]) -> Any:
        return msgspec.to_builtins(state)

    def read_text(self, text: str) -> Move | None:
        return "ring" if text.strip().lower() == "ring" else None

    def not_ready(self, state: State) -> str | None:
        """Early only once every seat rang (the optional `EarlyClose`); says how many have
        not, never who."""
        missing = len(set(state.seats) - state.rung)
        if not missing:
            return None
        return f"{missing} of the {len(state.seats)} seats have not rung for this turn"


BELL = Bell()
