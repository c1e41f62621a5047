"""The game page's countdown to the next resolution, in headless Chromium: on a server whose
clock runs (here set years away from the browser's), it counts down on the server's time;
on a fake clock, which moves only by hand, tests/browser/test_game_page.py shows that there
is none."""

import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.support import START, RunningClock, Server, serving

if TYPE_CHECKING:
    from playwright.async_api import Page


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url, clock=RunningClock(START)) as running_server:
        yield running_server


async def test_on_a_running_clock_the_page_counts_down_on_the_servers_time(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    state = await server.new_game()
    assert state["clock"] == "real"
    await page.goto(f"{server.base}/games/{server.game_id}")
    countdown = page.locator("#countdown")
    # Fast mode: the turn resolves 15 minutes after the start, on the server's clock.
    await expect(countdown).to_contain_text(re.compile(r"^Next resolution in 14 min \d\d s"))
    await expect(countdown).to_have_attribute("data-at", state["next_resolution_at"])
    first = await countdown.locator(".remaining").inner_text()
    await expect(countdown.locator(".remaining")).not_to_have_text(first, timeout=3000)
