"""Fixtures: a real server on a fresh schema, and a page of a fresh headless Chromium that
fails the test on any JavaScript error and on any request beyond the server."""

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
async def page(server: Server) -> AsyncIterator["Page"]:
    require_browser()
    from playwright.async_api import ConsoleMessage, Error, Request, async_playwright

    elsewhere: list[str] = []
    problems: list[str] = []

    def on_request(request: Request) -> None:
        url = request.url
        if not url.startswith((server.base + "/", "data:", "about:")):
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
    assert not problems, "\n".join(problems)
