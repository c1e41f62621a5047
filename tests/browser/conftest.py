"""Fixtures: a real server on a fresh schema, and a page of a fresh headless Chromium that
fails the test on any JavaScript error and on any request beyond the server (and the
`origins` a test module adds)."""

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Server,
    profile_dir,
    require_browser,
    serving,
)

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
    require_browser()
    from playwright.async_api import ConsoleMessage, Error, Request, async_playwright

    elsewhere: list[str] = []
    problems: list[str] = []

    def on_request(request: Request) -> None:
        url = request.url
        if not url.startswith((*(origin + "/" for origin in origins), "data:", "about:")):
            elsewhere.append(url)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console: {message.text}")

    def on_error(error: Error) -> None:
        problems.append(f"page error: {error}")

    with profile_dir() as profile:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                profile,
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1200, "height": 900},
                device_scale_factor=1,
                locale="en-GB",
                timezone_id="UTC",
                reduced_motion="reduce",
            )
            context.set_default_timeout(10_000)
            context.on("request", on_request)
            context.on("console", on_console)
            context.on("weberror", lambda web_error: on_error(web_error.error))
            try:
                yield context.pages[0] if context.pages else await context.new_page()
            finally:
                await context.close()
    assert not elsewhere, f"requests beyond the server: {elsewhere}"
    unexpected = [p for p in problems if p.removeprefix("console: ") not in expected_errors]
    assert not unexpected, "\n".join(unexpected)
