"""A game page's "Fork here", in headless Chromium against a real server: the page asks for
an account's token (kept by the tab alone), forks the turn shown, says why the API refused,
and lands on the fork, which says where it came from."""

import re
from typing import TYPE_CHECKING

from tests.browser.support import UNLABELLED_CONTROLS, Server, first_move

if TYPE_CHECKING:
    from playwright.async_api import Page

REFUSED = "Failed to load resource: the server responded with a status of {}"
STORED = "() => [sessionStorage.getItem('skirmish-token'), localStorage.length]"


async def test_an_admin_forks_a_running_game_at_a_turn_of_its_history(
    server: Server, page: "Page", expected_errors: list[str]
) -> None:
    from playwright.async_api import expect

    state = await server.new_game()
    ann, bob = server.players[:2]
    unit, target = first_move(state, ann.id)
    await server.orders(ann, f"{unit} to {target}")
    await server.resolve()
    await server.resolve()
    source = server.game_id
    # Every request the page makes: the token goes in the fork's header, never an address.
    requests: list[tuple[str, str, str | None]] = []
    page.on(
        "request",
        lambda r: requests.append((r.method, r.url, r.headers.get("authorization"))),
    )
    await page.goto(f"{server.base}/games/{source}?turn=2")
    await expect(page.locator("#map")).to_have_attribute("data-turn", "2")
    await page.get_by_text("Fork here").click()
    token = page.get_by_label("Your account's token")
    await expect(token).to_have_attribute("type", "password")
    button = page.get_by_role("button", name="Fork at turn 2")
    await expect(page.locator("#fork-about")).to_contain_text("only its admins may fork it")
    assert await page.evaluate(UNLABELLED_CONTROLS) == []

    # A token the server does not know: its words, and the tab forgets it.
    expected_errors.append(REFUSED.format("401 (Unauthorized)"))
    await token.fill("not-a-token")
    await button.click()
    error = page.get_by_role("alert")
    await expect(error).to_have_text(
        re.compile(r"^The token was not accepted: .+ \(bad_token\)\. Give the token")
    )
    assert await page.evaluate(STORED) == [None, 0]

    # A player who is no admin, while the game is played: the API's refusal, as it said it.
    refused = await server.client.post(
        f"/v1/games/{source}/fork", headers=bob.auth, json={"turn": 2}
    )
    expected_errors.append(REFUSED.format("403 (Forbidden)"))
    await token.fill(bob.token)
    await button.click()
    message = refused.json()["error"]["message"]
    await expect(error).to_have_text(f"Not allowed: {message} (admin_only).")
    assert await page.evaluate(STORED) == [bob.token, 0]

    # The admin: the fork, its page, and where it came from.
    await token.fill(ann.token)
    await page.get_by_label("Name of the new game (optional)").fill("Turn two again")
    await button.click()
    await expect(page.locator("h1")).to_have_text("Turn two again")
    fork_id = page.url.rsplit("/", 1)[-1]
    assert fork_id != source
    assert "token" not in page.url
    assert page.url == f"{server.base}/games/{fork_id}"
    await expect(page.locator("#phase")).to_have_text("turn 2 (sandbox game)")
    origin = page.get_by_role("link", name=f"game {source}, turn 2")
    await expect(page.locator("#forked-from")).to_have_text(f"Forked from game {source}, turn 2")
    await expect(page.locator("#map")).to_have_attribute("data-turn", "2")
    arrow = page.locator(f'#map g.order.move[data-unit="{unit}"][data-target="{target}"]')
    await expect(arrow).to_have_count(0)  # a fork begins with no turn of its own resolved
    forked = await server.call("GET", f"/v1/games/{fork_id}")
    origin_seen = forked["forked_from"]
    assert (origin_seen["game"], origin_seen["turn"]) == (source, 2)
    assert not [url for _, url, _ in requests if ann.token in url]
    carried = [(method, url) for method, url, auth in requests if auth == f"Bearer {ann.token}"]
    assert carried == [("POST", f"{server.base}/v1/games/{source}/fork")]
    # The tab keeps the token for the next page, nothing else does.
    assert await page.evaluate(STORED) == [ann.token, 0]
    await expect(page.get_by_label("Your account's token")).to_have_value(ann.token)

    await origin.click()
    await expect(page).to_have_url(f"{server.base}/games/{source}?turn=2")
    await expect(page.locator("#map")).to_have_attribute("data-view", "history")
    await expect(page.locator("#map")).to_have_attribute("data-turn", "2")


