"""Hypothesis against the real server, where schemathesis (test_schemathesis.py) does not
reach: every route with a JSON body (found in /openapi.json, so that a new one is covered)
gets hostile raw bodies, arbitrary bytes, arbitrary JSON, and bodies of the right types with
values at the edges of those types; a running game gets arbitrary order text and text
commands, and a running game of the Art of War and of Skor arbitrary moves. No answer may be
a 5xx, and every 4xx must be an error in the API's form."""

import asyncio
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import server.webhooks.sender
from rules.skirmish.board import KEYWORD_KINDS
from server.commands.parse import COMMANDS
from tests.api.game import OTHER_GAMES, ScriptedGame, other_game
from tests.api.strategies import (
    ANY_JSON,
    ANYTHING,
    EDGES,
    INTEGERS,
    MOVE_WORDS,
    NUMBERS,
    PRINTABLE,
    STRINGS,
    Json,
    encoded,
    moves,
    soup,
)
from tests.api.support import OPERATOR_TOKEN, Server, never_send, serving

# Each of right and wrong bodies, per route.
EXAMPLES_PER_ROUTE = 15
TEXT_EXAMPLES = 100
FUZZED = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
Schema = dict[str, Any]
Call = Callable[[str, str, bytes, dict[str, str]], None]

# Bodies no encoder would write: every route with a JSON body gets each of them.
HOSTILE = [
    b"",
    b"   ",
    b"null",
    b"[]",
    b'"text"',
    b"{",
    b'{"a": 1} trailing',
    b'{"a": NaN, "b": Infinity}',
    b'{"a": 1e999999}',
    b'{"a": ' + b"9" * 5000 + b"}",
    b'{"a": 1, "a": 2}',
    b'{"\\ud800": "\\udfff"}',
    b"\xef\xbb\xbf{}",
    "{}".encode("utf-16"),
    b"\xff\xfe\xfd",
    b"[" * 20_000 + b"]" * 20_000,
    b'{"a":' * 5000 + b"1" + b"}" * 5000,
    b"1" * 60_000,
]


