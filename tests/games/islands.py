"""Islands: a game from outside the project with every optional part the house asks of a
definition (rules/game.py): built-in maps, a what-if, a sandbox page, a demo and standings.
Two seats claim the islands of a map in turns, the first drawn, up to a limit; the most
islands win.
tests/games/test_house_asks_the_game.py shows the house serving each part, naming none."""

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from rules.game import (
    Draws,
    Ending,
    Move,
    MoveRefused,
    OptionsRefused,
    Result,
    Sealed,
    Seat,
    Standing,
    Wait,
)
from rules.house import DemoFlag, MapListing, Sandbox
from rules.kit.requests import RequestError, decoded

# Each map's islands, by the map's name: no other game's map has these names.
MAPS = {"atoll": ("reef", "lagoon", "key"), "archipelago": ("north", "south", "east", "west")}


class IslandsMap(msgspec.Struct, frozen=True, kw_only=True):
    """A map whole, as GET /v1/maps/{name} answers it."""

    name: str
    islands: list[str]
    game: Literal["islands"] = "islands"


class IslandsRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What if these islands were claimed: who would be ahead?"""

    ruleset: Literal["islands"]
    claims: dict[str, str]


class IslandsAnswer(msgspec.Struct, frozen=True):
    ahead: list[str]


class Began(msgspec.Struct, frozen=True, tag="islands_began.v1"):
    map: str
    limit: int
    order: tuple[Seat, Seat]


class Claimed(msgspec.Struct, frozen=True, tag="islands_claimed.v1"):
    seat: Seat
    island: str


Event = Began | Claimed


class State(msgspec.Struct, frozen=True):
    map: str
    limit: int
    order: tuple[Seat, Seat]
    claims: dict[str, Seat] = {}


def _ahead(claims: Mapping[str, str]) -> list[str]:
    counts = {seat: list(claims.values()).count(seat) for seat in set(claims.values())}
    return sorted(seat for seat, count in counts.items() if count == max(counts.values()))


class Islands:
    name = "islands"
    version = 1
    state_type = State
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (("claim reef", "claim an island"),)
    # The optional parts.
    map_type = IslandsMap
    what_if_types = (IslandsRequest, IslandsAnswer)
    sandbox = Sandbox(
        "islands' sandbox",
        "claims islands for both seats",
        page="<!doctype html><title>Islands' sandbox</title><p>Claim an island.</p>",
    )
    demo_seconds = 1.5
    demo_flags = (
        DemoFlag("islands_map", "atoll", "the islands' map", choices=tuple(MAPS)),
        DemoFlag("limit", 3, "islands claimed before the game ends", bounds=(1, 4)),
    )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        chosen = {"map": "atoll", "limit": 4, **options}
        if chosen["map"] not in MAPS or chosen["limit"] not in (1, 2, 3, 4) or len(chosen) > 2:
            raise OptionsRefused("islands' options are map (atoll, archipelago) and limit (1 to 4)")
        return chosen

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 2

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        first = draws.stream("first").below(2)
        return [Began(options["map"], options["limit"], (seats[first], seats[1 - first]))]

    def evolve(self, state: State | None, event: Event) -> State:
        if isinstance(event, Began):
            return State(event.map, event.limit, event.order)
        assert state is not None
        return msgspec.structs.replace(state, claims={**state.claims, event.island: event.seat})

    def to_move(self, state: State) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        return Wait(frozenset({state.order[len(state.claims) % 2]}))

    def move(self, state: State, seat: Seat, move: Move, draws: Draws) -> Sealed | list[Event]:
        if move not in MAPS[state.map] or move in state.claims:
            raise MoveRefused(f"{move!r} is no island left to claim")
        return [Claimed(seat, move)]

    def seal(self, earlier: Move | None, move: Move) -> Move:
        return move

    def resolve(self, state: State, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        raise MoveRefused("islands has no sealed moves")

    def time_out(self, state: State, seat: Seat, draws: Draws) -> list[Event]:
        raise AssertionError("islands has no clock")

    def leave(self, state: State, seat: Seat) -> list[Event]:
        raise MoveRefused("nobody leaves islands")

    def ending(self, state: State) -> Ending | None:
        if len(state.claims) < min(state.limit, len(MAPS[state.map])):
            return None
        ahead = _ahead(state.claims)
        result: Result = "won" if len(ahead) == 1 else "drew"
        return Ending("claimed", {s: result if s in ahead else "lost" for s in state.order})

    def view(self, state: State, seats: frozenset[Seat]) -> Any:
        return msgspec.to_builtins(state)

    def read_text(self, text: str) -> Move | None:
        words = text.split()
        return words[1] if len(words) == 2 and words[0] == "claim" else None

    def builtin_maps(self) -> tuple[MapListing, ...]:
        return tuple(MapListing(name, f"{len(i)} islands", len(i)) for name, i in MAPS.items())

    def builtin_map(self, name: str) -> IslandsMap | None:
        return IslandsMap(name=name, islands=list(MAPS[name])) if name in MAPS else None

    def what_if(self, data: bytes | str) -> bytes:
        request = decoded(_requests, data)
        if not request.claims:
            raise RequestError("claim at least one island")
        return msgspec.json.encode(IslandsAnswer(_ahead(request.claims)))

    def demo_options(self, flags: Mapping[str, Any], seed: int) -> dict[str, Any]:
        return {"map": flags["islands_map"], "limit": flags["limit"]}

    def standings(self, state: State) -> list[Standing]:
        """The most islands first, then in the order the seats play."""
        held = {seat: list(state.claims.values()).count(seat) for seat in state.order}
        ranked = sorted(state.order, key=lambda seat: -held[seat])
        return [Standing(seat, {"islands": held[seat]}) for seat in ranked]


_requests = msgspec.json.Decoder(IslandsRequest)
ISLANDS = Islands()
