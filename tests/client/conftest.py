"""Fixtures for the client's tests: a real server, and a client of it that calls as nobody."""

from collections.abc import AsyncIterator

import pytest

from client import SkirmishClient
from tests.api.support import Server, serving


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url, webhook_allow_private=True) as running_server:
        yield running_server


@pytest.fixture
async def anyone(server: Server) -> AsyncIterator[SkirmishClient]:
    async with SkirmishClient(server.base) as client:
        yield client
