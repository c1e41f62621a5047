"""Given events, when a command, then events (or a refusal): the decider's test harness."""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from projections.evolve import fold
from projections.game import GameState
from rules.kit.prng import commitment
from rules.skirmish.maps import builtin_map
from schema.commands import (
    Actor,
    CreateGame,
    ForkGame,
    GameCommand,
    JoinGame,
    RequestJoinForces,
    ResolveTurn,
    StartGame,
    SubmitOrders,
)
from schema.errors import ErrorCode
from schema.game_events import (
    GameEvent,
    GameStarted,
    PlayerNotified,
    RecordedPosition,
    Settings,
    TurnResolved,
    Vote,
)
from server.game.decide import Refusal, decide
from server.game.decide.fork import forked_players

T0 = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
ADMIN = "acct-admin"
# With the default settings (resolution hour 12, UTC), turn 1 resolves at noon of T0's day.
NOON = T0.replace(hour=12)
# The secret of every game started through `started` (the server draws a fresh one).
SECRET = bytes(range(32))
# The nonce of every submission's receipt (the server draws a fresh one for each).
NONCE = bytes(range(32, 64))


class Game:
    """A game's event history, grown by running commands through the decider."""

    def __init__(self, *events: GameEvent) -> None:
        self.events: list[GameEvent] = list(events)

    @property
    def state(self) -> GameState:
        return fold(GameState(), enumerate(self.events, start=1))

    def when(self, command: GameCommand) -> list[GameEvent]:
        """The events the command decides, without recording them."""
        return decide(self.state, command)

    def run(self, command: GameCommand) -> list[GameEvent]:
        """Decide and record, as the shell would after a successful append."""
        events = self.when(command)
        self.events.extend(events)
        return events

    def given(self, *events: GameEvent) -> "Game":
        """Record events as they are, without deciding them."""
        self.events.extend(events)
        return self


@contextmanager
def refused(code: ErrorCode, match: str | None = None) -> Iterator[pytest.ExceptionInfo[Refusal]]:
    """The command run in the block is refused with `code` (and a message that `match`es)."""
    with pytest.raises(Refusal, match=match) as raised:
        yield raised
    assert raised.value.code == code.code, raised.value.message


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def noon(turn: int) -> datetime:
    """When `turn` resolves with the default schedule: noon UTC, one day per turn."""
    return NOON + timedelta(days=turn - 1)


def during(turn: int) -> datetime:
    """A time when orders for `turn` are open with the default schedule: 08:00 on its day."""
    return T0 + timedelta(days=turn - 1)


def account(player: int) -> str:
    return f"acct-{player}"


def created(*, seed: int = 7, client_id: str | None = None, **settings: Any) -> Game:
    """A game set up by ADMIN (through the trusted client `client_id`, if given)."""
    game = Game()
    options = msgspec.convert({"name": "Test game", **settings}, Settings)
    game.run(
        CreateGame(
            actor=Actor(ADMIN),
            now=T0,
            game_id="g1",
            settings=options,
            seed=seed,
            client_id=client_id,
        )
    )
    return game


def joined(
    players: int = 3, *, seed: int = 7, client_id: str | None = None, **settings: Any
) -> Game:
    """A game in its join phase; player i (from 1) is account `acct-i` named `Player i`.
    The admin is a separate account that does not play."""
    game = created(seed=seed, client_id=client_id, **settings)
    for i in range(1, players + 1):
        game.run(JoinGame(actor=Actor(account(i)), now=T0, name=f"Player {i}"))
    return game


def started(players: int = 3, *, seed: int = 7, **settings: Any) -> Game:
    game = joined(players, seed=seed, **settings)
    game.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    return game


def start_event(game: Game) -> GameStarted:
    return next(e for e in game.events if isinstance(e, GameStarted))


def on_board(
    armies: dict[str, str],
    control: dict[str, str] | None = None,
    *,
    players: int = 3,
    game_map: str = "rulebook",
    farms: Iterable[str] = (),
    vote: Vote | None = None,
    secret: bytes = SECRET,
    **settings: Any,
) -> Game:
    """A game started by hand on a built-in map with a scripted position. Every army's
    territory is controlled by its owner; `control` adds territories without armies."""
    game = joined(players, **settings)
    board = RecordedPosition(
        armies=armies, control={**(control or {}), **armies}, farms=sorted(farms)
    )
    started = GameStarted(
        map=builtin_map(game_map),
        board=board,
        homes={},
        at=T0,
        vote=vote,
        secret=secret.hex(),
        commitment=commitment(secret),
    )
    return game.given(started)


