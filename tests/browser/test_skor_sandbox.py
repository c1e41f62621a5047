"""The Skor sandbox (/sandbox/skor) in headless Chromium against a real server: one person
rolls the territories, chooses for both players and plays actions for both sides, clicked
and typed, each adjudicated by POST /v1/adjudicate ("ruleset": "skor"); a refusal says the
engine's reason and changes nothing; Undo steps back. A game's turn, opened from its page,
is played on in the sandbox."""

from typing import TYPE_CHECKING

from tests.browser.skor_games import free_neighbour, move, skor_game
from tests.browser.support import UNLABELLED_CONTROLS, Server

if TYPE_CHECKING:
    from playwright.async_api import Page

# The specification's example E1: red plays first, A0's neighbours A1 and A3 are free.
SEED = "736b6f722d3237"
PIECES = "els => els.map(e => [e.dataset.hex, e.dataset.player, e.dataset.kind]).sort()"


async def test_the_skor_sandbox_plays_both_sides(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    await page.goto(f"{server.base}/sandbox/skor")
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")
    await page.get_by_label("Seed (hex)").fill(SEED)
    await page.get_by_role("button", name="Roll the territories").click()
    skor = page.locator("#skor-board .skor")
    await expect(skor).to_have_attribute("data-phase", "choices")
    # As rolled, before any side is chosen: local names, red's City in the middle.
    await expect(page.locator('#skor-board g.hex[data-hex="A0"] .hex-name')).to_have_text("L0")
    await expect(page.locator(".skor-last li.skor-die").first).to_contain_text("(first player)")

    first = page.locator("#choices fieldset").nth(0)
    await first.get_by_label("Culture").select_option("technocracy")
    await first.get_by_label("Technocracy's free tier 1").select_option("military")
    await first.get_by_label("Side facing the opponent").select_option("4")
    second = page.locator("#choices fieldset").nth(1)
    await second.get_by_label("Culture").select_option("dictatorship")
    await expect(second.get_by_label("Technocracy's free tier 1")).to_be_hidden()
    await page.get_by_role("button", name="Start the game").click()
    await expect(skor).to_have_attribute("data-phase", "move")
    await expect(skor).to_have_attribute("data-player", "red")
    await expect(page.locator('#skor-board g.hex[data-hex="A2"]')).to_have_attribute(
        "data-structure", "obstruction"
    )
    assert await page.evaluate(UNLABELLED_CONTROLS) == []

    # Red, by clicking: a civilian of A0 to A1.
    actions = page.get_by_label("Actions for red")
    await page.locator('#skor-board g.hex[data-hex="A0"] g.piece').first.click()
    await page.locator('#skor-board g.hex[data-hex="A1"]').click()
    await expect(actions).to_have_value("move A0 A1")
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(page.locator('#skor-board g.piece[data-hex="A1"]')).to_have_attribute(
        "data-moved", "true"
    )
    await expect(page.locator("#skor-results li")).to_have_text(["move A0 A1 played"])
    # Typed, with Ctrl+Enter: the end of red's turn.
    await actions.fill("end")
    await actions.press("Control+Enter")
    await expect(skor).to_have_attribute("data-player", "blue")

    # Blue, typed: two lines at once, a move and the end; the Dictatorship's d2 is shown.
    blue = page.get_by_label("Actions for blue")
    await blue.fill("move B0 B1\nend")
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(page.locator(".skor-last h3")).to_have_text("blue played: move B0 B1; end")
    die = page.locator(".skor-last li.skor-die")
    await expect(die).to_have_count(1)
    await expect(die).to_have_attribute("data-sides", "2")
    if await die.get_attribute("data-value") == "1":  # the purge: blue gives up a piece
        await expect(skor).to_have_attribute("data-phase", "purge")
        await blue.fill("remove B1")
        await page.get_by_role("button", name="Play", exact=True).click()
    await expect(skor).to_have_attribute("data-player", "red")
    before = await page.eval_on_selector_all("#skor-board g.piece", PIECES)
    assert ["B1", "blue", "civilian"] in before or ["B0", "blue", "civilian"] in before

    # A refusal: the engine's reason, and nothing changes. The hex's buttons write it.
    await page.locator('#skor-board g.hex[data-hex="A1"]').click()
    await expect(page.locator(".skor-picked")).to_have_text(
        "A1 selected: click a hex to move there."
    )
    await page.get_by_role("button", name="Build farm").click()
    await expect(page.get_by_label("Actions for red")).to_have_value("build farm A1")
    await expect(page.locator("#skor-board g.hex.selected")).to_have_count(0)
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(page.locator("#act-error")).to_have_text(
        "build farm A1: no structures in the first two turns"
    )
    await expect(page.locator("#skor-results li")).to_have_attribute("data-result", "refused")
    assert await page.eval_on_selector_all("#skor-board g.piece", PIECES) == before

    # A move of red's by the keyboard (each hex a button), then Undo: back to the position
    # before it.
    start = page.get_by_role("button", name="A1, red's civilian")
    await start.focus()
    await page.keyboard.press("Enter")
    await expect(start).to_have_attribute("aria-pressed", "true")
    await expect(start).to_be_focused()
    await page.locator('#skor-board g.hex[data-hex="A7"]').focus()
    await page.keyboard.press(" ")
    await expect(page.get_by_label("Actions for red")).to_have_value("move A1 A7")
    await expect(page.get_by_label("Actions for red")).to_be_focused()
    await page.keyboard.press("Control+Enter")
    await expect(page.locator('#skor-board g.piece[data-hex="A7"]')).to_have_count(1)
    await page.get_by_role("button", name="Undo").click()
    await expect(page.locator('#skor-board g.piece[data-hex="A7"]')).to_have_count(0)
    assert await page.eval_on_selector_all("#skor-board g.piece", PIECES) == before


async def test_a_games_turn_is_played_on_in_the_sandbox(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    first, second = await skor_game(server)
    await move(server, first, {"culture": "feudal", "side": 1})
    await move(server, second, {"culture": "theocracy", "side": 2})
    state = (await server.game())["play"]["game"]
    one = free_neighbour(state, "A0")
    other = free_neighbour({**state, "pieces": [*state["pieces"], {"at": one}]}, "A0")
    await move(server, first, f"move A0 {one}; move A0 {other}")
    game = await server.game()
    state = game["play"]["game"]

    await page.goto(f"{server.base}/sandbox/skor?game={server.game_id}&turn={game['turn']}")
    await expect(page.locator("#view-banner")).to_have_text(
        f"Game Skor in the browser, turn {game['turn']}: play on from here "
        "(the dice are the sandbox's own)."
    )
    skor = page.locator("#skor-board .skor")
    await expect(skor).to_have_attribute("data-player", first.id)
    shown = await page.eval_on_selector_all("#skor-board g.piece", PIECES)
    assert shown == sorted([p["at"], p["player"], p["kind"]] for p in state["pieces"])
    await expect(page.locator(".skor-last h3")).to_have_text(
        f"{first.name} played: move A0 {one}; move A0 {other}"
    )
    # The game's players, by name: its turn goes on here, and the game does not move.
    await page.get_by_label(f"Actions for {first.name}").fill("end")
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(skor).to_have_attribute("data-player", second.id)
    await expect(page.get_by_label(f"Actions for {second.name}")).to_be_visible()
    assert (await server.game())["position"] == game["position"]
