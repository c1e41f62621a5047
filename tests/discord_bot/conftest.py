"""Fixtures for the bot's tests: a real server, a trusted client's token for the bot, and the
real bot in a fake Discord (harness.py)."""

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from client import SkirmishClient
from discord_bot import create_bot
from tests.api.support import OPERATOR_TOKEN, Server, serving
from tests.discord_bot.harness import FakeDiscord

Bots = Callable[[], AbstractAsyncContextManager[FakeDiscord]]


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url) as running_server:
        yield running_server


@pytest.fixture
async def client_token(server: Server) -> str:
    async with SkirmishClient(server.base, OPERATOR_TOKEN) as operator:
        return (await operator.create_client("discord-bot")).token


@pytest.fixture
def bots(server: Server, client_token: str, tmp_path: Path) -> Bots:
    """A bot in a fake Discord of its own each time: a restart starts from nothing but the
    server and the bot's data directory (the same one within a test)."""

    @asynccontextmanager
    async def started() -> AsyncIterator[FakeDiscord]:
        bot = create_bot(server.base, client_token, tmp_path / "bot")
        await bot._async_setup_hook()
        fake = FakeDiscord(bot)
        try:
            yield fake
        finally:
            await fake.close()

    return started


@pytest.fixture
async def discord(bots: Bots) -> AsyncIterator[FakeDiscord]:
    async with bots() as fake:
        yield fake
