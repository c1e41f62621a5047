"""What the room tells a definition whose events are the room's own (Skirmish Society's,
recorded bare rather than wrapped in `play_recorded.v1`): the room's facts a move or a
resolution of such a game reads, since the seam (rules/game.py) hands a definition its own
state only; and the part of the definition (`OwnEvents`) the room asks of its events. It is
declared here, not in rules/game.py, because it names dates and the room's events, which only
a definition outside rules/ can have. docs/design/games.md, "Skirmish Society as a
definition: the plan", S2.

Pure: no I/O, no clock.
"""

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

import msgspec

from rules.game import Draws
from schema.game_events import PlayerStatus, Settings

if TYPE_CHECKING:
    # For its type only: projections.game imports the games that read these facts.
    from projections.game import Player


class SeatFacts(msgspec.Struct, frozen=True):
    """A seat as the room keeps it."""

    name: str
    status: PlayerStatus
    banned: bool


class RoomFacts(msgspec.Struct, frozen=True):
    """The game's settings and seats, as the room has them now."""

    settings: Settings
    seats: dict[str, SeatFacts]
    # The seats still in the game and not banned: those who move (asked on every move).
    in_play: frozenset[str]


def room_facts(settings: Settings, players: Mapping[str, "Player"]) -> RoomFacts:
    """The room's facts of a game with these settings and players."""
    return RoomFacts(
        settings=settings,
        seats={seat: _facts(p) for seat, p in players.items()},
        in_play=frozenset(seat for seat, p in players.items() if p.in_play),
    )


def reseated(room: RoomFacts, player: "Player") -> RoomFacts:
    """`room` with one seat joined or changed: a game's fold from its events meets twenty
    joins, each of which would otherwise build every seat's facts again."""
    in_play = room.in_play | {player.id} if player.in_play else room.in_play - {player.id}
    return RoomFacts(room.settings, {**room.seats, player.id: _facts(player)}, in_play)


def _facts(player: "Player") -> SeatFacts:
    return SeatFacts(name=player.name, status=player.status, banned=player.banned)


# The time of an event a game made, until the room stamps it with its step's (`Stamp.at`).
UNSTAMPED = datetime(1970, 1, 1, tzinfo=UTC)


class Stamp(msgspec.Struct, frozen=True):
    """The room's facts of a step, which a game's events carry but the game does not know:
    when it was taken, in which game, by which account, with the edge's nonce; and, at the
    start, the game's secret, which its start publishes the commitment of."""

    at: datetime
    game_id: str
    account: str | None = None
    nonce: bytes | None = None
    secret: bytes | None = None


class Reseat(msgspec.Struct, frozen=True):
    """The room's seats a resolution changes: pairs merged into a joint seat (joint -> the
    two), and seats out of the game."""

    merged: dict[str, tuple[str, str]] = {}
    out: tuple[str, ...] = ()


class Hidden(msgspec.Struct, frozen=True):
    """Who sees an event before everyone does: `seats`, until the end of the turn
    `revealed_after` (never, when None)."""

    seats: frozenset[str]
    revealed_after: int | None = None


@runtime_checkable
class OwnEvents(Protocol):
    """The part of a definition whose events are the room's own, recorded bare (not wrapped in
    `play_recorded.v1`): the room stamps each with its facts, asks what kind of step it is,
    whose seats a resolution merges or puts out, and what each seat is told of it."""

    def stamped(self, event: Any, stamp: Stamp) -> Any:
        """`event`, made by `setup`, `move` or `resolve`, with the room's facts of its step."""
        ...

    def before_lock(self, play: Any, seat: str, move: Any) -> None:
        """Refuse `move` (a Refusal) for what the game checks before the room asks whether
        its lock window is open; a move it refuses later it lets through."""
        ...

    def reseated(self, event: Any) -> Reseat | None:
        """The seats a resolution merges and puts out; None for any other event."""
        ...

    def results(self, play: Any, event: Any, seats: Iterable[str]) -> list[Any]:
        """What each of `seats` (those taking notices, in the room's order) is told of the
        resolution `event`, `play` being the game before it."""
        ...

    def reminder(self, play: Any, seat: str, turn: int, resolves_at: datetime, draws: Draws) -> str:
        """The reminder `seat` is sent before `turn` resolves at `resolves_at` (the wait's
        `Reminder` says when, and to whom)."""
        ...

    def fork_fields(self, play: Any) -> dict[str, Any]:
        """What a fork of the game at the start of its turn records of `play` in
        `game_forked`'s own fields."""
        ...

    # What the house asks of it, in place of naming the game.

    def page(self) -> str:
        """The page (server/pages) that shows the game, in place of play.html."""
        ...

    def hidden(self, event: Any, settings: Settings) -> Hidden | None:
        """Who sees `event`, one of the game's own, before everyone does; None for a public
        one. `settings` are the room's now (a state read without its play has them too)."""
        ...

    def public(self, play: Any, players: Mapping[str, "Player"]) -> dict[str, Any]:
        """The public game's fields (schema.views.PublicGame) the game fills itself, `players`
        (its standings) among them; it shows no `play`. `play` is None before the game's
        creation."""
        ...


def own_events(definition: object) -> OwnEvents | None:
    """`definition` as the part whose events are the room's own (Skirmish Society's), or None
    if they are not. Asked of every state's schedule and every step, so answered once a
    class: a protocol's isinstance looks up each of its parts every time (some 25 µs)."""
    kind = type(definition)
    owns = _OWNS.get(kind)
    if owns is None:
        owns = _OWNS[kind] = issubclass(kind, OwnEvents)
    return cast(OwnEvents, definition) if owns else None


_OWNS: dict[type, bool] = {}
