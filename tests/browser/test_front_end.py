"""The example front end (examples/front-end.html) in headless Chromium, served from an origin
of its own while the real server runs on another: it lists the games, follows one live over
the websocket and submits orders, all across origins, with the server allowing any origin or
only the example's."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from server.live import auth as live_auth
from tests.api.support import until
from tests.browser.support import UNLABELLED_CONTROLS, Server, first_move, serving
from tests.server.running import running

if TYPE_CHECKING:
    from playwright.async_api import Page

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
async def site() -> AsyncIterator[str]:
    """examples/ served as plain files, on a port (so an origin) of its own."""
    files = FastAPI()
    files.mount("/", StaticFiles(directory=EXAMPLES))
    async with running(files) as base:
        yield base


@pytest.fixture(params=["any origin", "the example's origin"])
async def server(
    request: pytest.FixtureRequest, schema_url: str, site: str
) -> AsyncIterator[Server]:
    allowed = ("*",) if request.param == "any origin" else (site,)
    async with serving(schema_url, cors_origins=allowed) as running_server:
        yield running_server


@pytest.fixture
def origins(server: Server, site: str) -> tuple[str, ...]:
    return (server.base, site)


async def test_the_example_plays_a_game_from_another_origin(
    server: Server, site: str, page: "Page", expected_errors: list[str]
) -> None:
    from playwright.async_api import expect

    await server.new_game()
    ann = server.players[0]

    async def listed() -> bool:
        games = (await server.client.get("/v1/games")).json()["games"]
        return any(g["id"] == server.game_id and g["phase"] == "running" for g in games)

    # The list is a read model, a few milliseconds behind the game (docs/api.md): the page
    # reads it once, so only once it has the game started.
    await until(listed, what="the game in the list, started")
    await page.goto(f"{site}/front-end.html?api={server.base}")
    assert await page.evaluate(UNLABELLED_CONTROLS) == []

    # The games, from the server's list.
    entry = page.locator(f'#games li[data-game="{server.game_id}"]')
    await expect(entry).to_contain_text("Browser game running, turn 1, 3 players")

    # An account made from the page: its token is shown, and used.
    await page.fill("#account-name", "Dee")
    await page.get_by_role("button", name="Create").click()
    await expect(page.locator("#who")).to_contain_text("Account created")
    made = await page.input_value("#token")
    dee = await server.client.get("/v1/games", headers={"Authorization": f"Bearer {made}"})
    assert dee.status_code == 200

    # Ann's token, pasted; then her game, followed live.
    await page.fill("#token", ann.token)
    await page.get_by_role("button", name="Use it").click()
    await entry.get_by_role("button", name="Browser game").click()
    await expect(page.locator("#game-heading")).to_have_text("Browser game")
    await expect(page.locator("#live")).to_have_text("live")
    await expect(page.locator("#phase")).to_have_text("turn 1")
    await expect(page.locator("#players tr")).to_have_count(3)

    # A resolution made elsewhere arrives over the websocket, and the page reads the game
    # again.
    await server.resolve()
    await expect(page.locator("#log")).to_contain_text("turn 1 resolved")
    await expect(page.locator("#phase")).to_have_text("turn 2")

    # Orders from the page: checked by the server, and Ann's own event comes back on her
    # private channel.
    unit, target = first_move(await server.game(), ann.id)
    await page.fill("#orders", f"{unit} to {target}, XX to YY")
    await page.get_by_role("button", name="Submit orders").click()
    result = page.locator("#orders-result li")
    await expect(result.nth(0)).to_have_text(f"✓ {unit} to {target}")
    await expect(result.nth(1)).to_have_class("invalid")
    await expect(page.locator("#log")).to_contain_text("orders_submitted.v1")
    mine = await server.call("GET", f"/v1/games/{server.game_id}/orders", ann)
    assert [(order["unit"], order["target"]) for order in mine["current"]] == [(unit, target)]

    # An error of the API, its code and message read across origins (Ann has joined).
    join = f"/v1/games/{server.game_id}/join"
    refused = (await server.client.post(join, headers=ann.auth)).json()["error"]
    expected_errors.append(
        "Failed to load resource: the server responded with a status of 409 (Conflict)"
    )
    await page.get_by_role("button", name="Join this game").click()
    await expect(page.locator("#problem")).to_have_text(f"{refused['code']}: {refused['message']}")


async def test_over_a_slow_link_the_example_still_follows_as_the_player(
    server: Server, site: str, page: "Page"
) -> None:
    from playwright.async_api import expect

    await server.new_game()
    ann = server.players[0]
    # Whatever the page sends on a websocket arrives long after a spectator's wait for a
    # token: the page's token too.
    late = live_auth.TOKEN_WAIT_SECONDS * 1000 * 3
    await page.add_init_script(
        "const send = WebSocket.prototype.send;"
        "WebSocket.prototype.send = function (data) {"
        f"  setTimeout(() => send.call(this, data), {late});"
        "};"
    )
    await page.goto(f"{site}/front-end.html?api={server.base}")
    await page.fill("#token", ann.token)
    await page.get_by_role("button", name="Use it").click()
    await page.evaluate("id => openGame(id)", server.game_id)
    await expect(page.locator("#live")).to_have_text("live")

    unit, target = first_move(await server.game(), ann.id)
    await server.orders(ann, f"{unit} to {target}")
    # Ann's own event, which only her private channel carries.
    await expect(page.locator("#log")).to_contain_text("orders_submitted.v1")
    await expect(page.locator("#live")).to_have_text("live")
