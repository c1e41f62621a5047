"""Skor's page (/games/{game}, the shell of docs/games.md with js/games/skor.js) in headless
Chromium against a real server: a game created, joined and started over HTTP; one choice
sealed through the page's form (which keeps what was picked through a redraw that the
socket's late catch-up makes), the other over HTTP; then one player acts through the page
(by clicking the board, and by typing) and the other over HTTP, and the page follows each
move over the socket without reloading: pieces, whose turn it is, the last action's dice;
the history slider steps back action by action; a resignation ends it on the page."""

import asyncio
import re
from typing import TYPE_CHECKING, Any

from tests.browser.skor_games import free_neighbour, move, skor_game
from tests.browser.support import UNLABELLED_CONTROLS, Server

if TYPE_CHECKING:
    from playwright.async_api import Page, WebSocketRoute

Json = dict[str, Any]
PIECES_ON_BOARD = """els => els.map(e => [e.dataset.hex, e.dataset.player, e.dataset.kind])"""


async def pieces_on_board(page: "Page") -> list[list[str]]:
    found: list[list[str]] = await page.eval_on_selector_all("#play-board g.piece", PIECES_ON_BOARD)
    return sorted(found)


def pieces_of(game: Json) -> list[list[str]]:
    return sorted([p["at"], p["player"], p["kind"]] for p in game["pieces"])


class LateSocket:
    """The page's live socket, with what the server sends held back until `release()`: a
    catch-up that arrives late, as under load."""

    def __init__(self) -> None:
        self.page_side: WebSocketRoute | None = None
        self.held: list[str | bytes] | None = []  # None once released
        self.arrived = asyncio.Event()

    async def route(self, page: "Page") -> None:
        await page.route_web_socket(re.compile(r"/live\?"), self._connect)

    def _connect(self, page_side: "WebSocketRoute") -> None:
        self.page_side = page_side
        page_side.connect_to_server().on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        assert self.page_side is not None
        if self.held is None:
            self.page_side.send(message)
        else:
            self.held.append(message)
            self.arrived.set()

    async def release(self) -> None:
        """Once the catch-up has come (at least its first message), let it through."""
        await asyncio.wait_for(self.arrived.wait(), timeout=10)
        assert self.page_side is not None
        assert self.held
        held, self.held = self.held, None
        for message in held:
            self.page_side.send(message)


