"""Skor's page (/games/{game}) shows what the game's view (`GET /v1/games/{game}`, `play`)
says of the structures' builders and of each player's Resource, available and incoming, and
follows every action over the socket: a Feudal player reaches a Resource hex and builds a
Road once the grace turns are over, a Technocracy at Diplomacy tier 1 sends Resource to it,
and the Resource sent is received when the builder's next turn starts."""

import contextlib
from typing import TYPE_CHECKING, Any

from rules.skor.board import NEIGHBOURS
from tests.browser.skor_games import move, skor_game, way_to_resource
from tests.browser.support import Server

if TYPE_CHECKING:
    from playwright.async_api import Page

Json = dict[str, Any]
# Every structure drawn: its hex, kind and builder (null: nobody's, as a Resource hex), in
# the order of the hexes' names.
STRUCTURES_ON_BOARD = """() => [...document.querySelectorAll("#play-board g.structure")]
  .map((e) => [e.closest("g.hex").dataset.hex, e.dataset.kind, e.dataset.by ?? null])
  .sort((a, b) => (a[0] < b[0] ? -1 : 1))"""
SAME_STRUCTURES = f"""expected => JSON.stringify(({STRUCTURES_ON_BOARD})()) ===
  JSON.stringify(expected)"""


def structures_of(game: Json) -> list[list[Any]]:
    """The structures the board draws (obstructions are drawn as rock, not as structures)."""
    return sorted(
        [hex_, s["kind"], s["by"]]
        for hex_, s in game["structures"].items()
        if s["kind"] != "obstruction"
    )


def resource_of(game: Json, player: str) -> tuple[str, str]:
    """A player's Resource as its card says it: what the player to play has left to spend this
    turn (and whence), and what was sent to each for its next turn."""
    turn = game["turn"]
    if game["ending"] is None and turn["player"] == player:
        fed = "" if turn["fed"] else ", not fed"
        available = (
            f"{turn['available']} available "
            f"(produced {turn['production']}, upkeep {turn['upkeep']}{fed})"
        )
    else:
        available = "none available (not its turn)"
    return available, str(game["incoming"][player])


async def shows_the_view(page: "Page", server: Server) -> Json:
    """Wait until the page shows the game as its view says now: the turn, each player's
    Resource, and every structure with its builder. The game, as the view says."""
    from playwright.async_api import TimeoutError, expect

    game: Json = (await server.game())["play"]["game"]
    skor = page.locator("#play-board .skor")
    await expect(skor).to_have_attribute("data-turn", str(game["turn"]["number"]))
    for player in game["players"]:
        card = page.locator(f'.skor-player[data-player="{player}"]')
        available, incoming = resource_of(game, player)
        await expect(card.locator(".skor-available")).to_have_text(available)
        await expect(card.locator(".skor-incoming")).to_have_text(incoming)
    expected = structures_of(game)
    # Waited for, then compared: a board that never matches fails with the difference.
    with contextlib.suppress(TimeoutError):
        await page.wait_for_function(SAME_STRUCTURES, arg=expected, timeout=5_000)
    assert await page.evaluate(STRUCTURES_ON_BOARD) == expected
    return game


async def test_the_page_shows_builders_and_resource_as_the_view_says(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    first, second = await skor_game(server)
    await move(server, first, {"culture": "feudal", "side": 1})
    await move(server, second, {"culture": "technocracy", "side": 4, "tech": "diplomacy"})
    await page.goto(f"{server.base}/games/{server.game_id}")
    await page.evaluate("window.sameDocument = true")
    game = await shows_the_view(page, server)
    assert all(game["incoming"][p] == 0 for p in game["players"])
    cities = {s["by"]: hex_ for hex_, s in game["structures"].items() if s["kind"] == "city"}

    # Turn 1: both Feudal civilians (2 hexes a move) onto the nearest Resource hex.
    way = way_to_resource(game, cities[first.id])
    assert len(way) <= 2, way
    resource = way[-1]
    for _ in range(2):
        await move(server, first, f"move {cities[first.id]} {resource}")
    await move(server, first, "end")
    # Turns 2 and 4: the Technocracy's civilians (1 hex a move) to its nearest one; the
    # builder waits in turn 3.
    there = way_to_resource(game, cities[second.id])
    assert len(there) <= 2, there
    way = [cities[second.id], *there]
    for step in range(2):
        for _ in range(2 if step < len(there) else 0):
            await move(server, second, f"move {way[step]} {way[step + 1]}")
        await move(server, second, "end")
        if step == 0:
            await move(server, first, "end")
    # The grace turns over, the builder's turn 5: two civilians on a Resource hex make 4,
    # two pieces cost 2.
    game = await shows_the_view(page, server)
    assert (game["turn"]["number"], game["turn"]["player"]) == (5, first.id)
    assert (game["turn"]["production"], game["turn"]["available"]) == (4, 2)

    # One civilian steps off to a free neighbour and builds a Road there, for 2.
    taken = {p["at"] for p in game["pieces"]}
    road = next(
        near
        for near in NEIGHBOURS[resource]
        if near not in game["structures"] and near not in taken
    )
    await move(server, first, f"move {resource} {road}")
    await move(server, first, f"build road {road}")
    game = await shows_the_view(page, server)
    assert game["structures"][road] == {"kind": "road", "by": first.id}
    assert game["turn"]["available"] == 0
    built = page.locator(f'#play-board g.hex[data-hex="{road}"] g.structure')
    await expect(built).to_have_attribute("data-by", first.id)
    await move(server, first, "end")

    # Turn 6: the Technocracy makes 4, pays 2, and sends 1 to the builder's next turn.
    game = await shows_the_view(page, server)
    assert (game["turn"]["player"], game["turn"]["available"]) == (second.id, 2)
    await move(server, second, "send 1")
    game = await shows_the_view(page, server)
    assert (game["incoming"][first.id], game["turn"]["available"]) == (1, 1)
    await expect(page.locator(".skor-last h3")).to_have_text(f"{second.name} played: send 1")
    card = page.locator(f'.skor-player[data-player="{first.id}"]')
    await expect(card.locator(".skor-incoming")).to_have_text("1")

    # Turn 7: the builder receives it: 2 from its civilian on the Resource hex and the 1
    # sent, less 2 for its pieces; nothing is incoming any more.
    await move(server, second, "end")
    game = await shows_the_view(page, server)
    assert (game["turn"]["player"], game["incoming"][first.id]) == (first.id, 0)
    assert (game["turn"]["production"], game["turn"]["available"]) == (3, 1)
    await expect(card.locator(".skor-available")).to_have_text("1 available (produced 3, upkeep 2)")
    assert await page.evaluate("window.sameDocument") is True
