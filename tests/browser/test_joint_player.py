"""The game page after two players join forces, in headless Chromium against a real server:
one joint player named as the rulebook names it (Bob/Cy), in the standings, on the map and
in the board as text; never a row of a former half, nor an id in place of a name, live or
in the game's history."""

import re
from datetime import datetime
from typing import TYPE_CHECKING

from tests.browser.support import OPERATOR_TOKEN, PAST_THE_LOCK, Json, Player, Server

if TYPE_CHECKING:
    from playwright.async_api import Page

OPERATOR = Player("operator", "operator", OPERATOR_TOKEN)
# A player id where a name belongs: p2, p3, p2/p3.
PLAYER_ID = re.compile(r"\bp\d+(/p\d+)?\b")


async def _next_turn(server: Server) -> Json:
    """The clock to the turn's resolution, which resolves it, and past the lock after it."""
    game = await server.game()
    due = datetime.fromisoformat(game["next_resolution_at"]) - datetime.fromisoformat(game["now"])
    body = {"advance_seconds": due.total_seconds() + PAST_THE_LOCK}
    await server.call("POST", "/v1/admin/clock", OPERATOR, body)
    return await server.game()


def _neighbours(state: Json) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {t["id"]: set() for t in state["map"]["territories"]}
    for a, b in state["map"]["edges"]:
        found[a].add(b)
        found[b].add(a)
    return found


def _armies(state: Json, player_id: str) -> list[str]:
    return sorted(t for t, owner in state["board"]["armies"].items() if owner == player_id)


def _spread(state: Json, player_id: str) -> str:
    """Orders that move each of the player's armies into a free territory next to it."""
    board, near = state["board"], _neighbours(state)
    taken: set[str] = set()
    orders = []
    for army in _armies(state, player_id):
        free = sorted(
            n for n in near[army] if n not in board["control"] and n not in board["armies"]
        )
        free = [n for n in free if n not in taken]
        if free:
            taken.add(free[0])
            orders.append(f"{army} to {free[0]}")
    return ", ".join(orders)


async def test_a_joint_player_replaces_its_two_halves_on_the_page(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    state = await server.new_game()
    ann, bob, cy = server.players
    await page.goto(f"{server.base}/games/{server.game_id}")
    # Ann spreads out for three turns, to 3 VP and three times Bob's or Cy's size; Bob and
    # Cy hold. Then they may join forces.
    for _ in range(3):
        await server.orders(ann, _spread(state, ann.id))
        for player in (bob, cy):
            await server.orders(player, f"{_armies(state, player.id)[0]} H")
        state = await _next_turn(server)
    path = f"/v1/games/{server.game_id}/join-forces"
    await server.call("POST", path, bob, {"with": cy.id})
    await server.call("POST", path, cy, {"with": bob.id})
    holds = {p.id: f"{_armies(state, p.id)[0]} H" for p in (bob, cy)}
    for player in (bob, cy):
        await server.orders(player, holds[player.id])
    state = await _next_turn(server)
    joint = f"{bob.id}/{cy.id}"
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob/Cy"]

    board = page.locator("#map")
    await expect(board).to_have_attribute("data-turn", "5")
    names = page.locator("#standings li.player .player-name")
    await expect(names).to_have_text(["Ann", "Bob/Cy"])
    # The orders its halves gave in the turn that joined them are the joint player's: its
    # armies carried them out; no row of a former half, no id for a name.
    await expect(page.locator("#standings li.former")).to_have_count(0)
    shown = page.locator(f'#standings li[data-player="{joint}"] .orders .order-text')
    await expect(shown).to_have_text([holds[bob.id], holds[cy.id]])
    side = await page.locator("#side").inner_text()
    assert not PLAYER_ID.search(side), side
    await page.locator("#board-text-box summary").click()
    described = await page.locator("#board-text").inner_text()
    assert "Bob/Cy" in described
    assert not PLAYER_ID.search(described), described

    # Its next turn: its own orders alone.
    mine = _armies(state, joint)
    await server.orders(bob, f"{mine[0]} H")
    await _next_turn(server)
    await expect(board).to_have_attribute("data-turn", "6")
    await expect(shown).to_have_text([f"{mine[0]} H"])
    await expect(names).to_have_text(["Ann", "Bob/Cy"])
    await expect(page.locator("#standings li.former")).to_have_count(0)

    # The history before the join: Bob and Cy as they were then, each by name.
    await page.goto(f"{server.base}/games/{server.game_id}?turn=4")
    await expect(board).to_have_attribute("data-turn", "4")
    await expect(names).to_have_text(["Ann", "Bob", "Cy"])
    side = await page.locator("#side").inner_text()
    assert not PLAYER_ID.search(side), side
