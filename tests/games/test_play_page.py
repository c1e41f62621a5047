"""The shell of every game run by its definition (/games/{game}, js/play.js) for a game that
has no renderer of its own: rock-paper-scissors, a game of the tests' own registered as any
game from outside the project is. Its view is shown as JSON; the players, who is waited for,
the move box, the reader's own sealed move and the history work as for every game."""

import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.support import UNLABELLED_CONTROLS, Server, opened_page, serving
from tests.games.conftest import GAMES

if TYPE_CHECKING:
    from playwright.async_api import Page


@pytest.fixture
async def server(schema_url: str, forgotten: None) -> AsyncIterator[Server]:
    """The browser tests' server (tests/browser/support.py), with the games."""
    async with serving(schema_url, games=GAMES) as running_server:
        yield running_server


@pytest.fixture
async def page(server: Server) -> AsyncIterator["Page"]:
    """The browser tests' page (tests/browser/conftest.py), on this server alone."""
    # The shell asks for the game's renderer, which this game does not have.
    expected = ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
    async with opened_page((server.base,), expected) as opened:
        yield opened


async def test_a_game_without_a_renderer_is_played_through_the_shell(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    ann, bob = await server.sign_up(("Ann", "Bob"))
    body = {"name": "Throws", "game": "rock-paper-scissors", "options": {"rounds": 3}}
    state = await server.begin(body)
    ids = {p.name: p.id for p in server.players}

    await page.goto(f"{server.base}/games/{server.game_id}")
    board = page.locator("#play-board")
    await expect(board).to_have_attribute("data-turn", "1")
    shown = board.locator('pre[data-view="play"]')
    await expect(shown).to_contain_text('"played": 0')
    assert json.loads(await shown.text_content() or "") == state["play"]
    await expect(page.locator("#players li .seat-state")).to_have_text([" to move", " to move"])
    # The game's own standings beside each name, in its order.
    notes = page.locator("#players li .player-note")
    await expect(notes).to_have_text(["points 0", "points 0"])
    await expect(page.locator("#history")).to_be_hidden()

    # Ann throws through the page, as JSON: hers alone until the round is played. Who has
    # thrown is not public in this game, so nobody is shown as having moved.
    await page.locator("#move-token").fill(ann.token)
    await page.locator("#move-token").dispatch_event("change")
    await page.locator("#move-text").fill('"rock"')
    await page.get_by_label("Send it as JSON").check()
    await page.get_by_role("button", name="Send the move").click()
    await expect(page.locator("#move-status")).to_have_text("Move sent.")
    await expect(page.locator(f'#sealed [data-seat="{ids["Ann"]}"]')).to_contain_text("rock")
    await expect(page.locator("#players li .seat-state")).to_have_text([" to move", " to move"])
    # A move that is no JSON is refused in the page, before it is sent.
    await page.locator("#move-text").fill("rock")
    await page.get_by_role("button", name="Send the move").click()
    await expect(page.locator("#move-error")).to_contain_text("Not JSON")

    # Bob's throw, over HTTP, plays the round: the page follows without reloading.
    await page.evaluate("window.sameDocument = true")
    await server.call("POST", f"/v1/games/{server.game_id}/moves", bob, {"move": "paper"})
    await expect(board).to_have_attribute("data-turn", "2")
    await expect(shown).to_contain_text('"played": 1')
    await expect(page.locator("#sealed")).to_be_hidden()
    events = board.locator('pre[data-view="events"]')
    await expect(events).to_contain_text("round_played.v1")
    # Bob won the round: he stands first now.
    await expect(page.locator("#players li .name")).to_have_text(["Bob", "Ann"])
    await expect(notes).to_have_text(["points 1", "points 0"])
    assert await page.evaluate("window.sameDocument") is True

    # The history: the first round as it began.
    await page.locator("#turn-slider").fill("1")
    await expect(board).to_have_attribute("data-view", "history")
    await expect(shown).to_contain_text('"played": 0')
    await expect(page.locator("#view-banner")).to_have_text("Turn 1 of 2, from the game's history")
    assert await page.evaluate(UNLABELLED_CONTROLS) == []
