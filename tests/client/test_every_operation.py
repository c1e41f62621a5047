"""Every operation of /openapi.json has a method of the Python client: each method is called
once on a real server, and the server's own count of requests by route template
(/metrics) must show every operation reached. A route added without a client method fails
here; a method added without a line in CALLS, or in docs/client.md's table, fails too."""

import contextlib
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from client import ApiError, SkirmishClient
from rules.skirmish.contract import PlayerEntry
from rules.skirmish.contract import Request as Adjudication
from schema.api import ForkBody, NewGame, PlayerPatch, SettingsPatch
from tests.api.support import OPERATOR_TOKEN, Json, Server, metric_samples

# Nobody's game: every call on it reaches its route, which refuses it (a 404, mostly).
GAME = "nosuchgame"
ACCOUNT = "acct_nobody"

# How to call each method of the client once. A new method gets a line here.
CALLS: dict[str, Callable[[SkirmishClient], Awaitable[Any]]] = {
    "create_account": lambda c: c.create_account("Ann"),
    "create_client": lambda c: c.create_client("bot"),
    "clients": lambda c: c.clients(),
    "rotate_client": lambda c: c.rotate_client("nosuchclient"),
    "revoke_client": lambda c: c.revoke_client("nosuchclient"),
    "me": lambda c: c.me(),
    "tokens": lambda c: c.tokens(),
    "add_token": lambda c: c.add_token("phone"),
    "revoke_token": lambda c: c.revoke_token("tok_nobody"),
    "create_game": lambda c: c.create_game(NewGame("A game")),
    "list_games": lambda c: c.list_games(),
    "get_game": lambda c: c.get_game(GAME),
    "join": lambda c: c.join(GAME),
    "start": lambda c: c.start(GAME),
    "change_settings": lambda c: c.change_settings(GAME, SettingsPatch(fast_mode=True)),
    "fork": lambda c: c.fork(GAME, ForkBody(turn=1)),
    "claim_seat": lambda c: c.claim_seat(GAME),
    "decline_seat": lambda c: c.decline_seat(GAME),
    "submit_orders": lambda c: c.submit_orders(GAME, "AA H"),
    "my_orders": lambda c: c.my_orders(GAME),
    "make_move": lambda c: c.make_move(GAME, "rock"),
    "vote": lambda c: c.vote(GAME, "STORM"),
    "join_forces": lambda c: c.join_forces(GAME, "p2"),
    "broadcast": lambda c: c.broadcast(GAME, "hello"),
    "resign": lambda c: c.resign(GAME),
    "change_me": lambda c: c.change_me(GAME, PlayerPatch(color=2)),
    "admin": lambda c: c.admin(GAME, "pause"),
    "pause": lambda c: c.pause(GAME),
    "unpause": lambda c: c.unpause(GAME),
    "resolve": lambda c: c.resolve(GAME),
    "rewind": lambda c: c.rewind(GAME),
    "ban": lambda c: c.ban(GAME, "p2"),
    "unban": lambda c: c.unban(GAME, "p2"),
    "kill": lambda c: c.kill(GAME),
    "add_admin": lambda c: c.add_admin(GAME, account=ACCOUNT),
    "remove_admin": lambda c: c.remove_admin(GAME, ACCOUNT),
    "turn": lambda c: c.turn(GAME, 1),
    "play_turn": lambda c: c.play_turn(GAME, 1),
    "events": lambda c: c.events(GAME),
    "archive": lambda c: c.archive(GAME),
    "verify": lambda c: c.verify(GAME),
    "map_image": lambda c: c.map_image(GAME),
    "maps": lambda c: c.maps(),
    "builtin_map": lambda c: c.builtin_map("nosuchmap"),
    "generate_map": lambda c: c.generate_map(3),
    "effects": lambda c: c.effects(),
    "set_webhook": lambda c: c.set_webhook(GAME, "https://example.com/hook"),
    "webhook": lambda c: c.webhook(GAME),
    "delete_webhook": lambda c: c.delete_webhook(GAME),
    "command": lambda c: c.command("/help"),
    "game_command": lambda c: c.command("/help", game=GAME),
    "adjudicate": lambda c: c.adjudicate(
        Adjudication(map="nosuchmap", players={"p1": PlayerEntry()})
    ),
    "health": lambda c: c.health(),
    "move_clock": lambda c: c.move_clock(advance_seconds=0),
}
# Coroutine methods that are not calls of the API.
NOT_CALLS = {"aclose"}


def _client_calls() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(SkirmishClient)
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    } - NOT_CALLS


def test_every_call_of_the_client_is_in_the_table() -> None:
    # `command` serves two operations: the table calls it twice.
    assert _client_calls() == set(CALLS) - {"game_command"}


async def test_every_operation_of_the_openapi_document_has_a_client_method(
    server: Server,
) -> None:
    schema: Json = await server.api.call("GET", "/openapi.json")
    operations = {
        (method.upper(), path) for path, methods in schema["paths"].items() for method in methods
    }
    assert len(operations) >= 48

    async with SkirmishClient(server.base, OPERATOR_TOKEN) as operator:
        for call in CALLS.values():
            # Refused by its route, mostly: reached all the same.
            with contextlib.suppress(ApiError):
                await call(operator)

    scraped = await server.api.client.get(
        "/metrics", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    )
    reached = {
        (labels["method"], labels["route"])
        for (name, pairs), _ in metric_samples(scraped.text).items()
        if name == "skirmish_http_requests_total"
        for labels in [dict(pairs)]
    }
    missing = sorted(operations - reached)
    assert not missing, f"operations without a client method: {missing}"


def test_docs_client_md_has_a_line_for_every_call() -> None:
    document = (Path(__file__).parents[2] / "docs" / "client.md").read_text()
    listed = {
        line.split("`")[1].split("(")[0] for line in document.splitlines() if line.startswith("| `")
    }
    assert _client_calls() <= listed
