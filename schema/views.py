"""What a game looks like from outside, as the API answers it: the public view, the
standings, a player's own orders (built by projections/views.py; the client reads them)."""

from datetime import datetime
from typing import Any, Literal

import msgspec

from rules.game import Column, Ending
from rules.registry import DEFAULT_GAME
from rules.skirmish.board import GameMap
from rules.skirmish.effects import EffectName
from rules.skirmish.turn import OrderReport
from schema.game_events import (
    ForkedFrom,
    Phase,
    PlayerStatus,
    RecordedOrder,
    RecordedPosition,
    Settings,
    TurnResolved,
)

SeatClaim = Literal["claimed", "invited", "vacant"]


class PlayerView(msgspec.Struct, frozen=True, omit_defaults=True):
    """A player in the standings. `vp`, `territories` and `armies` are Skirmish Society's:
    0 in a game run by its definition, whose own columns are `standing`."""

    id: str
    name: str
    color: int
    pattern: int
    vp: int
    territories: int
    armies: int
    status: PlayerStatus
    banned: bool
    # A game run by its definition (absent for Skirmish Society, whose rows stay as they
    # were): the seat's columns in the game's own standings (rules/game.py `Ranked`), absent
    # for a game that has none or before its start; whether the game waits for the seat
    # (absent before the start); and, in a sealed wait whose moves the game makes public
    # (`moved` of the game), whether the seat has moved (absent otherwise).
    standing: dict[str, Column] | None = None
    to_move: bool | None = None
    moved: bool | None = None


class VoteView(msgspec.Struct, frozen=True):
    turn: int
    candidates: tuple[EffectName, EffectName]
    tie_break: EffectName
    # Counted publicly in normal mode; None while same-day ballots are secret.
    tally: dict[EffectName, int] | None


ClockKind = Literal["real", "fake"]


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
    # The clock `now` comes from (null with it): "fake" under `skirmish serve --fake-clock`
    # (the demo, tests), which moves only when its operator moves it, so that `now` does not
    # run on and no countdown can be drawn from it.
    clock: ClockKind | None = None
    # The SHA-256 (hex) of the game's secret, published when it starts; the secret itself
    # (hex) once the game has ended, so that anyone can check every draw.
    commitment: str | None = None
    secret: str | None = None
    # The game and turn this game was forked from (POST /v1/games/{game}/fork), if any.
    forked_from: ForkedFrom | None = None
    # A real fork waiting for its start (phase "joining"): each seat still playing, by id,
    # "claimed" (someone holds it), "invited" (nobody yet, and someone may still claim it)
    # or "vacant" (nobody may: it plays as resigned once the fork starts). Null otherwise.
    claims: dict[str, SeatClaim] | None = None
    # What the game plays, and the version of its rules it is played by.
    game: str = DEFAULT_GAME
    game_version: int = 1
    # A game run by its definition (rules/game.py; none of these for Skirmish Society): its
    # options, its state as anyone may see it, the seats it waits for (null before the
    # start), and once it is over, how it ended.
    options: dict[str, Any] = {}
    play: Any = None
    to_move: list[str] | None = None
    # The seats that have moved in the sealed wait, where the game makes that public (null
    # where it does not: then nobody learns it before the wait resolves).
    moved: list[str] | None = None
    ending: Ending | None = None
    # Asked with a token: the seats the caller plays (a sandbox's admin: every seat), which
    # `play` is then the view of, and their own sealed moves of the wait not yet resolved,
    # by seat (another seat's never). Null for anyone else, and for Skirmish Society.
    seats: list[str] | None = None
    sealed: dict[str, Any] | None = None


class MyOrders(msgspec.Struct, frozen=True):
    player: str
    turn: int
    # Every submission this turn, oldest first, as checked when sent.
    submitted: list[list[RecordedOrder]]
    # The order each army will carry out if nothing changes: the newest valid one.
    current: list[RecordedOrder]
    # My valid orders of the last turn, with their results.
    last_turn: list[OrderReport]
