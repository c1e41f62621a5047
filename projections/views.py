"""What a game looks like from outside: the public view, the standings, a player's own
orders. Pure functions of the state; nothing secret enters the public ones."""

from collections import Counter
from datetime import datetime

import msgspec

from projections.game import GameState, Player
from projections.visibility import secret_revealed
from rules.board import GameMap
from rules.effects import EffectName
from rules.turn import OrderReport
from schema.game_events import (
    Phase,
    PlayerStatus,
    RecordedOrder,
    RecordedPosition,
    Settings,
    TurnResolved,
)


class PlayerView(msgspec.Struct, frozen=True):
    id: str
    name: str
    color: int
    pattern: int
    vp: int
    territories: int
    armies: int
    status: PlayerStatus
    banned: bool


class VoteView(msgspec.Struct, frozen=True):
    turn: int
    candidates: tuple[EffectName, EffectName]
    tie_break: EffectName
    # Counted publicly in normal mode; None while same-day ballots are secret.
    tally: dict[EffectName, int] | None


class PublicGame(msgspec.Struct, frozen=True):
    id: str
    name: str
    phase: Phase
    turn: int
    settings: Settings
    admins: tuple[str, ...]
    players: list[PlayerView]
    map: GameMap | None
    board: RecordedPosition
    vote: VoteView | None
    effect: EffectName | None
    winner: str | None
    next_resolution_at: datetime | None
    # This turn's window for orders, votes and join-forces requests: from orders_open_at
    # (the start, or when the lock window after the last resolution ends) to
    # orders_close_at (when the lock window before the next resolution begins). Both null
    # while no resolution is scheduled: joining, paused (orders are taken, with no lock),
    # finished or killed. They follow from the game's events alone, not from a clock.
    orders_open_at: datetime | None
    orders_close_at: datetime | None
    last_turn: TurnResolved | None
    position: int
    # The server's clock as it answered (the operator's under --fake-clock): count down to
    # next_resolution_at from it, not from the reader's own clock.
    now: datetime | None = None
    # The SHA-256 (hex) of the game's secret, published when it starts; the secret itself
    # (hex) once the game has ended, so that anyone can check every draw.
    commitment: str | None = None
    secret: str | None = None


class MyOrders(msgspec.Struct, frozen=True):
    player: str
    turn: int
    # Every submission this turn, oldest first, as checked when sent.
    submitted: list[list[RecordedOrder]]
    # The order each army will carry out if nothing changes: the newest valid one.
    current: list[RecordedOrder]
    # My valid orders of the last turn, with their results.
    last_turn: list[OrderReport]


def standings(state: GameState) -> list[PlayerView]:
    """Players by VP, then territories, then name: the side bar's order."""
    territories = Counter(state.board.control.values())
    armies = Counter(state.board.armies.values())
    views = [_player_view(p, territories[p.id], armies[p.id]) for p in state.players.values()]
    return sorted(views, key=lambda v: (-v.vp, -v.territories, v.name.lower()))


def _player_view(player: Player, territories: int, armies: int) -> PlayerView:
    return PlayerView(
        id=player.id,
        name=player.name,
        color=player.color,
        pattern=player.pattern,
        vp=player.vp,
        territories=territories,
        armies=armies,
        status=player.status,
        banned=player.banned,
    )


def public_game(state: GameState, position: int, now: datetime | None = None) -> PublicGame:
    assert state.phase != "new"
    vote = None
    if state.vote is not None and state.vote.turn == state.turn:
        tally = None
        if state.settings.voting_mode == "normal":
            counted = Counter(state.ballots.values())
            tally = {effect: counted[effect] for effect in state.vote.candidates}
        vote = VoteView(state.vote.turn, state.vote.candidates, state.vote.tie_break, tally)
    return PublicGame(
        id=state.game_id,
        name=state.settings.name,
        phase=state.phase,
        turn=state.turn,
        settings=state.settings,
        admins=state.admins,
        players=standings(state),
        map=state.map,
        board=state.board,
        vote=vote,
        effect=state.effect,
        winner=state.winner,
        next_resolution_at=state.next_resolution_at(),
        orders_open_at=state.orders_open_at(),
        orders_close_at=state.orders_close_at(),
        last_turn=state.last_turn,
        position=position,
        now=now,
        commitment=state.commitment,
        secret=state.secret if secret_revealed(state.secret, state) else None,
    )


def my_orders(state: GameState, player_id: str) -> MyOrders:
    submissions = state.submissions.get(player_id, ())
    current: dict[str, RecordedOrder] = {}
    for submission in submissions:
        for order in submission.checked:
            if order.valid and order.unit is not None:
                current[order.unit] = order
    return MyOrders(
        player=player_id,
        turn=state.turn,
        submitted=[list(s.checked) for s in submissions],
        current=list(current.values()),
        last_turn=[
            o for o in state.last_turn_orders(player_id) if o.result not in ("invalid", "replaced")
        ],
    )
