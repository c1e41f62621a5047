"""The browser tests' tools: a real server with games played over HTTP, Debian's Chromium
driven by Playwright (never downloaded: `playwright install` is not used), and a screenshot
comparison with a tolerance."""

import contextlib
import importlib.util
import os
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from server.app import create_app
from server.clock import Clock, FakeClock
from server.settings import Settings
from tests.server.running import running

if TYPE_CHECKING:
    from playwright.async_api import Page

CHROMIUM = Path(os.environ.get("SKIRMISH_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OPERATOR_TOKEN = "operator-token-for-the-browser-tests"
START = datetime(2030, 3, 4, 8, 0, tzinfo=UTC)
# After a resolution, orders stay locked for a minute in fast mode.
PAST_THE_LOCK = 120.0
WAIT_MS = 10_000

Json = dict[str, Any]
# Form controls that a screen reader could not name.
UNLABELLED_CONTROLS = """() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter(e => !e.closest('[hidden]'))
    .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                 && !e.textContent.trim())
    .map(e => e.outerHTML)"""


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def require_browser() -> None:
    """Skip without a browser, with the reason; on CI (CI=true) fail instead."""
    missing = missing_browser()
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests must run on CI: {missing}", pytrace=False)
    pytest.skip(f"browser tests skipped: {missing}")


@dataclass
class Player:
    id: str
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Server:
    """A real uvicorn over the app, on a fake clock, and an HTTP client for it."""

    base: str
    client: httpx.AsyncClient
    clock: Clock
    game_id: str = ""
    players: list[Player] = field(default_factory=list)

    async def call(
        self, method: str, path: str, who: Player | None = None, body: Any = None
    ) -> Any:
        headers = who.auth if who is not None else {}
        response = await self.client.request(method, path, headers=headers, json=body)
        assert response.is_success, f"{method} {path}: {response.status_code} {response.text}"
        return response.json() if response.content else None

    async def sign_up(self, names: tuple[str, ...]) -> list[Player]:
        """An account for each of `names`, added to the players: theirs."""
        for name in names:
            created = await self.call("POST", "/v1/accounts", body={"name": name})
            self.players.append(Player("", name, created["token"]))
        return self.players[-len(names) :]

    async def new_game(
        self,
        names: tuple[str, ...] = ("Ann", "Bob", "Cy"),
        seed: int = 7,
        votes: bool = False,
        vp_target: int = 10,
    ) -> Json:
        """A running game: fast mode, the first player is the admin; with `votes`, a vote on
        every turn from the first."""
        await self.sign_up(names)
        body = {
            "name": "Browser game",
            "fast_mode": True,
            "seed": seed,
            "vp_target": vp_target,
            **({"votes": "every_turn", "vote_start_turn": 1} if votes else {"votes": "disabled"}),
        }
        return await self.begin(body)

    async def begin(self, body: Json) -> Json:
        """The game of `body` (POST /v1/games) created by the first of the players, joined
        by them all and started; each player's id as the game gave it."""
        admin = self.players[0]
        self.game_id = (await self.call("POST", "/v1/games", admin, body))["id"]
        for player in self.players:
            await self.call("POST", f"/v1/games/{self.game_id}/join", player)
        await self.call("POST", f"/v1/games/{self.game_id}/start", admin)
        state = await self.game()
        by_name = {p["name"]: p["id"] for p in state["players"]}
        for player in self.players:
            player.id = by_name[player.name]
        return state

    async def game(self) -> Json:
        found: Json = await self.call("GET", f"/v1/games/{self.game_id}")
        return found

    async def orders(self, player: Player, text: str) -> Json:
        found: Json = await self.call(
            "PUT", f"/v1/games/{self.game_id}/orders", player, {"orders": text}
        )
        return found

    async def resolve(self) -> None:
        """Resolve the turn now (as the operator: an admin's early resolution waits for
        every player's orders), then step past the lock window."""
        operator = Player("operator", "operator", OPERATOR_TOKEN)
        await self.call("POST", f"/v1/games/{self.game_id}/admin/resolve", operator)
        await self.call("POST", "/v1/admin/clock", operator, {"advance_seconds": PAST_THE_LOCK})

    async def rewind(self) -> None:
        path = f"/v1/games/{self.game_id}/admin/rewind"
        await self.call("POST", path, self.players[0], {"reason": "test"})


class RunningClock:
    """A real clock, set years away from ours: it runs as time does, from `start`."""

    def __init__(self, start: datetime) -> None:
        self._start = start
        self._began = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=time.monotonic() - self._began)


@contextlib.asynccontextmanager
async def serving(
    schema_url: str, clock: Clock | None = None, **overrides: Any
) -> AsyncIterator[Server]:
    """`overrides` set other fields of server.settings.Settings; the clock is a fake one,
    at START, unless one is given."""
    clock = clock or FakeClock(START)
    settings = Settings(
        database_url=schema_url, pool_size=4, operator_token=OPERATOR_TOKEN, **overrides
    )
    app = create_app(settings, clock=clock)
    async with running(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        yield Server(base, client, clock)


def first_move(state: Json, player_id: str) -> tuple[str, str]:
    """An army of the player and an empty territory next to it."""
    game_map = state["map"]
    armies: dict[str, str] = state["board"]["armies"]
    neighbours: dict[str, set[str]] = {t["id"]: set() for t in game_map["territories"]}
    for a, b in game_map["edges"]:
        neighbours[a].add(b)
        neighbours[b].add(a)
    for territory, owner in sorted(armies.items()):
        if owner != player_id:
            continue
        for there in sorted(neighbours[territory]):
            if there not in armies and state["board"]["control"].get(there) is None:
                return territory, there
    raise AssertionError(f"{player_id} has no army with an empty neighbour")


def profile_dir() -> tempfile.TemporaryDirectory[str]:
    """A fresh, empty Chromium profile for each browser."""
    return tempfile.TemporaryDirectory(prefix="skirmish-chromium-")


@contextlib.asynccontextmanager
async def opened_page(
    origins: tuple[str, ...], expected_errors: list[str]
) -> AsyncIterator["Page"]:
    """A page of a fresh headless Chromium (the `page` fixture's) that fails the test on any
    JavaScript error but `expected_errors` and on any request beyond `origins`."""
    require_browser()
    from playwright.async_api import ConsoleMessage, Error, Request, async_playwright

    elsewhere: list[str] = []
    problems: list[str] = []

    def on_request(request: Request) -> None:
        url = request.url
        if not url.startswith((*(origin + "/" for origin in origins), "data:", "about:")):
            elsewhere.append(url)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console: {message.text}")

    def on_error(error: Error) -> None:
        problems.append(f"page error: {error}")

    with profile_dir() as profile:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                profile,
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1200, "height": 900},
                device_scale_factor=1,
                locale="en-GB",
                timezone_id="UTC",
                reduced_motion="reduce",
            )
            context.set_default_timeout(10_000)
            context.on("request", on_request)
            context.on("console", on_console)
            context.on("weberror", lambda web_error: on_error(web_error.error))
            try:
                yield context.pages[0] if context.pages else await context.new_page()
            finally:
                await context.close()
    assert not elsewhere, f"requests beyond the server: {elsewhere}"
    unexpected = [p for p in problems if p.removeprefix("console: ") not in expected_errors]
    assert not unexpected, "\n".join(unexpected)
