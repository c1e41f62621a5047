"""Skirmish Society's own state, kept in `GameState.play` as the definitions' games keep
theirs (rules/game.py), and its fold over the game's events (`evolve`), kept together.

Skirmish Society's events are the room's own (schema/game_events.py: they predate the
definitions' `play_recorded.v1`, and old games replay as they were recorded), so the room's
fold (projections.evolve) hands them to this one for the game's part. It lives here, not in
rules/skirmish/, because the engine knows nothing of the server's events nor of dates
(tests/test_purity.py), and those events carry both.

Pure: no I/O, no clock.
"""

from typing import TypeAlias

import msgspec
from msgspec.structs import replace

from schema.game_events import (
    GameForked,
    GameStarted,
    JoinForcesRequested,
    PlayerBanned,
    TurnResolved,
    TurnRewound,
    Vote,
    VoteCast,
)


class SkirmishPlay(msgspec.Struct, frozen=True):
    """What the game is at, apart from the room's facts (seats, accounts, admins, bans,
    clock, secret, rewinds, fork)."""

    # This turn's vote, if one is held, and the ballots cast in it so far, by player.
    vote: Vote | None = None
    ballots: dict[str, str] = {}
    # The effect the last vote chose for this turn.
    effect: str | None = None
    # This turn's requests to join forces: who asked whom.
    join_requests: dict[str, str] = {}
    # The joint players: those who joined forces, which a player does once.
    joined_forces: frozenset[str] = frozenset()


# The events that change the game's state; the room's fold hands it each of them.
SkirmishEvent: TypeAlias = (
    GameStarted | VoteCast | JoinForcesRequested | TurnResolved | TurnRewound | PlayerBanned
)


def evolve(play: SkirmishPlay | None, event: SkirmishEvent) -> SkirmishPlay:
    """The game's state after `event`; None before the start."""
    if isinstance(event, GameStarted):
        return SkirmishPlay(vote=event.vote)
    assert play is not None, f"{type(event).__name__} before the start"
    match event:
        case VoteCast():
            return replace(play, ballots={**play.ballots, event.player_id: event.effect})
        case JoinForcesRequested():
            requests = {**play.join_requests, event.player_id: event.with_player}
            return replace(play, join_requests=requests)
        case TurnResolved():
            return replace(
                play,
                vote=event.next_vote,
                ballots={},
                effect=event.next_effect,
                join_requests={},
                joined_forces=play.joined_forces | set(event.joined),
            )
        case TurnRewound():
            # The votes of the rewound turn are lost (rules.md).
            return replace(play, ballots={})
        case PlayerBanned():
            return _voided(play, event.player_id) if event.player_id is not None else play


def forked(event: GameForked) -> SkirmishPlay:
    """A fork's state: its source's at the turn it forks at."""
    return SkirmishPlay(
        vote=event.vote,
        effect=event.effect,
        joined_forces=frozenset(p.id for p in event.players if p.has_joined_forces),
    )


def _voided(play: SkirmishPlay, player_id: str) -> SkirmishPlay:
    """A ban voids what the player sent this turn that is not resolved yet (rules.md):
    their vote, and join-forces requests from or to them."""
    return replace(
        play,
        ballots={p: b for p, b in play.ballots.items() if p != player_id},
        join_requests={
            p: other for p, other in play.join_requests.items() if player_id not in (p, other)
        },
    )
