"""A scripted game played through the GameService: the same moves every time."""

import asyncio
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from msgspec.structs import replace

from eventstore.base import EventStore
from eventstore.records import NewEvent
from projections.evolve import fold
from projections.game import GameState
from projections.loading import stream_of
from schema.commands import (
    Actor,
    CreateGame,
    GameCommand,
    JoinGame,
    ResolveTurn,
    RewindTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import Settings, game_codec
from server.game.decide import decide
from server.game.handlers import GameService
from server.game.outcome import Outcome

ADMIN = "acct-admin"
# The secret of every scripted game (the server draws a fresh one for each).
SECRET = bytes(range(32))
NONCE = bytes(range(32, 64))
START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)


class ScriptedGame:
    """Player 1 turns both home barracks into farms, then farms them every turn; everyone
    else holds. With a VP target of 5, player 1 wins at the end of turn 4."""

    def __init__(self, service: GameService, game_id: str = "g1", players: int = 5) -> None:
        self.service = service
        self.game_id = game_id
        self.players = players
        self.now = START

    def accounts(self) -> list[str]:
        return [f"acct-{i}" for i in range(1, self.players + 1)]

    async def run(self, command: GameCommand) -> Outcome[GameState]:
        return await self.service.execute(self.game_id, command)

    def tick(self, hours: float = 24) -> datetime:
        self.now += timedelta(hours=hours)
        return self.now

    async def set_up(self, **settings: object) -> None:
        options = replace(
            Settings(name="Scripted", vp_target=5, votes="disabled", fast_mode=True), **settings
        )
        await self.run(
            CreateGame(
                actor=Actor(ADMIN), now=self.now, game_id=self.game_id, settings=options, seed=11
            )
        )
        for i, account in enumerate(self.accounts(), start=1):
            await self.run(JoinGame(actor=Actor(account), now=self.now, name=f"Player {i}"))
        await self.run(StartGame(actor=Actor(ADMIN), now=self.now, secret=SECRET))

    async def play_turn(self) -> Outcome[GameState]:
        """Orders for the current turn from every player, then the resolution."""
        loaded = await self.service.load(self.game_id)
        state = loaded.state
        self.tick(0.1)
        for player in state.players.values():
            mine = sorted(
                t for t, owner in state.skirmish.board.armies.items() if owner == player.id
            )
            text = ", ".join(f"{t} {_verb(player.id, state.turn)}" for t in mine)
            if text:
                await self.run(
                    SubmitOrders(
                        nonce=NONCE, actor=Actor(player.accounts[0]), now=self.now, text=text
                    )
                )
        self.tick(0.2)
        return await self.run(ResolveTurn(actor=Actor(ADMIN), now=self.now, turn=state.turn))

    async def rewind(self) -> Outcome[GameState]:
        self.tick(0.01)
        rewind = RewindTurn(actor=Actor(ADMIN), now=self.now, secret=SECRET)
        return await self.service.rewind(self.game_id, rewind)


def _verb(player_id: str, turn: int) -> str:
    """Player 1 builds farms on turn 1 and farms them after; the others hold."""
    if player_id != "p1":
        return "H"
    return "B" if turn == 1 else "F"


async def decided_games(
    store: EventStore, started: Mapping[str, datetime], *, players: int
) -> None:
    """Fast-mode games that began at the given times (game id: start), each decided by the
    pure decider and appended in one go: so that a test can have games fall due on a real
    clock, or on a fake one, when it likes."""

    async def create(n: int, game_id: str, at: datetime) -> None:
        settings = Settings(name=game_id, fast_mode=True, votes="disabled")
        commands: list[GameCommand] = [
            CreateGame(actor=Actor(ADMIN), now=at, game_id=game_id, settings=settings, seed=n),
            *(JoinGame(actor=Actor(f"acct-{i}"), now=at, name=f"P{i}") for i in range(players)),
            StartGame(actor=Actor(ADMIN), now=at, secret=SECRET),
        ]
        state, events = GameState(), list[NewEvent]()
        for command in commands:
            decided = decide(state, command)
            state = fold(state, enumerate(decided, start=state.version + 1))
            correlation = uuid.uuid4()
            events += [
                game_codec.new_event(
                    e, occurred_at=at, actor=command.actor.account, correlation_id=correlation
                )
                for e in decided
            ]
        await store.append(stream_of(game_id), events, expected_version=0)

    await asyncio.gather(*(create(n, g, at) for n, (g, at) in enumerate(started.items())))
