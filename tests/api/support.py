"""Helpers for the API tests: a real server, an HTTP client that knows the calls, websocket
clients that record what they receive, and waiting for a condition with a deadline."""

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import httpx
import msgspec
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client import SkirmishClient, Subscription
from client.games import AdminAction
from schema.api import BanBody, Done, FeedEvent, Joined, NewGame, OrdersAccepted, RewindBody
from schema.events import event_values
from schema.live import ServerMessage
from schema.views import PublicGame
from server.app import create_app
from server.clock import FakeClock
from server.game.entropy import Entropy
from server.settings import Settings
from tests.server.running import running, serve_subprocess

OPERATOR_TOKEN = "operator-token-for-the-api-tests"
# The secret of every game these servers start (the real server draws a fresh one): under
# it the scripted game of tests/api/game.py is seated and votes as written there.
TEST_SECRET = (15).to_bytes(4, "big") * 8
START = datetime(2030, 3, 4, 8, 0, tzinfo=UTC)
# After a resolution, orders stay locked for a minute in fast mode: step past it.
PAST_THE_LOCK = 120.0
WAIT_SECONDS = 15.0

Json = dict[str, Any]
# A scrape of GET /metrics: each sample's value by its name and labels.
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def until(
    condition: Callable[[], Awaitable[bool] | bool],
    *,
    seconds: float = WAIT_SECONDS,
    what: str = "the condition",
) -> None:
    """Poll `condition` until it holds; fail after `seconds`."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                result = condition()
                if not isinstance(result, bool):
                    result = await result
                if result:
                    return
                await asyncio.sleep(0.02)  # polling interval, not synchronisation
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def never_send(self: object) -> None:
    """In place of Webhooks.send_forever, where a fuzzer may set any URL as a game's webhook:
    nothing is sent anywhere."""
    await asyncio.Event().wait()


@dataclass(frozen=True)
class Account:
    account_id: str
    token: str
    name: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Api:
    """The calls of docs/api.md through the client (client/), as each account makes them;
    `call` is the raw HTTP path, for the tests whose point is HTTP itself (malformed bodies,
    headers, statuses)."""

    def __init__(self, client: httpx.AsyncClient, base: str) -> None:
        self.client = client
        # On the same connections as the raw path.
        self.anyone = SkirmishClient(base, http=client)

    def as_(self, who: "Account | str | None") -> SkirmishClient:
        """A client calling as the account (or with the token)."""
        token = who.token if isinstance(who, Account) else who
        return self.anyone.using(token)

    async def call(
        self,
        method: str,
        path: str,
        who: Account | str | None = None,
        body: Any = None,
        *,
        expect: int = 200,
        headers: dict[str, str] | None = None,
    ) -> Any:
        sent = dict(headers or {})
        if isinstance(who, Account):
            sent.update(who.auth)
        elif isinstance(who, str):
            sent["Authorization"] = f"Bearer {who}"
        response = await self.client.request(
            method, path, headers=sent, json=body if body is not None else None
        )
        assert response.status_code == expect, (
            f"{method} {path}: {response.status_code} {response.text}"
        )
        return response.json() if response.content else None

    async def account(self, name: str) -> Account:
        created = await self.anyone.create_account(name)
        return Account(created.account_id, created.token, name)

    async def new_game(self, admin: Account, **options: Any) -> PublicGame:
        setup = msgspec.convert({"name": "Test game", "fast_mode": True, **options}, NewGame)
        return await self.as_(admin).create_game(setup)

    async def game(self, game_id: str, who: Account | None = None) -> PublicGame:
        return await self.as_(who).get_game(game_id)

    async def join(self, game_id: str, who: Account) -> Joined:
        return await self.as_(who).join(game_id)

    async def start(self, game_id: str, admin: Account) -> Done:
        return await self.as_(admin).start(game_id)

    async def orders(self, game_id: str, who: Account, text: str, **extra: Any) -> OrdersAccepted:
        return await self.as_(who).submit_orders(game_id, text, **extra)

    async def admin(
        self, game_id: str, who: Account | str, action: AdminAction, **body: Any
    ) -> Done:
        admin_body: BanBody | RewindBody | None = None
        if action in ("ban", "unban"):
            admin_body = msgspec.convert(body, BanBody)
        elif body:
            admin_body = msgspec.convert(body, RewindBody)
        return await self.as_(who).admin(game_id, action, admin_body)

    async def events(
        self, game_id: str, who: Account | str | None = None, after: int = 0
    ) -> list[FeedEvent]:
        """The whole feed after `after` as `who` reads it, page by page."""
        return [e async for e in self.as_(who).all_events(game_id, after=after)]


async def joined_game(api: Api, body: Json, accounts: Sequence[Account]) -> str:
    """The game of `body` (POST /v1/games, raw), created by the first account and joined by
    them all in order (the first is p1): its id."""
    game_id: str = (await api.call("POST", "/v1/games", accounts[0], body, expect=201))["id"]
    for who in accounts:
        await api.join(game_id, who)
    return game_id


def played(feed: list[Json], kind: str | None = None) -> list[Json]:
    """The events a game run by its definition recorded (play_recorded.v1's) in a feed, in
    order; only those of type `kind` when given."""
    return [
        event
        for step in feed
        if step["type"] == "play_recorded.v1"
        for event in step["events"]
        if kind is None or event["type"] == kind
    ]


async def make_move(api: Api, game_id: str, who: Account, move: Any, expect: int = 200) -> Json:
    """A move in a game run by its definition (POST /moves), raw: its answer, or its error."""
    body = {"move": move}
    answer: Json = await api.call("POST", f"/v1/games/{game_id}/moves", who, body, expect=expect)
    return answer


async def command(api: Api, game_id: str, who: Account, text: str) -> Json:
    """A text command (POST /commands): the reply, as a bot would post it."""
    answer: Json = await api.call("POST", f"/v1/games/{game_id}/commands", who, {"text": text})
    return answer


async def public_game(api: Api, game_id: str, who: Account | None = None) -> Json:
    """GET /v1/games/{game} as JSON, with the fields of whatever game it plays; as `who` sees
    it (their seats' view and sealed moves) when given."""
    view: Json = await api.call("GET", f"/v1/games/{game_id}", who)
    return view


async def feed_of(api: Api, game_id: str, who: Account | None = None) -> list[Json]:
    """The whole feed as `who` reads it, each event its data with its `type`."""
    return [{"type": e.type, **event_values(e.data)} for e in await api.events(game_id, who)]


@dataclass
class Live:
    """A websocket client of /live that records every message it receives."""

    connection: ClientConnection
    messages: list[Json] = field(default_factory=list)
    close_code: int | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _reader: asyncio.Task[None] | None = None

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        base: str,
        game_id: str,
        *,
        after: int = 0,
        token: str | None = None,
        auth: str | None = None,
        first_message: str | None = None,
        headers: dict[str, str] | None = None,
        read: bool = True,
        **options: Any,
    ) -> AsyncIterator["Live"]:
        query: dict[str, Any] = {"after": after}
        if token is not None:
            query["token"] = token
        if auth is not None:
            query["auth"] = auth
        url = f"{base.replace('http', 'ws', 1)}/v1/games/{game_id}/live?{urlencode(query)}"
        async with connect(url, proxy=None, additional_headers=headers, **options) as connection:
            if first_message is not None:
                await connection.send(json.dumps({"token": first_message}))
            live = cls(connection)
            if read:
                live.start_reading()
            try:
                yield live
            finally:
                await live.stop_reading()

    def start_reading(self) -> None:
        self._reader = asyncio.create_task(self._read())

    async def stop_reading(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def _read(self) -> None:
        try:
            async for raw in self.connection:
                self.messages.append(json.loads(raw))
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            received = self.connection.protocol.close_rcvd
            self.close_code = received.code if received is not None else 1006
            self._changed.set()

    async def wait_for(
        self, condition: Callable[[list[Json]], bool], *, seconds: float = WAIT_SECONDS
    ) -> list[Json]:
        """Wait until the messages so far satisfy `condition`; returns a copy of them."""
        try:
            async with asyncio.timeout(seconds):
                while not condition(self.messages):
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            recent = [(m["type"], m["position"]) for m in self.messages[-10:]]
            raise AssertionError(f"timed out; the last messages: {recent}") from None
        return list(self.messages)

    async def wait_for_position(self, position: int) -> list[Json]:
        return await self.wait_for(lambda ms: any(m["position"] >= position for m in ms))

    async def wait_closed(self, *, seconds: float = WAIT_SECONDS) -> int:
        async with asyncio.timeout(seconds):
            while self.close_code is None:
                self._changed.clear()
                await self._changed.wait()
        return self.close_code

    @property
    def events(self) -> list[Json]:
        return [m["event"] for m in self.messages if m["type"] == "event"]

    def of_type(self, kind: str) -> list[Json]:
        return [m for m in self.messages if m["type"] == kind]


@contextlib.asynccontextmanager
async def collecting(subscription: Subscription) -> AsyncIterator[list[ServerMessage]]:
    """Read a client's subscription (client.live) into a list in the background."""
    received: list[ServerMessage] = []

    async def read() -> None:
        async for message in subscription:
            received.append(message)

    reader = asyncio.create_task(read())
    try:
        yield received
    finally:
        reader.cancel()
        await subscription.aclose()
        # A reader that failed fails the test: awaiting it raises what it met.
        with contextlib.suppress(asyncio.CancelledError):
            await reader


def data(event: FeedEvent) -> Json:
    """An event's data as JSON (the client decodes it as the event's own Struct, where a
    field the reader may not see reads as its default)."""
    shown: Json = msgspec.json.decode(msgspec.json.encode(event.data))
    return shown


def delivered(messages: list[Json]) -> list[tuple[str, int, str | None]]:
    """What a client must receive exactly once: events, resolutions, rewinds (standings and
    pings are snapshots, sent as often as they change)."""
    return [
        (m["type"], m["position"], m["event"]["type"] if m["type"] == "event" else None)
        for m in messages
        if m["type"] in ("event", "resolved", "rewound")
    ]


def metric_samples(text: str) -> Samples:
    """Prometheus' text format read."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@dataclass
class Server:
    base: str
    api: Api
    clock: FakeClock
    app: FastAPI


@contextlib.asynccontextmanager
async def serving(
    schema_url: str,
    *,
    pool_size: int = 10,
    send_buffer: int | None = None,
    port: int = 0,
    entropy: Entropy = lambda: TEST_SECRET,
    **overrides: Any,
) -> AsyncIterator[Server]:
    """The app on a real uvicorn, on a fake clock, with an operator token; every game it
    starts draws from `entropy` (TEST_SECRET unless told otherwise); on `port` if given.
    `overrides` set other fields of server.settings.Settings; the rate limits are off unless
    given (the tests make accounts and games by the hundred, from one address)."""
    clock = FakeClock(START)
    settings = Settings(
        database_url=schema_url,
        pool_size=pool_size,
        operator_token=OPERATOR_TOKEN,
        **{"rate_limits": None, **overrides},
    )
    app = create_app(settings, clock=clock, entropy=entropy)
    async with (
        running(app, send_buffer=send_buffer, port=port) as base,
        httpx.AsyncClient(base_url=base, timeout=30) as client,
    ):
        yield Server(base, Api(client, base), clock, app)


@contextlib.asynccontextmanager
async def two_serve_processes(
    schema_url: str,
) -> AsyncIterator[tuple[tuple[str, "Api"], tuple[str, "Api"]]]:
    """Two `skirmish serve` processes on the schema, as behind a load balancer, started
    together: each one's base URL and the calls through it."""
    async with contextlib.AsyncExitStack() as stack:
        bases = await asyncio.gather(
            stack.enter_async_context(serve_process(schema_url)),
            stack.enter_async_context(serve_process(schema_url)),
        )
        one, two = [
            (base, Api(await stack.enter_async_context(httpx.AsyncClient(base_url=base)), base))
            for base in bases
        ]
        yield one, two


def serve_process(schema_url: str) -> AbstractAsyncContextManager[str]:
    """`skirmish serve` in a subprocess on the schema, with the operator token; yields its
    base URL."""
    environment = {
        **os.environ,
        "DATABASE_URL": schema_url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR_TOKEN,
        "SKIRMISH_POOL_SIZE": "4",
    }
    return serve_subprocess(environment=environment)
