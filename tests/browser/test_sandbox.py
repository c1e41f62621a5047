"""The sandbox (/sandbox) in headless Chromium: orders checked as they are typed, the
resolution previewed on the map, then resolve, rewind and reset; and any map."""

import re
from typing import TYPE_CHECKING

from rules.skirmish.mapgen import generate
from rules.skirmish.maps import builtin_map
from tests.browser.support import UNLABELLED_CONTROLS, Server

if TYPE_CHECKING:
    from playwright.async_api import Page

ARMIES_ON_MAP = """els => Object.fromEntries(
    els.map(e => [e.dataset.territory, e.dataset.player]))"""
# The rulebook map's preset (server/pages/js/sandbox.js).
PRESET_ARMIES = {
    "SI": "red",
    "MA": "red",
    "RG": "blue",
    "OG": "blue",
    "EH": "blue",
    "JN": "green",
    "KH": "green",
}


async def armies_on_map(page: "Page") -> dict[str, str]:
    found: dict[str, str] = await page.eval_on_selector_all("#map g.army:not(.dead)", ARMIES_ON_MAP)
    return found


async def test_the_sandbox_checks_orders_as_typed_and_previews_them(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    await page.goto(f"{server.base}/sandbox")
    board = page.locator("#map")
    await expect(page.locator("#map polygon.territory")).to_have_count(16)
    await expect(board).to_have_attribute("data-view", "position")
    assert await armies_on_map(page) == PRESET_ARMIES

    # Typed with the keyboard: each order is checked as it comes.
    orders = page.get_by_label("Orders for any army")
    await orders.focus()
    await page.keyboard.type("RG to SI", delay=10)
    checked = page.locator("#checked li")
    await expect(checked).to_have_count(1)
    # Alone, the attack bounces off the hold of Simm.
    await expect(checked.nth(0)).to_have_attribute("data-result", "failed")
    await expect(board).to_have_attribute("data-view", "preview")
    await page.keyboard.type("\nOG S RG to SI\nVW to JN", delay=10)
    await expect(checked).to_have_count(3)
    await expect(checked.nth(0)).to_have_attribute("data-result", "succeeded")
    await expect(checked.nth(0)).to_contain_text("attack 2 beat the hold of SI (1)")
    await expect(checked.nth(1)).to_have_attribute("data-result", "succeeded")
    await expect(checked.nth(1)).to_contain_text("blue")
    await expect(checked.nth(2)).to_have_attribute("data-result", "invalid")
    await expect(checked.nth(2)).to_contain_text("no army in VW")
    await expect(page.locator("#check-status")).to_have_text("1 of 3 orders are invalid.")

    # The preview: the arrow, the hashed support, the red army dead under the blue one.
    move = page.locator('#map g.order.move[data-unit="RG"][data-target="SI"]')
    await expect(move).to_have_attribute("data-result", "succeeded")
    support = page.locator('#map g.order.support[data-unit="OG"]')
    await expect(support).to_have_attribute("data-result", "succeeded")
    dead = page.locator('#map g.army.dead[data-territory="SI"]')
    await expect(dead).to_have_attribute("data-player", "red")
    await expect(page.locator("#view-banner")).to_contain_text("nothing changes until you resolve")
    await expect(page.locator("#turn-number")).to_have_text("1")

    # Resolve (Ctrl+Enter in the orders, or the button): the position moves on, the orders
    # go under the names.
    await orders.press("Control+Enter")
    await expect(board).to_have_attribute("data-view", "resolved")
    await expect(board).to_have_attribute("data-turn", "2")
    await expect(orders).to_have_value("")
    resolved = {**PRESET_ARMIES, "SI": "blue"}
    del resolved["RG"]
    assert await armies_on_map(page) == resolved
    blue_orders = page.locator('#standings li[data-player="blue"] .orders .order-text')
    await expect(blue_orders).to_have_text(["RG to SI", "OG S RG to SI"])
    # An order for no army goes to the first player, who learns that it is invalid.
    red_orders = page.locator('#standings li[data-player="red"] .orders .order-text')
    await expect(red_orders).to_have_text(["VW to JN"])
    await expect(page.locator('#standings li[data-player="red"] .stats')).to_have_text(
        "0 VP · 4 territories · 1 army"
    )

    # Rewind: back to turn 1 with its orders, previewed again.
    await page.get_by_role("button", name="Rewind").click()
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(orders).to_have_value("RG to SI\nOG S RG to SI\nVW to JN")
    await expect(board).to_have_attribute("data-view", "preview")
    await expect(page.get_by_role("button", name="Rewind")).to_be_disabled()

    # Reset: the preset position, no orders.
    await page.get_by_role("button", name="Reset").click()
    await expect(board).to_have_attribute("data-view", "position")
    await expect(orders).to_have_value("")
    await expect(checked).to_have_count(0)
    assert await armies_on_map(page) == PRESET_ARMIES


async def test_the_sandbox_plays_on_any_map(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    await page.goto(f"{server.base}/sandbox")
    await expect(page.locator("#map polygon.territory")).to_have_count(16)
    assert await page.evaluate(UNLABELLED_CONTROLS) == []
    # On a phone, nothing is wider than the screen.
    await page.set_viewport_size({"width": 390, "height": 844})
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await page.set_viewport_size({"width": 1200, "height": 900})

    # A generated map: every player's homes, an army on each home barracks.
    await page.get_by_label("Map", exact=True).select_option("generated")
    await page.get_by_label("Players").fill("4")
    await page.get_by_label("Seed").fill("3")
    await page.get_by_role("button", name="Set up the board").click()
    generated = generate(4, "normal", 3)
    await expect(page.locator("#map polygon.territory")).to_have_count(len(generated.territories))
    barracks = {t.id for t in generated.territories if t.barracks}
    homes = {tid: f"p{n + 1}" for n, home in enumerate(generated.homes) for tid in home}
    assert await armies_on_map(page) == {t: p for t, p in homes.items() if t in barracks}
    await expect(page).to_have_url(re.compile(r"map=generated&players=4&type=normal&seed=3"))
    # An order for a generated map's army is checked there too.
    unit = sorted(t for t in homes if t in barracks and homes[t] == "p2")[0]
    await page.get_by_label("Orders for any army").fill(f"{unit} H")
    await expect(page.locator("#checked li")).to_have_attribute("data-result", "succeeded")
    await expect(page.locator("#checked li")).to_contain_text("Player 2")

    # The land of standard Diplomacy, drawn although its file has no coordinates.
    await page.get_by_label("Map", exact=True).select_option("diplomacy-land")
    await page.get_by_role("button", name="Set up the board").click()
    land = builtin_map("diplomacy-land")
    await expect(page.locator("#map polygon.territory")).to_have_count(len(land.territories))
    await expect(page.locator("#map g.army")).to_have_count(22)
    await page.get_by_label("Orders for any army").fill("PAR to BUR, MUN to BUR")
    checked = page.locator("#checked li")
    await expect(checked).to_have_count(2)
    await expect(checked.nth(0)).to_contain_text("france")
    await expect(checked.nth(1)).to_contain_text("germany")
    await expect(checked.nth(0)).to_have_attribute("data-result", "failed")
