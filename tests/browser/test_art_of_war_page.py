"""The Art of War's page (/games/{game}: the shell of every game run by its definition with
the Art of War's renderer) in headless Chromium, against a real server: a game created,
joined and started over HTTP, one player's orders sent through the page, the other's over
HTTP; the turn runs and the page follows it over the socket without reloading."""

from typing import TYPE_CHECKING, Any

from tests.browser.support import UNLABELLED_CONTROLS, Server

if TYPE_CHECKING:
    from playwright.async_api import Page

Json = dict[str, Any]
UNITS_ON_MAP = """els => Object.fromEntries(
    els.map(e => [e.dataset.territory, Number(e.dataset.units)]))"""
OWNERS_ON_MAP = """els => Object.fromEntries(
    els.filter(e => e.dataset.owner).map(e => [e.dataset.territory, e.dataset.owner]))"""


async def art_of_war(server: Server, names: tuple[str, ...] = ("Ann", "Bob")) -> Json:
    """A running game of the Art of War on aow-mini; the first player is its admin."""
    await server.sign_up(names)
    return await server.begin(
        {"name": "War game", "game": "art-of-war", "options": {"map": "aow-mini"}}
    )


def attack(play: Json, seat: str) -> tuple[str, str, int]:
    """A territory of `seat`, a neighbour it does not own, and all its units but one."""
    position, board = play["position"], play["board"]
    for territory, owner in sorted(position["owners"].items()):
        if owner != seat:
            continue
        for a, b in board["edges"]:
            if territory in (a, b):
                other = b if a == territory else a
                if position["owners"].get(other) != seat:
                    return territory, other, position["units"][territory] - 1
    raise AssertionError(f"{seat} has no neighbour to attack")


async def units_on_map(page: "Page") -> dict[str, int]:
    found: dict[str, int] = await page.eval_on_selector_all("svg g.territory", UNITS_ON_MAP)
    return found


def units_of(play: Json) -> dict[str, int]:
    units: dict[str, int] = play["position"]["units"]
    return {t["id"]: units.get(t["id"], 0) for t in play["board"]["territories"]}


