"""The live page of a game (/games/{game}) in headless Chromium, against a real server with
games played over HTTP: it renders the game, follows the websocket without reloading, and
travels through the game's history."""

import re
from typing import TYPE_CHECKING

import pytest

from server.live import auth as live_auth
from tests.browser.support import UNLABELLED_CONTROLS, Server, first_move

if TYPE_CHECKING:
    from playwright.async_api import Page

ARMIES_ON_MAP = """els => Object.fromEntries(
    els.map(e => [e.dataset.territory, e.dataset.player]))"""
CONTROL_ON_MAP = """els => Object.fromEntries(
    els.filter(e => e.dataset.controller).map(e => [e.dataset.territory, e.dataset.controller]))"""


async def armies_on_map(page: "Page") -> dict[str, str]:
    found: dict[str, str] = await page.eval_on_selector_all("#map g.army:not(.dead)", ARMIES_ON_MAP)
    return found


async def test_the_page_renders_a_running_game(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    state = await server.new_game(votes=True)
    game_map = state["map"]
    await page.goto(f"{server.base}/games/{server.game_id}")

    territories = page.locator("#map polygon.territory")
    await expect(territories).to_have_count(len(game_map["territories"]))
    await expect(page.locator("h1")).to_have_text("Browser game")
    assert await armies_on_map(page) == state["board"]["armies"]
    control = await page.eval_on_selector_all("#map polygon.territory", CONTROL_ON_MAP)
    assert control == state["board"]["control"]
    barracks = [t for t in game_map["territories"] if t.get("barracks")]
    await expect(page.locator("#map use.icon.barracks")).to_have_count(len(barracks))
    await expect(page.locator("#map g.overseas g.link")).to_have_count(
        2 * len(game_map["overseas"])
    )
    # The side bar: standings in the API's order, and the countdown.
    names = page.locator("#standings li.player .player-name")
    await expect(names).to_have_text([p["name"] for p in state["players"]])
    # The server's clock is a fake one, which moves only when its operator moves it: the
    # resolution's time on it, and no countdown that real time would run down.
    countdown = page.locator("#countdown")
    await expect(countdown).to_have_text(
        "Next resolution at 08:15 on the server's clock (4 Mar 2030). Its operator moves "
        "that clock by hand (a demo or a test): no countdown."
    )
    await expect(countdown).to_have_attribute("data-at", state["next_resolution_at"])
    await expect(page.locator("#orders-caption")).to_have_text("No turn has been resolved yet.")
    await expect(page.locator("#turn-slider")).to_have_attribute("max", "1")

    # The vote in progress, counted live; then its winner in force.
    first, second = state["vote"]["candidates"]
    vote = page.locator("#vote .vote-now")
    await expect(vote.locator(f'li[data-effect="{first}"]')).to_contain_text(f"{first} (0 votes)")
    await expect(vote.locator(f'li[data-effect="{second}"]')).to_contain_text(f"{second} (0 votes)")
    await expect(vote).to_contain_text(f"A tie goes to {state['vote']['tie_break']}.")
    for player in server.players[:2]:
        await server.call("POST", f"/v1/games/{server.game_id}/votes", player, {"effect": second})
    await expect(vote.locator(f'li[data-effect="{second}"]')).to_contain_text(f"{second} (2 votes)")
    await server.resolve()
    await expect(page.locator("#effect")).to_contain_text(f"In force this turn: {second}")
    await expect(page.locator("#vote")).to_contain_text(f"Last vote: {second} won")

    # Keyboard: every control has a name, and Tab reaches the slider and the zoom button.
    assert await page.evaluate(UNLABELLED_CONTROLS) == []
    reached: set[str] = set()
    for _ in range(12):
        await page.keyboard.press("Tab")
        reached.add(await page.evaluate("document.activeElement.id"))
    assert {"turn-slider", "zoom", "turn-link"} <= reached
    zoom = page.get_by_role("button", name="Zoom in")
    await zoom.click()
    await expect(page.get_by_role("button", name="Fit the map")).to_have_attribute(
        "aria-pressed", "true"
    )

    # A phone: nothing wider than the screen, the map fits, the standings follow it.
    await page.set_viewport_size({"width": 390, "height": 844})
    await page.get_by_role("button", name="Fit the map").click()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    drawn = await page.locator("#map").bounding_box()
    side = await page.locator("#standings").bounding_box()
    assert drawn is not None
    assert side is not None
    assert 340 <= drawn["width"] <= 390
    assert side["y"] > drawn["y"] + drawn["height"]
    assert side["width"] <= 390


async def test_websocket_messages_redraw_the_page_without_a_reload(
    server: Server, page: "Page", monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.async_api import expect

    # The page's socket is a spectator's that says so: it is not held back by the wait for a
    # token sent as a first message, however long that is.
    monkeypatch.setattr(live_auth, "TOKEN_WAIT_SECONDS", 3600.0)
    state = await server.new_game()
    ann = server.players[0]
    unit, target = first_move(state, ann.id)
    await page.goto(f"{server.base}/games/{server.game_id}")
    board = page.locator("#map")
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(page.locator("#connection")).to_contain_text("Live")
    await page.evaluate("window.sameDocument = true")

    # A resolution: the new board, the arrow of the move, the orders under the name.
    await server.orders(ann, f"{unit} to {target}, {target} to {unit}")
    await server.resolve()
    await expect(board).to_have_attribute("data-turn", "2")
    arrow = page.locator(f'#map g.order.move[data-unit="{unit}"][data-target="{target}"]')
    await expect(arrow).to_have_attribute("data-result", "succeeded")
    await expect(page.locator(f'#map g.army[data-territory="{target}"]')).to_have_attribute(
        "data-player", ann.id
    )
    orders = page.locator(f'#standings li[data-player="{ann.id}"] .orders li')
    await expect(orders.locator(".order-text")).to_have_text(
        [f"{unit} to {target}", f"{target} to {unit}"]
    )
    # The invalid order is struck through, as the rulebook writes it.
    await expect(orders.nth(1)).to_have_attribute("data-result", "invalid")
    await expect(orders.nth(1)).to_have_css("text-decoration-line", "line-through")
    await expect(orders.nth(0)).to_have_css("text-decoration-line", "none")
    await expect(page.locator("#orders-caption")).to_have_text(
        "Under each name: the orders of turn 1."
    )

    # Any other event redraws too: a player's new name.
    path = f"/v1/games/{server.game_id}/players/me"
    await server.call("PATCH", path, ann, {"name": "Annabel"})
    await expect(page.locator(f'#standings li[data-player="{ann.id}"] .player-name')).to_have_text(
        "Annabel"
    )

    # A rewind: the state is loaded again, the turn is undone.
    await server.rewind()
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(arrow).to_have_count(0)
    assert await armies_on_map(page) == state["board"]["armies"]
    await expect(page.locator(f'#standings li[data-player="{ann.id}"] .player-name')).to_have_text(
        "Ann"
    )
    assert await page.evaluate("window.sameDocument") is True


async def test_the_slider_shows_older_turns_and_links_to_them(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    state = await server.new_game()
    ann = server.players[0]
    unit, target = first_move(state, ann.id)
    await server.orders(ann, f"{unit} to {target}")
    await server.resolve()
    await server.resolve()  # turn 2: everyone holds
    await page.goto(f"{server.base}/games/{server.game_id}")
    board = page.locator("#map")
    slider = page.get_by_label("Turn", exact=True)
    await expect(slider).to_have_attribute("max", "3")
    await expect(board).to_have_attribute("data-view", "live")
    await expect(page.locator("#turn-output")).to_have_text("3 of 3 (live)")

    # Home: the first turn, as the game started.
    await slider.focus()
    await page.keyboard.press("Home")
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(board).to_have_attribute("data-view", "history")
    assert await armies_on_map(page) == state["board"]["armies"]
    await expect(page).to_have_url(re.compile(r"\?turn=1$"))
    await expect(page.locator("#view-banner")).to_have_text("Turn 1 of 3, from the game's history")

    # One step on: turn 2, drawn with the orders of turn 1.
    await page.keyboard.press("ArrowRight")
    await expect(board).to_have_attribute("data-turn", "2")
    arrow = page.locator(f'#map g.order.move[data-unit="{unit}"][data-target="{target}"]')
    await expect(arrow).to_have_attribute("data-result", "succeeded")
    link = await page.locator("#turn-link").get_attribute("href")
    assert link is not None
    assert link.endswith(f"/games/{server.game_id}?turn=2")

    # The link, opened anew, shows that turn.
    shared = await page.context.new_page()
    await shared.goto(link)
    await expect(shared.locator("#map")).to_have_attribute("data-view", "history")
    await expect(shared.locator("#map")).to_have_attribute("data-turn", "2")
    await expect(
        shared.locator(f'#map g.order.move[data-unit="{unit}"][data-target="{target}"]')
    ).to_have_count(1)
    await shared.close()

    await page.get_by_role("button", name="Back to live").click()
    await expect(board).to_have_attribute("data-view", "live")
    await expect(board).to_have_attribute("data-turn", "3")
    await expect(page).to_have_url(f"{server.base}/games/{server.game_id}")
