"""Fixtures: a real server on a fresh schema, and a page of a fresh headless Chromium that
fails the test on any JavaScript error and on any request beyond the server (and the
`origins` a test module adds)."""

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.support import Server, opened_page, serving

if TYPE_CHECKING:
    from playwright.async_api import Page


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url) as running_server:
        yield running_server


@pytest.fixture
def origins(server: Server) -> tuple[str, ...]:
    """Where the page may send requests: the server; a test module may add others."""
    return (server.base,)


@pytest.fixture
def expected_errors() -> list[str]:
    """Console errors that a test causes on purpose (it adds their text): the others fail it."""
    return []


@pytest.fixture
async def page(origins: tuple[str, ...], expected_errors: list[str]) -> AsyncIterator["Page"]:
    async with opened_page(origins, expected_errors) as opened:
        yield opened