def scored(game: Game, vp: dict[str, int], *, board: RecordedPosition | None = None) -> Game:
    """A resolution of the current turn, given by hand, that leaves the players with `vp`
    (every player not named keeps its VP) and the board as it is, or as `board`."""
    state = game.state
    totals = {pid: state.skirmish.vp_of(pid) for pid in state.players} | vp
    return game.given(
        TurnResolved(
            turn=state.turn,
            at=noon(state.turn),
            effect=None,
            orders=[],
            board=board or state.skirmish.board,
            dead=[],
            vp=totals,
            vp_gained={pid: totals[pid] - state.skirmish.vp_of(pid) for pid in state.players},
            eliminated=[],
            winner=None,
            joined={},
            vote_outcome=None,
            next_vote=None,
            next_effect=None,
        )
    )


def submit(game: Game, player: int, text: str, *, now: datetime | None = None) -> list[GameEvent]:
    """Player `player` sends orders for the current turn while orders are open."""
    state = game.state
    when = during(state.turn) if now is None else now
    return game.run(
        SubmitOrders(
            nonce=NONCE, actor=Actor(account(player)), now=when, text=text, turn=state.turn
        )
    )


def resolve(game: Game, *, now: datetime | None = None) -> TurnResolved:
    """The scheduler resolves the current turn, at its noon unless told otherwise."""
    state = game.state
    when = noon(state.turn) if now is None else now
    event, *notices = game.run(
        ResolveTurn(actor=Actor("scheduler", operator=True), now=when, turn=state.turn)
    )
    assert isinstance(event, TurnResolved)
    assert all(isinstance(n, PlayerNotified) and n.kind == "results" for n in notices)
    return event


def armies_of(state: GameState, player: str) -> list[str]:
    return sorted(t for t, owner in state.skirmish.board.armies.items() if owner == player)


def free_neighbours(state: GameState, territory: str) -> list[str]:
    """The neighbours of `territory` that nobody controls."""
    assert state.skirmish.map is not None
    neighbours = state.skirmish.map.board.neighbours[territory]
    return sorted(t for t in neighbours if t not in state.skirmish.board.control)


def join_forces_example(vp: dict[str, int], **settings: Any) -> Game:
    """The rulebook's example, on a generated map at turn 2: A (p1) controls 8 territories,
    B (p2) 6, C (p3) 4 and D (p4) 2, each with one army; B's army borders a free
    territory. The players have `vp`."""
    game = started(4, **settings)
    assert game.state.skirmish.map is not None
    neighbours = game.state.skirmish.map.board.neighbours
    ids = sorted(neighbours)
    free = ids[0]
    bordering = sorted(neighbours[free])[0]
    rest = [t for t in ids if t not in (free, bordering)]
    armies, control = {bordering: "p2"}, {bordering: "p2"}
    for player, size in {"p1": 8, "p2": 5, "p3": 4, "p4": 2}.items():
        theirs, rest = rest[:size], rest[size:]
        control.update(dict.fromkeys(theirs, player))
        if player != "p2":
            armies[theirs[0]] = player
    assert free not in control
    return scored(game, vp, board=RecordedPosition(armies=armies, control=control, farms=[]))


def joint_players(**settings: Any) -> Game:
    """B (p2, 4 VP) and D (p4, 3 VP) ask for each other in turn 2, with A (p1) leading on
    7 VP, and B orders its army into the free territory; the turn is yet to resolve."""
    game = join_forces_example({"p1": 7, "p2": 4, "p3": 0, "p4": 3}, **settings)
    for player, other in ((2, "p4"), (4, "p2")):
        game.run(RequestJoinForces(actor=Actor(account(player)), now=during(2), with_player=other))
    (army,) = armies_of(game.state, "p2")
    (free,) = free_neighbours(game.state, army)[:1]
    submit(game, 2, f"{army} to {free}")
    return game


def forking(source: Game, *, sandbox: bool, forker: str = "acct-forker") -> ForkGame:
    """The command that forks `source` at its current turn, as the entry point makes it."""
    then = source.state
    assert then.skirmish.map is not None
    return ForkGame(
        actor=Actor(forker),
        now=T0,
        game_id="g2",
        source_game=then.game_id,
        turn=then.turn,
        position=41,
        chain_hash="ab" * 32,
        settings=replace(then.settings, sandbox=sandbox),
        map=then.skirmish.map,
        board=then.skirmish.board,
        players=forked_players(then, forker, sandbox=sandbox),
        effect=then.skirmish.effect,
        vote=then.skirmish.vote,
        secret=SECRET,
        game=then.game,
        game_version=then.game_version,
    )