async def test_a_skor_game_is_played_through_its_page(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    first, second = await skor_game(server)
    socket = LateSocket()
    await socket.route(page)
    await page.goto(f"{server.base}/games/{server.game_id}")
    board = page.locator("#play-board")
    skor = page.locator("#play-board .skor")
    # Before the choices: the 40 hexes, the territories as rolled, each a player's.
    await expect(page.locator("#play-board g.hex")).to_have_count(40)
    await expect(skor).to_have_attribute("data-phase", "choices")
    await expect(page.locator('#play-board g.hex[data-hex="A0"] g.structure')).to_have_attribute(
        "data-kind", "city"
    )
    await expect(page.locator(".skor-last h3")).to_have_text("The setup's rolls")
    await page.evaluate("window.sameDocument = true")

    # The first player's token: the page now seals its choice through its form.
    await page.get_by_label("Your account's token").fill(first.token)
    await page.get_by_label("Your account's token").dispatch_event("change")
    form = page.locator(f'form.skor-choose[data-seat="{first.id}"]')
    await form.get_by_label("Culture").select_option("technocracy")
    await form.get_by_label("Technocracy's free tier 1").select_option("military")
    side = form.get_by_label("Side facing the opponent")
    await side.select_option("3")
    await side.focus()
    # The socket's catch-up, come only now (as under load), redraws the page: the choice
    # being made stays as picked, and the keyboard where it was.
    await page.evaluate("document.querySelector('#play-board .skor').dataset.before = ''")
    await socket.release()
    await expect(page.locator("#play-board .skor[data-before]")).to_have_count(0)
    await expect(side).to_have_value("3")
    await expect(form.get_by_label("Technocracy's free tier 1")).to_have_value("military")
    await expect(side).to_be_focused()
    await form.get_by_role("button", name="Seal the choice").click()
    sealed = page.locator(f'#sealed [data-seat="{first.id}"]')
    await expect(sealed).to_contain_text('"culture": "technocracy"')
    await expect(sealed).to_contain_text('"side": 3')
    # Until both are in, the form shows the choice sealed, and may replace it.
    await expect(side).to_have_value("3")
    await expect(form.get_by_role("button")).to_have_text("Seal this choice instead")
    assert await page.evaluate(UNLABELLED_CONTROLS) == []
    # The other's, over HTTP: a Dictatorship, whose every `end` rolls a d2 in the open.
    await move(server, second, {"culture": "dictatorship", "side": 1})

    # Over the socket: the board made, turn 1 the first player's.
    await expect(skor).to_have_attribute("data-phase", "move")
    game = (await server.game())["play"]["game"]
    await expect(skor).to_have_attribute("data-player", first.id)
    await expect(page.locator(".skor-turn")).to_contain_text(f"Turn 1: {first.name} to play")
    assert await pieces_on_board(page) == pieces_of(game)
    await expect(page.locator(f'.skor-player[data-player="{first.id}"]')).to_contain_text(
        "technocracy"
    )
    await expect(
        page.locator(f'.skor-player[data-player="{first.id}"] td[data-branch="military"]')
    ).to_have_text("1")

    # By clicking: a civilian of the City, then a free neighbour, makes the move's text.
    target = free_neighbour(game, "A0")
    await page.locator('#play-board g.hex[data-hex="A0"] g.piece').first.click()
    await expect(page.locator('#play-board g.hex[data-hex="A0"]')).to_have_class("hex selected")
    await page.locator(f'#play-board g.hex[data-hex="{target}"]').click()
    await expect(page.get_by_label("Move", exact=True)).to_have_value(f"move A0 {target}")
    await page.get_by_role("button", name="Send the move").click()
    await expect(page.locator(f'#play-board g.piece[data-hex="{target}"]')).to_have_count(1)
    await expect(page.locator(".skor-last h3")).to_have_text(
        f"{first.name} played: move A0 {target}"
    )
    await expect(page.locator(".skor-last .skor-no-dice")).to_have_text("No dice rolled.")

    # Typed: the end of the turn; the other player's turn, over the socket.
    await page.get_by_label("Move", exact=True).fill("end")
    await page.get_by_role("button", name="Send the move").click()
    await expect(skor).to_have_attribute("data-player", second.id)
    await expect(page.locator(".skor-turn")).to_contain_text(f"Turn 2: {second.name} to play")

    # The other player, over HTTP: a move, then `end` and its d2, shown beside the board.
    game = (await server.game())["play"]["game"]
    there = free_neighbour(game, "B0")
    await move(server, second, f"move B0 {there}")
    await expect(page.locator(f'#play-board g.piece[data-hex="{there}"]')).to_have_attribute(
        "data-player", second.id
    )
    await move(server, second, "end")
    die = page.locator(".skor-last li.skor-die")
    await expect(die).to_have_count(1)
    await expect(die).to_have_attribute("data-sides", "2")
    await expect(die).to_contain_text("(purge)")
    game = (await server.game())["play"]["game"]
    if game["turn"].get("phase") == "purge":  # the d2 said 1: a piece goes first
        await expect(skor).to_have_attribute("data-phase", "purge")
        await move(server, second, {"action": "remove", "at": there})
        game = (await server.game())["play"]["game"]
    await expect(skor).to_have_attribute("data-player", first.id)
    assert await pieces_on_board(page) == pieces_of(game)
    assert await page.evaluate("window.sameDocument") is True

    # The history, one action a step: back one, then to the first move's start.
    live_turn = (await server.game())["turn"]
    slider = page.get_by_label("Turn", exact=True)
    await slider.focus()
    await page.keyboard.press("ArrowLeft")
    await expect(board).to_have_attribute("data-view", "history")
    await expect(board).to_have_attribute("data-turn", str(live_turn - 1))
    await page.keyboard.press("Home")
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(skor).to_have_attribute("data-phase", "choices")
    await page.keyboard.press("ArrowRight")
    await expect(board).to_have_attribute("data-turn", "2")
    await expect(page.get_by_role("link", name="This position in the sandbox")).to_have_attribute(
        "href", f"/sandbox/skor?game={server.game_id}&turn=2"
    )
    await expect(skor).to_have_attribute("data-phase", "move")
    await expect(page.locator("#play-board g.piece")).to_have_count(4)
    await expect(page.locator('#play-board g.piece[data-hex="A0"]')).to_have_count(2)
    # In the history, a click makes no move.
    await page.locator('#play-board g.hex[data-hex="A0"] g.piece').first.click()
    await expect(page.locator("#play-board g.hex.selected")).to_have_count(0)
    await page.get_by_role("button", name="Back to live").click()
    await expect(board).to_have_attribute("data-view", "live")
    assert await pieces_on_board(page) == pieces_of(game)

    # A phone: nothing wider than the screen, the board fits it.
    await page.set_viewport_size({"width": 390, "height": 844})
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    drawn = await page.locator("#play-board svg.skor-board").bounding_box()
    assert drawn is not None
    assert 300 <= drawn["width"] <= 390

    # The other resigns over HTTP: the page says who won, and offers no more actions.
    await server.call("POST", f"/v1/games/{server.game_id}/resign", second)
    await expect(page.locator(".skor-turn")).to_have_text(f"{first.name} won by resignation.")
    await expect(skor).to_have_attribute("data-phase", "over")
    await expect(page.locator(".skor-picker")).to_be_hidden()
