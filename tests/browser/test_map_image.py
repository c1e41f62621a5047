"""The server's PNG of a map (GET /v1/games/{game}/map.png) against the page's own drawing
of the same board, in headless Chromium: the same territories in the same colours and
patterns, the same armies in their owners' colours.

Both pictures are sampled at the same places of the map, in drawing units: for each
territory, the mean colour of one 16 x 16 pattern tile beside its centre (the mean over a
whole tile does not depend on where the tile's repeats begin, nor on the resolution), clear
of its label and army, and the colour of its army's body. Labels are not compared: the
fonts differ a little. The comparison is shown to fail for a picture of another turn."""

import io
from typing import TYPE_CHECKING, Any

import msgspec
from PIL import Image, ImageStat

from rules.skirmish.board import GameMap, Territory
from server.pictures.palette import Shades
from server.pictures.scene import frame
from tests.browser.support import Json, Server, first_move

if TYPE_CHECKING:
    from playwright.async_api import Page

# Channels, 0-255: how far the two pictures' means may differ (anti-aliasing, resolution).
TOLERANCE = 12
BODY = (0.0, 16.0)  # the army's body, from the territory's x/y (army_drop 10, and 6 lower)
TILE = 16.0
MATRIX = """() => {
  const m = document.getElementById("map").getScreenCTM();
  return [m.a, m.d, m.e, m.f];
}"""
Box = tuple[float, float, float, float]  # left, top, right, bottom, in drawing units
Colour = tuple[float, ...]


def _inside(point: tuple[float, float], outline: tuple[tuple[float, float], ...]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def fill_window(t: Territory) -> Box | None:
    """A tile's square left or right of the centre, inside the territory with a margin,
    clear of the label above, the army below and the icon at the top right."""
    for cx in (t.x - 24, t.x + 24):
        left, top, right, bottom = cx - TILE / 2, t.y - 6, cx + TILE / 2, t.y + 10
        corners = [(x, y) for x in (left - 3, right + 3) for y in (top - 3, bottom + 3)]
        if all(_inside(c, t.outline) for c in corners):
            return left, top, right, bottom
    return None


def body_window(t: Territory) -> Box:
    x, y = t.x + BODY[0], t.y + BODY[1]
    return x - 1.5, y - 1.5, x + 1.5, y + 1.5


class Picture:
    """A picture of the map and where drawing units fall on it."""

    def __init__(self, image: Image.Image, scale: tuple[float, float], shift: tuple[float, float]):
        self.image = image.convert("RGB")
        self.scale = scale
        self.shift = shift

    def mean(self, box: Box) -> Colour:
        (sx, sy), (dx, dy) = self.scale, self.shift
        pixels = (
            round(box[0] * sx + dx),
            round(box[1] * sy + dy),
            round(box[2] * sx + dx),
            round(box[3] * sy + dy),
        )
        assert min(pixels) >= 0, pixels
        assert pixels[2] <= self.image.width, pixels
        assert pixels[3] <= self.image.height, pixels
        return tuple(ImageStat.Stat(self.image.crop(pixels)).mean)


def _near(a: Colour, b: Colour, tolerance: float = TOLERANCE) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def differences(
    game_map: GameMap, board: Json, colours: dict[str, Colour], page: Picture, png: Picture
) -> list[str]:
    """Where the two pictures disagree, or where an army is not in its owner's colour."""
    found: list[str] = []
    compared = 0
    for t in game_map.territories:
        window = fill_window(t)
        if window is not None:
            compared += 1
            seen, drawn = page.mean(window), png.mean(window)
            if not _near(seen, drawn):
                found.append(f"{t.id}: land {drawn} in the PNG, {seen} on the page")
        seen, drawn = page.mean(body_window(t)), png.mean(body_window(t))
        if not _near(seen, drawn):
            found.append(f"{t.id}: army's place {drawn} in the PNG, {seen} on the page")
        owner = board["armies"].get(t.id)
        if owner is not None and not _near(drawn, colours[owner]):
            found.append(f"{t.id}: army {drawn} in the PNG, not {owner}'s {colours[owner]}")
    assert compared >= len(game_map.territories) * 0.6, "too few territories compared"
    return found


async def page_picture(page: "Page", url: str, turn: int) -> Picture:
    from playwright.async_api import expect

    await page.goto(url)
    # data-turn is set in the same task that draws the map.
    await expect(page.locator("#map")).to_have_attribute("data-turn", str(turn))
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")
    a, d, e, f = await page.evaluate(MATRIX)
    shot = Image.open(io.BytesIO(await page.screenshot()))
    return Picture(shot, (a, d), (e, f))


async def png_picture(server: Server, path: str, game_map: GameMap) -> Picture:
    response = await server.client.get(path)
    assert response.status_code == 200, response.text
    image = Image.open(io.BytesIO(response.content))
    box = frame(game_map)
    unit = image.width / box.width
    return Picture(image, (unit, unit), (-box.left * unit, -box.top * unit))


async def test_the_png_shows_what_the_page_draws(server: Server, page: "Page") -> None:
    state = await server.new_game()
    ann, bob, cy = server.players
    # Looks with patterns, and white (whose shades are its own).
    for player, colour, pattern in ((ann, 1, 2), (bob, 19, 10), (cy, 6, 16)):
        body = {"color": colour, "pattern": pattern}
        await server.call("PATCH", f"/v1/games/{server.game_id}/players/me", player, body)
    # Turn 1: Ann moves an army and builds a farm with the other, Bob moves, Cy's armies
    # support each other. Turn 2: Ann farms, Bob moves again.
    unit, target = first_move(state, ann.id)
    farm = next(t for t, p in sorted(state["board"]["armies"].items()) if p == ann.id and t != unit)
    await server.orders(ann, f"{unit} to {target}, {farm} B")
    cy_armies = sorted(t for t, p in state["board"]["armies"].items() if p == cy.id)
    await server.orders(cy, f"{cy_armies[0]} S {cy_armies[1]}, {cy_armies[1]} S {cy_armies[0]}")
    for turn in (1, 2):
        unit, target = first_move(state, bob.id)
        await server.orders(bob, f"{unit} to {target}")
        if turn == 2:
            await server.orders(ann, f"{farm} F")
        await server.resolve()
        state = await server.game()
    assert state["turn"] == 3
    drawn: Any = state["map"]
    if not all(len(t.get("outline", ())) >= 3 for t in drawn["territories"]):
        drawn = await server.call("GET", f"/v1/maps/{drawn['name']}")
    game_map = msgspec.convert(drawn, GameMap)
    colours = {p["id"]: tuple(float(c) for c in Shades(p["color"]).base) for p in state["players"]}
    base = f"{server.base}/games/{server.game_id}"
    png = f"/v1/games/{server.game_id}/map.png"

    boards = {
        n: (await server.call("GET", f"/v1/games/{server.game_id}/turns/{n}"))["start_board"]
        for n in (1, 2, 3)
    }
    assert boards[3] == state["board"]
    for query, turn in (("", 3), ("?turn=2", 2), ("?turn=1", 1)):
        shown = await page_picture(page, base + query, turn)
        picture = await png_picture(server, png + query, game_map)
        assert differences(game_map, boards[turn], colours, shown, picture) == [], query

    # The comparison sees a wrong picture: the page at turn 1, the PNG of turn 3 (armies
    # have moved and land changed hands).
    shown = await page_picture(page, base + "?turn=1", 1)
    picture = await png_picture(server, png, game_map)
    wrong = differences(game_map, boards[1], colours, shown, picture)
    assert any("army" in w for w in wrong)
    assert any("land" in w for w in wrong)
