"""Integration helpers: a real server on a fake clock, and people who talk to it only
through the command endpoint (accounts aside, which a bot would hold already)."""

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx

from server.app import create_app
from server.clock import FakeClock
from server.settings import Settings
from tests.server.running import running

# 08:00 UTC: four hours before the default resolution hour, so orders are open.
START = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)
OPERATOR_TOKEN = "operator-token-for-tests-only"


class Said:
    """A command's answer: the reply text, ok, and the structured result."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.reply: str = body["reply"]
        self.ok: bool = body["ok"]
        self.result: dict[str, Any] | None = body.get("result")

    def __repr__(self) -> str:
        return f"Said(ok={self.ok}, reply={self.reply!r})"


class Person:
    def __init__(
        self, client: httpx.AsyncClient, name: str, token: str, heard: list[Said] | None = None
    ) -> None:
        self.client = client
        self.name = name
        self.token = token
        self.game: str | None = None
        # Every answer this person got, kept where the table keeps everyone's.
        self.heard: list[Said] = [] if heard is None else heard

    async def say(self, text: str, game: str | None = None) -> Said:
        """Send a command to the game (or to /v1/commands without one); 200 expected."""
        where = game or self.game
        path = "/v1/commands" if where is None else f"/v1/games/{where}/commands"
        response = await self.client.post(
            path, json={"text": text}, headers={"Authorization": f"Bearer {self.token}"}
        )
        assert response.status_code == 200, response.text
        said = Said(response.json())
        assert len(said.reply) <= 2000
        self.heard.append(said)
        return said

    async def ok(self, text: str) -> Said:
        said = await self.say(text)
        assert said.ok, said.reply
        return said

    async def refused(self, text: str) -> Said:
        said = await self.say(text)
        assert not said.ok, said.reply
        assert said.result is None
        return said


class Table:
    """A server, its clock, and a way to seat people."""

    def __init__(self, client: httpx.AsyncClient, clock: FakeClock) -> None:
        self.client = client
        self.clock = clock
        # Every answer anyone at the table got, in order.
        self.heard: list[Said] = []

    async def person(self, name: str) -> Person:
        response = await self.client.post("/v1/accounts", json={"name": name})
        assert response.status_code == 201, response.text
        return Person(self.client, name, response.json()["token"], self.heard)

    async def game(self, admin: Person, players: list[Person], setup: str) -> str:
        """`admin` sets up with `setup`; everyone joins; returns the game id."""
        created = await admin.ok(setup)
        assert created.result is not None
        game: str = created.result["id"]
        for person in {id(p): p for p in [admin, *players]}.values():
            person.game = game
        for person in players:
            await person.ok("/join")
        return game


@contextlib.asynccontextmanager
async def table(schema_url: str) -> AsyncIterator[Table]:
    clock = FakeClock(START)
    # Rate limits off: a person here says sixty things in a blink (tests/api/test_rate_limits.py
    # is where the limits are tested).
    settings = Settings(
        database_url=schema_url, pool_size=8, operator_token=OPERATOR_TOKEN, rate_limits=None
    )
    app = create_app(settings, clock=clock)
    async with running(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        yield Table(client, clock)


async def all_ready(*people: Person) -> None:
    """Each says "ready" with an empty submission (no order: its pieces are empty), which
    leaves their orders as they were: an admin's early resolution waits for every player's
    orders (rules.md, "Decisions added after the second release")."""
    for person in people:
        await person.ok("/submit ,")


def neighbours(said: Said) -> dict[str, set[str]]:
    """The map's adjacencies, from /help's result."""
    assert said.result is not None
    found: dict[str, set[str]] = {}
    for a, b in said.result["map"]["edges"]:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)
    return found


def armies(said: Said, player_id: str) -> list[str]:
    """The territories of a player's armies, from /help's result (the public game)."""
    assert said.result is not None
    board: dict[str, str] = said.result["board"]["armies"]
    return sorted(t for t, owner in board.items() if owner == player_id)
