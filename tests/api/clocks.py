"""Games on the clock through a real server on a fake clock (POST /v1/admin/clock, whose
scheduler times out and reminds what falls due): the helpers of the tests of their deadlines
(test_game_clocks.py) and reminders (test_game_reminders.py)."""

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tests.api.support import OPERATOR_TOKEN, Account, Api, Server, make_move, public_game, serving
from tests.server.running import running
from tests.server.webhook_support import Receiver

Json = dict[str, Any]
FEUDAL = {"culture": "feudal", "side": 1}


async def started(api: Api, game: str, players: int, **options: Any) -> tuple[str, list[Account]]:
    """A game of `players` new accounts, the first its admin, started with `options`."""
    accounts = [await api.account(f"player{n}") for n in range(1, players + 1)]
    body = {"name": "On the clock", "game": game, "options": options}
    game_id = (await api.call("POST", "/v1/games", accounts[0], body, expect=201))["id"]
    for who in accounts:
        await api.join(game_id, who)
    await api.start(game_id, accounts[0])
    return game_id, accounts


async def advance(api: Api, seconds: float) -> None:
    await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": seconds})


def deadline_of(view: Json) -> datetime | None:
    due = view["next_resolution_at"]
    return None if due is None else datetime.fromisoformat(due)


def steps(feed: list[Json]) -> list[Json]:
    return [event for event in feed if event["type"] == "play_recorded.v1"]


async def choose(api: Api, game_id: str, accounts: list[Account]) -> tuple[Account, Account]:
    """Both seats of a Skor game choose a Feudal culture (no purge dice); the first and second
    to play."""
    for who in accounts:
        await make_move(api, game_id, who, FEUDAL)
    first_seat, second_seat = (await public_game(api, game_id))["play"]["game"]["players"]
    seat = {"p1": accounts[0], "p2": accounts[1]}
    return seat[first_seat], seat[second_seat]


@dataclass
class Hooked:
    """A Skor game on a ten-minute clock, both choices made, whose admin set a webhook."""

    server: Server
    receiver: Receiver
    game_id: str
    accounts: list[Account]
    first: Account
    second: Account
    # The webhook as its PUT answered: `trusted` says whether private notices reach it.
    webhook: Json


@contextlib.asynccontextmanager
async def hooked_skor(schema_url: str) -> AsyncIterator[Hooked]:
    """A server, and on it a Skor game whose first account (its admin, through no trusted
    client: a plain webhook) sends its notices to a receiver of this test's own."""
    receiver = Receiver()
    async with (
        running(receiver.app) as hook,
        serving(schema_url, webhook_allow_private=True) as server,
    ):
        api = server.api
        game_id, accounts = await started(api, "skor", 2, turn_time=600)
        hooked = {"url": f"{hook}/hook"}
        webhook = await api.call("PUT", f"/v1/games/{game_id}/webhook", accounts[0], hooked)
        first, second = await choose(api, game_id, accounts)
        yield Hooked(server, receiver, game_id, accounts, first, second, webhook)
