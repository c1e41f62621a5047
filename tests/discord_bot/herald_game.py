"""The scripted game of tests/api/game.py played by Discord users through a trusted client,
with a herald (discord_bot/herald.py) that records what it would post instead of posting."""

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from client import ActingUser, SkirmishClient
from discord_bot.herald import Herald, Heralds
from discord_bot.herald_posts import Outgoing
from discord_bot.herald_state import Cursor, GameRecord, Records
from schema.api import NewGame, PlayerPatch
from tests.api.game import NAMES, ORDERS, SEED, VOTE, VP_TARGET
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, Server, until

CHANNEL = "700000000000000001"
# Discord user ids, one a player, in NAMES' order (Ann is p1, ... Di is p4).
USERS = {name: str(800000000000000001 + index) for index, name in enumerate(NAMES)}
# A fast game resolves every 15 minutes; each player is reminded a few minutes before.
TURN_SECONDS = 15 * 60


def png_size(data: bytes | None) -> tuple[int, int]:
    """The size of a PNG that decodes whole."""
    assert data is not None
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "PNG"
        picture.load()
        return picture.size


class RecordingSink:
    """Keeps every message it is given, in order."""

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []

    async def send(self, message: Outgoing) -> None:
        self.sent.append(message)

    @property
    def posts(self) -> list[Outgoing]:
        return [m for m in self.sent if m.user is None]

    def direct(self, name: str) -> list[Outgoing]:
        return [m for m in self.sent if m.user == USERS[name]]


@dataclass
class DiscordGame:
    server: Server
    client_token: str = ""
    game_id: str = ""
    # Where each player joined: their notices are sent from there on.
    joined_at: dict[str, tuple[str, int]] = field(default_factory=dict)

    def as_(self, name: str) -> SkirmishClient:
        user = ActingUser(USERS[name], name=name)
        return self.server.api.anyone.using(self.client_token, user)

    @property
    def spectator(self) -> SkirmishClient:
        return self.server.api.anyone

    async def create(self) -> None:
        operator = self.server.api.as_(OPERATOR_TOKEN)
        self.client_token = (await operator.create_client("discord-bot")).token
        setup = NewGame(
            "Friday game",
            fast_mode=True,
            seed=SEED,
            vp_target=VP_TARGET,
            votes="every_other_turn",
            vote_start_turn=3,
        )
        self.game_id = (await self.as_("Ann").create_game(setup)).id

    async def join_and_start(self) -> None:
        for name in NAMES:
            joined = await self.as_(name).join(self.game_id)
            self.joined_at[name] = (joined.player, joined.position)
        await self.as_("Ann").start(self.game_id)

    async def submit(self, turn: int) -> None:
        for index, text in ORDERS[turn].items():
            await self.as_(NAMES[index]).submit_orders(self.game_id, text, turn=turn)

    async def vote_all(self) -> None:
        for name in NAMES:
            await self.as_(name).vote(self.game_id, VOTE)

    async def notifications(self, name: str, on: bool) -> None:
        await self.as_(name).change_me(self.game_id, PlayerPatch(notifications=on))

    async def play_out(self, turn: int) -> None:
        """Let the clock run to the turn's resolution, reminders on the way, the scheduler
        resolving it; then past the lock after it."""
        operator = self.server.api.as_(OPERATOR_TOKEN)
        await operator.move_clock(advance_seconds=TURN_SECONDS)
        await until(lambda: self._turn_is(turn + 1), what=f"turn {turn} to resolve", seconds=30)
        await operator.move_clock(advance_seconds=PAST_THE_LOCK)

    async def _turn_is(self, turn: int) -> bool:
        game = await self.spectator.get_game(self.game_id)
        return game.turn >= turn or game.phase == "finished"

    def record(self, after: int = 0) -> GameRecord:
        return GameRecord(game=self.game_id, channel=CHANNEL, public=Cursor(after=after))

    def enlist(self, herald: Herald | Heralds) -> None:
        for name, (player, position) in self.joined_at.items():
            if isinstance(herald, Heralds):
                herald.enlist(self.game_id, USERS[name], player, position)
            else:
                herald.enlist(USERS[name], player, position)

    @contextlib.asynccontextmanager
    async def herald(
        self, directory: Path, sink: RecordingSink, record: GameRecord | None = None
    ) -> AsyncIterator[Herald]:
        """A herald of the game running until the block ends, from `record` (a new one
        from the game's creation, or the one kept in `directory`)."""
        records = Records(directory)
        if record is None:
            record = records.load(self.game_id) or self.record()
        herald = Herald(self.spectator, self.client_token, record, records, sink)
        task = asyncio.create_task(herald.run())
        try:
            yield herald
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @contextlib.asynccontextmanager
    async def heralds(self, directory: Path, sink: RecordingSink) -> AsyncIterator[Heralds]:
        """The bot's heralds, resuming every game kept in `directory`, until the block
        ends."""
        heralds = Heralds(self.spectator, self.client_token, Records(directory), sink)
        heralds.resume()
        try:
            yield heralds
        finally:
            await heralds.aclose()
