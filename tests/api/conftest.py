"""Fixtures for the API tests: a real uvicorn over the app on a fresh schema."""

from collections.abc import AsyncIterator

import pytest

from tests.api.support import Server, serving


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url) as running_server:
        yield running_server
