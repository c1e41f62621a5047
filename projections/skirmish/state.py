"""Skirmish Society's own state, kept in `GameState.play` as the definitions' games keep
theirs (rules/game.py), and its fold over the game's events (`evolve`), kept together.

Skirmish Society's events are the room's own (schema/game_events.py: they predate the
definitions' `play_recorded.v1`, and old games replay as they were recorded), so the room's
fold (projections.evolve) hands them to this one for the game's part. It lives here, not in
rules/skirmish/, because the engine knows nothing of the server's events nor of dates
(tests/test_purity.py), and those events carry both.

The room's facts the game reads (its settings, and each seat's name, status and ban) are
part of its state too, `room`, handed by the room's fold through `with_room` whenever they
change: from the game's creation on, so that its state exists before the start (no map
then), and so that its moves and resolution need read nothing of the room's but their own
state (docs/design/games.md, S2).

Pure: no I/O, no clock.
"""

from typing import TypeAlias

import msgspec
from msgspec.structs import replace

from projections.owned import RoomFacts
from rules.skirmish.board import GameMap
from rules.skirmish.turn import OrderReport
from schema.game_events import (
    GameForked,
    GameStarted,
    JoinForcesRequested,
    OrdersSubmitted,
    PlayerBanned,
    RecordedPosition,
    Settings,
    TurnResolved,
    TurnRewound,
    Vote,
    VoteCast,
)


class SkirmishPlay(msgspec.Struct, frozen=True):
    """What the game is at, and the room's facts it reads (`room`); the rest of the room's
    (accounts, admins, banned accounts, clock, secret, rewinds, fork) is the room's alone."""

    room: RoomFacts = RoomFacts(settings=Settings(name=""), seats={}, in_play=frozenset())
    # None before the start.
    map: GameMap | None = None
    board: RecordedPosition = RecordedPosition(armies={}, control={}, farms=[])
    # This turn's submissions, per player, oldest first.
    submissions: dict[str, tuple[OrdersSubmitted, ...]] = {}
    # This turn's vote, if one is held, and the ballots cast in it so far, by player.
    vote: Vote | None = None
    ballots: dict[str, str] = {}
    # The effect the last vote chose for this turn.
    effect: str | None = None
    # This turn's requests to join forces: who asked whom.
    join_requests: dict[str, str] = {}
    # The joint players: those who joined forces, which a player does once.
    joined_forces: frozenset[str] = frozenset()
    # Each player's VP (none yet: 0), the last turn resolved, and the winner, once won.
    vp: dict[str, int] = {}
    last_turn: TurnResolved | None = None
    winner: str | None = None
    # The turn it began at: 1, or the turn a fork of it begins at.
    first_turn: int = 1

    @property
    def turn(self) -> int:
        """The turn being played (once started): the one after the last resolved."""
        return self.first_turn if self.last_turn is None else self.last_turn.turn + 1

    def vp_of(self, player_id: str) -> int:
        return self.vp.get(player_id, 0)

    def last_turn_orders(self, player_id: str) -> list[OrderReport]:
        if self.last_turn is None:
            return []
        return [o for o in self.last_turn.orders if o.player == player_id]


# The events that change the game's state; the room's fold hands it each of them.
SkirmishEvent: TypeAlias = (
    GameStarted
    | OrdersSubmitted
    | VoteCast
    | JoinForcesRequested
    | TurnResolved
    | TurnRewound
    | PlayerBanned
)


def with_room(play: SkirmishPlay | None, room: RoomFacts) -> SkirmishPlay:
    """The game's state with the room's facts as they are now; None before the game's
    creation."""
    return SkirmishPlay(room=room) if play is None else replace(play, room=room)


def evolve(play: SkirmishPlay, event: SkirmishEvent) -> SkirmishPlay:
    """The game's state after `event`."""
    match event:
        # The events of every turn first: a rebuild folds hundreds of thousands of them.
        case OrdersSubmitted():
            mine = (*play.submissions.get(event.player_id, ()), event)
            return replace(play, submissions={**play.submissions, event.player_id: mine})
        case VoteCast():
            return replace(play, ballots={**play.ballots, event.player_id: event.effect})
        case JoinForcesRequested():
            requests = {**play.join_requests, event.player_id: event.with_player}
            return replace(play, join_requests=requests)
        case TurnResolved():
            return replace(
                play,
                board=event.board,
                submissions={},
                vote=event.next_vote,
                ballots={},
                effect=event.next_effect,
                join_requests={},
                joined_forces=play.joined_forces | set(event.joined),
                vp=_scored(play.vp, event),
                last_turn=event,
                winner=event.winner,
            )
        case TurnRewound():
            # The votes of the rewound turn are lost (rules.md).
            return replace(play, ballots={})
        case GameStarted():
            return replace(play, map=event.map, board=event.board, vote=event.vote)
        case PlayerBanned():
            return _voided(play, event.player_id) if event.player_id is not None else play


def forked(event: GameForked, room: RoomFacts) -> SkirmishPlay:
    """A fork's state: its source's at the turn it forks at, with the fork's room."""
    return SkirmishPlay(
        room=room,
        map=event.map,
        board=event.board,
        vote=event.vote,
        effect=event.effect,
        joined_forces=frozenset(p.id for p in event.players if p.has_joined_forces),
        vp={p.id: p.vp for p in event.players},
        first_turn=event.turn,
    )


def _scored(vp: dict[str, int], event: TurnResolved) -> dict[str, int]:
    """Each player's VP after a resolution: a joint player starts from the first of its
    two players' (the turn's VP then counts it as one)."""
    scored = dict(vp)
    for joint, (first, second) in event.joined.items():
        scored[joint] = scored.pop(first, 0)
        scored.pop(second, None)
    return scored | event.vp


def _voided(play: SkirmishPlay, player_id: str) -> SkirmishPlay:
    """A ban voids what the player sent this turn that is not resolved yet (rules.md):
    their orders, their vote, and join-forces requests from or to them."""
    return replace(
        play,
        submissions={p: s for p, s in play.submissions.items() if p != player_id},
        ballots={p: b for p, b in play.ballots.items() if p != player_id},
        join_requests={
            p: other for p, other in play.join_requests.items() if player_id not in (p, other)
        },
    )