async def test_anyone_makes_a_sandbox_of_a_turn_of_a_finished_game(
    server: Server, page: "Page", expected_errors: list[str]
) -> None:
    from playwright.async_api import expect

    # Ann farms from turn 1 and wins at 1 VP.
    state = await server.new_game(vp_target=1)
    ann = server.players[0]
    farm = sorted(t for t, owner in state["board"]["armies"].items() if owner == ann.id)[0]
    await server.orders(ann, f"{farm} B")
    for _ in range(12):
        await server.resolve()
        if (await server.game())["phase"] == "finished":
            break
        await server.orders(ann, f"{farm} F")
    finished = await server.game()
    assert finished["phase"] == "finished"
    last = finished["turn"] - 1
    eve = await server.call("POST", "/v1/accounts", body={"name": "Eve"})

    await page.goto(f"{server.base}/games/{server.game_id}")
    await page.get_by_text("Fork here").click()
    # The end of the game is the start of no turn.
    about = page.locator("#fork-about")
    await expect(about).to_have_text(re.compile(r"^The end of a game cannot be forked"))
    await expect(page.get_by_role("button", name="Fork", exact=True)).to_be_disabled()
    await page.get_by_label("Turn", exact=True).focus()
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator("#map")).to_have_attribute("data-turn", str(last))
    await expect(about).to_contain_text("Anyone may make a sandbox of this finished game")

    # A real fork invites the players: their admin's to ask.
    await page.get_by_label("Your account's token").fill(eve["token"])
    sandbox = page.get_by_label("A sandbox: you play every seat")
    await expect(sandbox).to_be_checked()
    await page.get_by_label("A real fork: its players invited back to their seats").check()
    expected_errors.append(REFUSED.format("403 (Forbidden)"))
    button = page.get_by_role("button", name=f"Fork at turn {last}")
    await button.click()
    await expect(page.get_by_role("alert")).to_contain_text("(admin_only)")
    await sandbox.check()
    await button.click()
    await expect(page.locator("#forked-from")).to_have_text(
        f"Forked from game {server.game_id}, turn {last}"
    )
    await expect(page.locator("h1")).to_have_text(f"Browser game (fork, turn {last})")
    await expect(page.locator("#phase")).to_have_text(f"turn {last} (sandbox game)")


async def test_a_real_fork_waits_for_its_players_claims_then_plays_from_its_first_turn(
    server: Server, page: "Page"
) -> None:
    from playwright.async_api import expect

    await server.new_game()
    ann, bob, _ = server.players
    await server.resolve()
    source = server.game_id
    real = await server.call("POST", f"/v1/games/{source}/fork", ann, {"turn": 2, "sandbox": False})
    fork = real["id"]
    await page.goto(f"{server.base}/games/{fork}")
    phase = page.locator("#phase")
    await expect(phase).to_have_text("turn 2, waiting for its start: 0 of 3 seats claimed")
    await expect(page.locator("#countdown")).to_contain_text(
        "The fork begins when its admin starts it"
    )
    bobs = page.locator(f'#standings li[data-player="{bob.id}"]')
    await expect(bobs.locator(".tag")).to_have_text("invited")
    await expect(page.locator("#fork-box")).to_be_hidden()

    # Claims reach the page live; so does the start.
    await server.call("POST", f"/v1/games/{fork}/claim", bob)
    await expect(phase).to_have_text("turn 2, waiting for its start: 1 of 3 seats claimed")
    await expect(bobs.locator(".tag")).to_have_text("claimed")
    await server.call("POST", f"/v1/games/{fork}/start", ann)
    await expect(phase).to_have_text("turn 2")
    await expect(bobs.locator(".tag")).to_have_count(0)
    await expect(page.locator(f'#standings li[data-player="{ann.id}"] .tag')).to_have_text(
        "resigned"
    )

    # A turn of its own resolved: its history begins at its first turn, which shows, and
    # forks from there.
    server.game_id = fork
    await server.orders(bob, "EA H")
    await server.resolve()
    await expect(phase).to_have_text("turn 3")
    slider = page.get_by_label("Turn", exact=True)
    await expect(slider).to_have_attribute("min", "2")
    await slider.focus()
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator("#map")).to_have_attribute("data-turn", "2")
    await expect(page.locator("#map-message")).to_be_hidden()
    await page.get_by_text("Fork here").click()
    await expect(page.get_by_role("button", name="Fork at turn 2")).to_be_enabled()