def typed(schema: Schema, schemas: dict[str, Schema]) -> st.SearchStrategy[Json]:
    """Values of the schema's type, at the edges of what the type holds."""
    if "$ref" in schema:
        return typed(schemas[schema["$ref"].rsplit("/", 1)[-1]], schemas)
    if "anyOf" in schema:
        return st.one_of([typed(option, schemas) for option in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        fields = {name: typed(field, schemas) for name, field in schema["properties"].items()}
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {name: value for name, value in fields.items() if name in required},
            optional={name: value for name, value in fields.items() if name not in required},
        )
    if kind == "object":
        values = typed(schema.get("additionalProperties", {}), schemas)
        return st.dictionaries(st.text(PRINTABLE, max_size=10), values, max_size=5)
    if kind == "array" and "prefixItems" in schema:
        return st.tuples(*(typed(item, schemas) for item in schema["prefixItems"])).map(list)
    if kind == "array":
        return st.lists(typed(schema.get("items", {}), schemas), max_size=5)
    simple = {"integer": INTEGERS, "number": NUMBERS, "string": STRINGS, "boolean": st.booleans()}
    return st.none() if kind == "null" else simple.get(str(kind), ANYTHING)


def right_bodies(schema: Schema, schemas: dict[str, Schema]) -> st.SearchStrategy[bytes]:
    """The right fields with the right types, with values at the edges of those types."""
    return st.tuples(typed(schema, schemas), st.booleans()).map(lambda v: encoded(*v))


def wrong_bodies(schema: Schema) -> st.SearchStrategy[bytes]:
    """The right fields with anything in them, any JSON at all, and bytes."""
    fields = st.dictionaries(st.sampled_from(sorted(schema["properties"])), ANYTHING)
    return st.one_of(
        st.tuples(fields, st.booleans()).map(lambda v: encoded(*v)),
        st.tuples(ANY_JSON, st.booleans()).map(lambda v: encoded(*v)),
        st.binary(max_size=500),
    )


def check(response: httpx.Response, what: str) -> None:
    """No 5xx; a 4xx is {"error": {"code", "message"}}; anything else is JSON too."""
    shown = f"{what}: {response.status_code} {response.text[:300]}"
    assert response.status_code < 500, shown
    if not response.content:
        assert response.status_code == 204, shown
        return
    answer = response.json()
    if response.status_code >= 400:
        assert set(answer) == {"error"}, shown
        assert isinstance(answer["error"]["code"], str), shown
        assert isinstance(answer["error"]["message"], str), shown
        assert answer["error"]["message"], shown


def json_body_routes(document: dict[str, Any]) -> list[tuple[str, str, Schema]]:
    """(method, path, body schema) of every operation that takes a JSON body."""
    schemas = document["components"]["schemas"]
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                schema = content["application/json"]["schema"]
                # A body that may be any of several types (each game's what-if): each.
                for option in schema.get("anyOf", [schema]):
                    body = schemas[option["$ref"].rsplit("/", 1)[-1]]
                    found.append((method.upper(), path, body))
    return found


def targets_of(document: dict[str, Any], method: str, path: str, game: str) -> list[str]:
    """The paths to call: the game's, once for each value of an enumerated parameter."""
    paths = [path.replace("{game}", game)]
    for parameter in document["paths"][path][method.lower()].get("parameters", []):
        if parameter["in"] != "path" or parameter["name"] == "game":
            continue
        # A new kind of path parameter needs a value here.
        values = parameter["schema"]["enum"]
        name = "{" + parameter["name"] + "}"
        paths = [p.replace(name, value) for p in paths for value in values]
    return paths


def fuzz_bodies(document: dict[str, Any], games: dict[str, tuple[str, str]], call: Call) -> None:
    schemas = document["components"]["schemas"]
    for method, path, schema in json_body_routes(document):
        game, admin_token = games[path]
        targets = targets_of(document, method, path, game)
        # The operator passes every door, so every hostile body reaches its decoder.
        for body in HOSTILE:
            for target in targets:
                call(method, target, body, OPERATOR)
        # As a player who is also the game's admin, too: the game's own checks.
        callers = [{"Authorization": f"Bearer {admin_token}"}, OPERATOR]
        fuzz_route(method, targets, right_bodies(schema, schemas), callers, call)
        fuzz_route(method, targets, wrong_bodies(schema), callers, call)


def fuzz_route(
    method: str,
    targets: list[str],
    bodies: st.SearchStrategy[bytes],
    callers: list[dict[str, str]],
    call: Call,
) -> None:
    @settings(FUZZED, max_examples=EXAMPLES_PER_ROUTE)
    @given(target=st.sampled_from(targets), body=bodies, headers=st.sampled_from(callers))
    def fuzz(target: str, body: bytes, headers: dict[str, str]) -> None:
        call(method, target, body, headers)

    fuzz()


def fuzz_text(game: str, words: list[str], player_token: str, call: Call) -> None:
    """Order text and commands, as a player of the running game: mostly the map's names and
    the order words in any order, which the checks let through to the parser."""
    headers = {"Authorization": f"Bearer {player_token}"}
    # The options of /advanced_setup, with values of every kind.
    options = st.tuples(
        st.sampled_from(re.findall(r"\[(\w+)=", COMMANDS["advanced_setup"].usage)),
        st.sampled_from([*map(str, EDGES), "true", "no", "spacious", "same_day", "", '"x', "6PM"]),
    ).map("=".join)
    text = st.one_of(
        soup(st.sampled_from(words) | options),
        st.text(PRINTABLE, max_size=500),
        st.text(max_size=500),
    )

    @settings(FUZZED, max_examples=TEXT_EXAMPLES)
    @given(orders=text)
    def orders(orders: str) -> None:
        body = encoded({"orders": orders}, ascii_only=True)
        call("PUT", f"/v1/games/{game}/orders", body, headers)

    # Resigning would end the player's part in the game, and the test's reach with it.
    names = sorted(set(COMMANDS) - {"resign"})
    command = st.one_of(
        st.tuples(st.sampled_from(["/", ""]), st.sampled_from(names), text).map(
            lambda c: f"{c[0]}{c[1]} {c[2]}"
        ),
        st.text(max_size=300),
    )
    where = st.sampled_from([f"/v1/games/{game}/commands", "/v1/commands"])

    @settings(FUZZED, max_examples=TEXT_EXAMPLES)
    @given(command=command, where=where)
    def commands(command: str, where: str) -> None:
        call("POST", where, encoded({"text": command}, ascii_only=True), headers)

    orders()
    commands()


def fuzz_moves(game: str, tokens: list[str], words: list[str], call: Call) -> None:
    """Moves of every form, with a turn and a seat at the edges, as either player of a
    running game run by its definition."""
    body = st.fixed_dictionaries(
        {"move": moves(words)},
        optional={"turn": INTEGERS, "player": st.sampled_from(["p1", "p2", "p3"]) | STRINGS},
    )
    callers = [{"Authorization": f"Bearer {token}"} for token in tokens]

    @settings(FUZZED, max_examples=TEXT_EXAMPLES)
    @given(body=body, ascii_only=st.booleans(), headers=st.sampled_from(callers))
    def move(body: Json, ascii_only: bool, headers: dict[str, str]) -> None:
        call("POST", f"/v1/games/{game}/moves", encoded(body, ascii_only), headers)

    # First, turns that end by either player in turn, so that the moves drawn after them meet
    # a game that has taken some (drawn moves alone are refused nearly all: whose turn, the
    # turn's number, a move of the wrong form).
    for headers in [*callers, *callers]:
        move = example(body={"move": "end"}, ascii_only=True, headers=headers)(move)
    move()


async def _set_up(
    running: Server, routes: list[str]
) -> tuple[dict[str, tuple[str, str]], Any, list[tuple[str, list[str], list[str]]]]:
    """A running game of its own for each route (and its admin's token); one more for the
    text, with its map's words and a player's token; and a running game of each other
    built-in game, with its players' tokens and its moves' words."""
    games: dict[str, tuple[str, str]] = {}
    for path in routes:
        game = ScriptedGame(running)
        await game.create()
        await game.join_and_start()
        games[path] = (game.game_id, game.admin.token)
    text = ScriptedGame(running)
    await text.create()
    await text.join_and_start()
    board_map = (await text.state()).map
    assert board_map is not None
    words = [word for t in board_map.territories for word in (t.id, t.name)]
    words += [*KEYWORD_KINDS, *(word.upper() for word in KEYWORD_KINDS)]
    others = []
    for kind in OTHER_GAMES:
        game_id, accounts = await other_game(running.api, kind)
        others.append((game_id, [account.token for account in accounts], MOVE_WORDS[kind]))
    return games, (text.game_id, words, text.player("Bob").token), others


@pytest.mark.timeout(240)
async def test_no_body_and_no_text_gets_a_5xx(
    schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.webhooks.sender.WebhookSender, "send_forever", never_send)
    async with serving(schema_url) as running:
        document = (await running.api.client.get("/openapi.json")).json()
        routes = [path for _, path, _ in json_body_routes(document)]
        assert {"/v1/accounts", "/v1/adjudicate", "/v1/games/{game}/orders"} <= set(routes)
        games, (text_game, words, player), others = await _set_up(running, routes)
        answered: list[int] = []

        def fuzz() -> None:
            # The fuzzer is synchronous: it runs in a thread while the server serves here.
            with httpx.Client(base_url=running.base, timeout=30) as client:

                def call(method: str, path: str, body: bytes, headers: dict[str, str]) -> None:
                    headers = {**headers, "Content-Type": "application/json"}
                    response = client.request(method, path, content=body, headers=headers)
                    answered.append(response.status_code)
                    check(response, f"{method} {path} {body[:200]!r}")

                fuzz_bodies(document, games, call)
                fuzz_text(text_game, words, player, call)
                for game, tokens, move_words in others:
                    fuzz_moves(game, tokens, move_words, call)

        await asyncio.to_thread(fuzz)
    # Most were refused, as they should be; some got through to do something.
    assert len(answered) > 500
    assert sum(200 <= status < 300 for status in answered) > 50