async def test_an_art_of_war_turn_played_through_the_page(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    state = await art_of_war(server)
    ann, bob = server.players
    play = state["play"]
    await page.goto(f"{server.base}/games/{server.game_id}")
    board = page.locator("#play-board")
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(page.locator("h1")).to_have_text("War game")
    # A turn waits a day for orders by default (P30): the shell says until when.
    await expect(page.locator("#phase")).to_have_text(
        "art-of-war: turn 1, until 2030-03-05 08:00 UTC"
    )
    territories = page.locator("svg g.territory")
    await expect(territories).to_have_count(len(play["board"]["territories"]))
    assert await units_on_map(page) == units_of(play)
    owners = await page.eval_on_selector_all("svg g.territory", OWNERS_ON_MAP)
    assert owners == play["position"]["owners"]
    # Independents are grey; a player's land has the player's colour.
    independent = next(t for t in units_of(play) if t not in play["position"]["owners"])
    disc = page.locator(f'g.territory[data-territory="{independent}"] circle')
    await expect(disc).to_have_attribute("fill", "#d4d4d4")
    # In the game's standings' order: the start's draws decide who leads.
    players = page.locator("#players li")
    await expect(players.locator(".name")).to_have_text([p["name"] for p in state["players"]])
    await expect(players.locator(".seat-state")).to_have_text([" to move", " to move"])
    await expect(page.locator(f'#players li[data-player="{bob.id}"] .player-note')).to_contain_text(
        "no mercy"
    )
    await expect(page.locator("#connection")).to_contain_text("Live")
    await page.evaluate("window.sameDocument = true")

    # Ann's orders, through the page: secret, shown to her as dashed arrows.
    source, target, sent = attack(play, ann.id)
    await page.locator("#move-token").fill(ann.token)
    await page.locator("#move-token").dispatch_event("change")
    await expect(page.locator(f'#players li[data-player="{ann.id}"] .you')).to_have_count(1)
    # An order by pointing: her territory, then its neighbour, writes it with every unit.
    await page.locator(f'g.territory[data-territory="{source}"]').click()
    await expect(page.locator(f'g.territory[data-territory="{source}"]')).to_have_class(
        "territory chosen"
    )
    await page.locator(f'g.territory[data-territory="{target}"]').click()
    await expect(page.locator("#move-text")).to_have_value(f"{source} {sent + 1} to {target}")
    await page.locator("#move-text").fill(f"{source} {sent} to {target}")
    await page.get_by_role("button", name="Send the move").click()
    await expect(page.locator("#move-status")).to_have_text("Move sent.")
    pending = page.locator(f'g.arrow.pending[data-from="{source}"][data-to="{target}"]')
    await expect(pending).to_have_attribute("data-units", str(sent))
    await expect(pending.locator(".arrow-count")).to_have_text(str(sent))
    await expect(page.locator("#sealed")).to_contain_text(f"{source} {sent} to {target}")
    # A second submission joins the first (§3.4): both are hers, and an invalid order (not her
    # territory) displaces nothing, so the arrow stays.
    await page.locator("#move-text").fill(f"{target} hold")
    await page.get_by_role("button", name="Send the move").click()
    await expect(page.locator("#sealed")).to_contain_text(f"{target} hold")
    await expect(page.locator("#sealed")).to_contain_text(f"{source} {sent} to {target}")
    await expect(pending).to_have_count(1)
    await expect(pending).to_have_attribute("data-units", str(sent))
    await expect(page.locator(f'#players li[data-player="{ann.id}"] .seat-state')).to_have_text(
        " has moved"
    )
    # Nobody else sees what she ordered: Bob's view of the game has no sealed move of hers.
    assert (await server.call("GET", f"/v1/games/{server.game_id}", bob))["sealed"] == {}

    # Bob's stance, over HTTP: beside his name at once.
    moves = f"/v1/games/{server.game_id}/moves"
    await server.call("POST", moves, bob, {"move": {"stance": "draw", "draw_max": 2}})
    await expect(page.locator(f'#players li[data-player="{bob.id}"] .player-note')).to_contain_text(
        "offers a draw (at most 2 signers)"
    )

    # Bob's orders, over HTTP, run the turn: the page follows without reloading.
    await server.call("POST", moves, bob, {"move": ""})
    await expect(board).to_have_attribute("data-turn", "2")
    after = (await server.game())["play"]
    assert after["position"]["turn"] == 2
    assert await units_on_map(page) == units_of(after)
    await expect(page.locator("g.arrow.pending")).to_have_count(0)
    arrow = page.locator(f'g.arrow.last[data-from="{source}"][data-to="{target}"]')
    await expect(arrow).to_have_attribute("data-units", str(sent))
    await expect(arrow.locator(".arrow-count")).to_have_text(str(sent))
    await expect(page.locator("#sealed")).to_be_hidden()
    # What happened in a territory last turn, on hover (and in its title).
    await page.locator(f'g.territory[data-territory="{target}"]').hover()
    info = page.locator("#territory-info")
    await expect(info).to_have_attribute("data-territory", target)
    await expect(info.locator(".territory-events li").first).to_contain_text(f"from {source}")
    title = page.locator(f'g.territory[data-territory="{target}"] > title')
    await expect(title).to_contain_text(f"from {source}")
    await expect(page.locator("#turn-orders")).to_contain_text(f"Ann: {source} {sent} to {target}")
    assert await page.evaluate("window.sameDocument") is True

    # The history: turn 1 as it began, without the orders that ran it; then live again.
    slider = page.locator("#turn-slider")
    await expect(slider).to_have_attribute("max", "2")
    await slider.fill("1")
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(board).to_have_attribute("data-view", "history")
    await expect(page.locator("g.arrow")).to_have_count(0)
    assert await units_on_map(page) == units_of(play)
    await expect(page.locator(f'#players li[data-player="{bob.id}"] .player-note')).to_contain_text(
        "no mercy"
    )
    await page.get_by_role("button", name="Back to live").click()
    await expect(board).to_have_attribute("data-turn", "2")
    await expect(arrow).to_have_count(1)
    assert await page.evaluate(UNLABELLED_CONTROLS) == []

    # A rewind takes the turn back: the page shows turn 1 again, waiting for both players.
    await server.rewind()
    await expect(board).to_have_attribute("data-turn", "1")
    await expect(page.locator("g.arrow")).to_have_count(0)
    assert await units_on_map(page) == units_of(play)
    await expect(page.locator("#players li .seat-state")).to_have_text([" to move", " to move"])
    assert await page.evaluate("window.sameDocument") is True


async def test_the_sandbox_runs_a_turn_of_a_games_position(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    state = await art_of_war(server)
    ann, bob = server.players
    play = state["play"]
    source, target, sent = attack(play, ann.id)
    # From the game's page to its position in the sandbox.
    await page.goto(f"{server.base}/games/{server.game_id}")
    await page.get_by_role("link", name="This position in the sandbox").click()
    await expect(page.locator("#position-about")).to_have_text("Game War game, turn 1.")
    svg = page.locator("#map")
    await expect(svg).to_have_attribute("data-view", "position")
    assert await units_on_map(page) == units_of(play)

    # A territory edited by hand: Bob's land gets 2 more units.
    home = next(t for t, owner in play["position"]["owners"].items() if owner == bob.id)
    await page.locator(f'g.territory[data-territory="{home}"]').click()
    await page.locator("#territory-units").fill(str(play["position"]["units"][home] + 2))
    await page.get_by_role("button", name="Set").click()
    edited = {**units_of(play), home: play["position"]["units"][home] + 2}
    await expect(page.locator(f'g.territory[data-territory="{home}"]')).to_have_attribute(
        "data-units", str(edited[home])
    )
    await expect(page.locator("#territory-owner")).to_have_value(bob.id)

    # Orders and a stance for each player, a seed: the turn runs as the contract says.
    await page.locator(f"#orders-{ann.id}").fill(f"{source} {sent} to {target}")
    await page.locator(f"#stance-{bob.id}").select_option("offer_mercy")
    seed = "00000000000000a1"
    await page.locator("#seed").fill(seed)
    await page.get_by_role("button", name="Run the turn").click()
    await expect(svg).to_have_attribute("data-view", "resolved")
    request = {
        "ruleset": "art-of-war",
        "map": "aow-mini",
        "options": {"placement": "automatic"},
        "turn": 1,
        "players": {ann.id: {"stance": "no_mercy"}, bob.id: {"stance": "offer_mercy"}},
        "owners": play["position"]["owners"],
        "units": {t: n for t, n in edited.items() if n},
        "orders": {ann.id: [f"{source} {sent} to {target}"]},
        "seed": seed,
    }
    expected = await server.call("POST", "/v1/adjudicate", body=request)
    after = {t["id"]: expected["units"].get(t["id"], 0) for t in play["board"]["territories"]}
    assert await units_on_map(page) == after
    arrow = page.locator(f'g.arrow.last[data-from="{source}"][data-to="{target}"]')
    (report,) = expected["orders"]
    await expect(arrow).to_have_attribute("data-result", report["result"])
    await expect(page.locator("#result-orders")).to_contain_text(
        f"Ann: {source} {sent} to {target}, {report['result']}"
    )

    # Played on: the next turn, from the outcome.
    await page.get_by_role("button", name="Play on from here").click()
    await expect(svg).to_have_attribute("data-turn", "2")
    await expect(svg).to_have_attribute("data-view", "position")
    assert await units_on_map(page) == after
    assert await page.evaluate(UNLABELLED_CONTROLS) == []


async def test_the_sandbox_places_units_on_a_position_of_its_own(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    await page.goto(f"{server.base}/sandbox/art-of-war")
    # The Art of War's built-in maps of GET /v1/maps, no other game's; world to start on.
    await expect(page.locator("#map-choice option")).to_have_text(["aow-mini", "world"])
    await expect(page.locator("#map-choice")).to_have_value("world")
    await expect(page.locator("g.territory")).to_have_count(42)
    await page.locator("#map-choice").select_option("aow-mini")
    await page.get_by_label("Free placement").check()
    await page.get_by_role("button", name="New position").click()
    # Each player holds one territory: red the map's first (AK, population 2: 10 units).
    red = page.locator('g.territory[data-territory="AK"]')
    await expect(red).to_have_attribute("data-owner", "red")
    await expect(red).to_have_attribute("data-units", "10")
    await page.locator("#pool-red").fill("3")
    await page.locator("#orders-red").fill("place 3 AK")
    await page.locator("#seed").fill("0000000000000001")
    await page.get_by_role("button", name="Run the turn").click()
    await expect(page.locator("#map")).to_have_attribute("data-view", "resolved")
    await expect(page.locator("#result-orders")).to_contain_text("red: place 3 AK, placed")
    await page.locator('g.territory[data-territory="AK"]').hover()
    await expect(page.locator("#territory-info")).to_contain_text("3 units placed")


async def test_an_order_round_the_world_is_drawn_round_it(server: Server, page: "Page") -> None:
    from playwright.async_api import expect

    await page.goto(f"{server.base}/sandbox/art-of-war")
    await page.locator("#map-choice").select_option("world")
    await page.get_by_role("button", name="New position").click()
    # Alaska's border with Kamchatka crosses the map: dashed out at both sides.
    await expect(page.locator('g.border.wraps[data-between="AK KM"] line')).to_have_count(2)
    await page.locator('g.territory[data-territory="AK"]').click()
    await page.locator("#territory-owner").select_option("red")
    await page.locator("#territory-units").fill("4")
    await page.get_by_role("button", name="Set").click()
    await expect(page.locator('g.territory[data-territory="AK"]')).to_have_attribute(
        "data-owner", "red"
    )
    await page.locator("#orders-red").fill("AK 3 to KM")
    await page.get_by_role("button", name="Run the turn").click()
    await expect(page.locator("#map")).to_have_attribute("data-view", "resolved")
    # Its arrow too: out over the west side, in from the east.
    arrows = page.locator('g.arrow.last[data-from="AK"][data-to="KM"]')
    await expect(arrows).to_have_count(2)
