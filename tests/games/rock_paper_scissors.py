"""Rock, paper, scissors for two, best of `rounds`: each round's throws are made at once, in
secret (a sealed wait), and shown together. A seat may say something to the other meanwhile,
in public at once (`{"say": "..."}`). With `seconds`, a round that lasts longer is played with
the throws that are in: a seat that threw beats one that did not. Its standings: the rounds
each seat has won."""

from collections.abc import Mapping
from typing import Any

import msgspec

from rules.game import (
    Draws,
    Ending,
    Move,
    MoveRefused,
    OptionsRefused,
    Sealed,
    Seat,
    Standing,
    Wait,
)

THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class Seated(msgspec.Struct, frozen=True, tag="seated.v1"):
    seats: tuple[Seat, Seat]
    rounds: int
    seconds: int | None = None


class RoundPlayed(msgspec.Struct, frozen=True, tag="round_played.v1"):
    throws: dict[Seat, str]
    winner: Seat | None


class Forfeited(msgspec.Struct, frozen=True, tag="forfeited.v1"):
    seat: Seat


class Said(msgspec.Struct, frozen=True, tag="said.v1"):
    seat: Seat
    words: str


Event = Seated | RoundPlayed | Forfeited | Said


class State(msgspec.Struct, frozen=True):
    seats: tuple[Seat, Seat]
    rounds: int
    seconds: int | None = None
    played: int = 0
    points: dict[Seat, int] = {}
    forfeited: Seat | None = None
    said: tuple[str, ...] = ()


class RockPaperScissors:
    name = "rock-paper-scissors"
    version = 1
    state_type = State
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (("rock", "throw rock, paper or scissors"),)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        rounds, seconds = options.get("rounds", 3), options.get("seconds")
        if set(options) - {"rounds", "seconds"} or type(rounds) is not int or not 1 <= rounds <= 9:
            raise OptionsRefused("the options are rounds, 1 to 9, and seconds")
        if seconds is not None and (type(seconds) is not int or not 1 <= seconds <= 86_400):
            raise OptionsRefused("seconds, a round's time, is 1 to 86400")
        return {"rounds": rounds, "seconds": seconds}

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 2

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        first, second = seats
        return [Seated((first, second), options["rounds"], options["seconds"])]

    def evolve(self, state: State | None, event: Event) -> State:
        match event:
            case Seated():
                points = dict.fromkeys(event.seats, 0)
                return State(event.seats, event.rounds, event.seconds, points=points)
            case RoundPlayed():
                assert state is not None
                points = dict(state.points)
                if event.winner is not None:
                    points[event.winner] += 1
                return msgspec.structs.replace(state, played=state.played + 1, points=points)
            case Forfeited():
                assert state is not None
                return msgspec.structs.replace(state, forfeited=event.seat)
            case Said():
                assert state is not None
                return msgspec.structs.replace(state, said=(*state.said, event.words))

    def to_move(self, state: State) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        return Wait(frozenset(state.seats), sealed=True, seconds=state.seconds)

    def move(self, state: State, seat: Seat, move: Move, draws: Draws) -> Sealed | list[Event]:
        if isinstance(move, dict) and set(move) == {"say"} and isinstance(move["say"], str):
            return [Said(seat, move["say"][:100])]
        if move not in THROWS:
            raise MoveRefused(f"throw rock, paper or scissors, not {move!r}")
        return Sealed(move)

    def seal(self, earlier: Move | None, move: Move) -> Move:
        return move

    def resolve(self, state: State, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        # Fewer than both when the round timed out.
        first, second = state.seats
        a, b = moves.get(first), moves.get(second)
        if a is None or b is None:
            winner = first if a is not None else second if b is not None else None
        else:
            winner = first if BEATS[a] == b else second if BEATS[b] == a else None
        return [RoundPlayed(dict(moves), winner)]

    def time_out(self, state: State, seat: Seat, draws: Draws) -> list[Event]:
        # Every wait is sealed: one that times out is resolved with the throws that are in.
        raise AssertionError("rock-paper-scissors has no wait of turns to time out")

    def leave(self, state: State, seat: Seat) -> list[Event]:
        return [Forfeited(seat)]

    def ending(self, state: State) -> Ending | None:
        first, second = state.seats
        if state.forfeited is not None:
            other = second if state.forfeited == first else first
            return Ending("forfeit", {other: "won", state.forfeited: "resigned"})
        if state.played < state.rounds:
            return None
        a, b = state.points[first], state.points[second]
        if a == b:
            return Ending("points", {first: "drew", second: "drew"})
        return Ending(
            "points", {first: "won" if a > b else "lost", second: "won" if b > a else "lost"}
        )

    def view(self, state: State, seats: frozenset[Seat]) -> Any:
        return msgspec.to_builtins(state)

    def read_text(self, text: str) -> Move | None:
        throw = text.strip().lower()
        return throw if throw in THROWS else None

    def standings(self, state: State) -> list[Standing]:
        """The most rounds won first (the optional `Ranked`)."""
        ranked = sorted(state.seats, key=lambda seat: -state.points[seat])
        return [Standing(seat, {"points": state.points[seat]}) for seat in ranked]


ROCK_PAPER_SCISSORS = RockPaperScissors()
