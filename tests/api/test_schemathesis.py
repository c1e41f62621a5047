"""Schemathesis against /openapi.json: every operation, with data that fits its schema and
data that does not, as nobody, a player, an admin, the operator, a trusted client without a
user and a made-up token, on games in each phase and of each built-in game. No answer may be
a 5xx, and every answer must be documented and match its documented schema."""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

import server.webhooks.sender
from tests.api.game import ScriptedGame, other_game
from tests.api.support import OPERATOR_TOKEN, Server, never_send, serving

# Per operation, spread over both generation modes; about 30 s for the whole API.
EXAMPLES = 60
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Whatever the fuzzer sets as a game's webhook, nothing is sent off this machine.
LOOPBACK_HOOK = "http://127.0.0.1:9/hook"


async def _games_in_every_phase(
    server: Server,
) -> tuple[list[str], list[dict[str, str]]]:
    """Game ids (joining, running with orders, finished, sandbox; a running Art of War and
    Skor game, and a joining Skor game) and callers' headers."""
    running = ScriptedGame(server)
    await running.create()
    await running.join_and_start()
    await running.submit(1)
    joining = ScriptedGame(server)
    await joining.create(voting_mode="same_day")
    await joining.api.join(joining.game_id, joining.admin)
    finished = ScriptedGame(server)
    await finished.create(vp_target=1)
    await finished.join_and_start()
    await finished.submit(1)
    await finished.resolve()
    # Di took the expansion award: one VP, and the game, at the end of turn 1.
    assert (await finished.state()).winner == "p4"
    sandbox = await server.api.new_game(running.admin, sandbox=True)
    # The other games' admin and player are the running game's: the same callers pass
    # their doors.
    seats = [running.admin, running.player("Bob")]
    others = [
        (await other_game(server.api, "art-of-war", seats))[0],
        (await other_game(server.api, "skor", seats))[0],
        (await other_game(server.api, "skor", seats, start=False))[0],
    ]
    client = await server.api.call(
        "POST", "/v1/clients", OPERATOR_TOKEN, {"name": "fuzz bot"}, expect=201
    )

    def bearer(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    admin, player = bearer(running.admin.token), bearer(running.player("Bob").token)
    callers = [
        # Mostly callers who may do something, so that the calls get past the door.
        *[admin] * 3,
        *[player] * 2,
        bearer(OPERATOR_TOKEN),
        {**bearer(client["token"]), "X-Acting-User": "fuzz-user"},
        # And some who may not.
        {},
        bearer(client["token"]),
        bearer("made-up-token"),
    ]
    games = [running.game_id, joining.game_id, finished.game_id, sandbox.id, *others]
    return games, callers


# Calls that should succeed (as the right caller), besides the generated ones, which mostly
# should not: keyword arguments of `as_strategy`.
ADJUDICATION = {
    "map": "rulebook",
    "players": {"red": {"vp": 0}, "blue": {"vp": 3}},
    "armies": {"SI": "red", "FI": "red", "RG": "blue", "OG": "blue"},
    "control": {"MA": "red"},
    "farms": ["EH"],
    "orders": {"red": ["SI H", "FI S SI"], "blue": ["RG to SI, OG S RG to SI"]},
    "effect": None,
}
KNOWN_GOOD: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/v1/games"): {"body": {"name": "Fuzzed", "seed": 5, "fast_mode": True}},
    ("POST", "/v1/maps/generate"): {"body": {"players": 4, "seed": 3}},
    ("GET", "/v1/maps/{name}"): {"path_parameters": {"name": "rulebook"}},
    ("POST", "/v1/adjudicate"): {"body": ADJUDICATION},
    ("POST", "/v1/admin/clock"): {"body": {"advance_seconds": 1}},
    ("PUT", "/v1/games/{game}/orders"): {"body": {"orders": "EA F, GO B, BE H"}},
    ("GET", "/v1/games/{game}/turns/{turn}"): {"path_parameters": {"turn": 1}},
    ("PATCH", "/v1/games/{game}/players/me"): {"body": {"color": 7, "notifications": False}},
    ("POST", "/v1/games/{game}/broadcast"): {"body": {"message": "hello"}},
    ("POST", "/v1/games/{game}/join-forces"): {"body": {"with": "p3"}},
}
Setup = Callable[[], tuple[list[str], list[dict[str, str]]]]


def _fuzz(document: dict[str, Any], base: str, setup: Setup) -> list[str]:
    """Run every operation, each on games of its own; return what failed, one report per
    operation."""
    schema = schemathesis.openapi.from_dict(document)
    session = requests.Session()
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]
        method = operation.method.upper()
        games, callers = setup()
        strategies = []
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(operation.as_strategy(generation_mode=mode))
            if "{game}" in operation.path:
                strategies += [
                    operation.as_strategy(generation_mode=mode, path_parameters={"game": game})
                    for game in games
                ]
        good = KNOWN_GOOD.get((method, operation.path))
        if good is not None:
            for game in games:
                path = dict(good.get("path_parameters", {}))
                if "{game}" in operation.path:
                    path["game"] = game
                strategies.append(operation.as_strategy(**{**good, "path_parameters": path}))

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=st.one_of(strategies), headers=st.sampled_from(callers))
        def call(case: schemathesis.Case[Any], headers: dict[str, str]) -> None:
            if isinstance(case.body, dict) and isinstance(case.body.get("url"), str):
                case.body["url"] = LOOPBACK_HOOK
            response = case.call(base_url=base, headers=headers, session=session, timeout=30)
            case.validate_response(response, checks=CHECKS, headers=headers)

        try:
            call()
        # Schemathesis reports several failures as a BaseExceptionGroup.
        except (Exception, BaseExceptionGroup) as error:
            failures.append(f"{method} {operation.path}:\n{error}")
    session.close()
    return failures


# It took 67 s on a machine three times slower than a quick one (2026-11-27).
@pytest.mark.timeout(240)
async def test_every_operation_keeps_to_its_openapi_schema(
    schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.webhooks.sender.WebhookSender, "send_forever", never_send)
    async with serving(schema_url) as running:
        document = (await running.api.client.get("/openapi.json")).json()
        assert document["paths"]
        loop = asyncio.get_running_loop()

        def setup() -> tuple[list[str], list[dict[str, str]]]:
            future = asyncio.run_coroutine_threadsafe(_games_in_every_phase(running), loop)
            return future.result(timeout=60)

        # The fuzzer is synchronous: it runs in a thread while the server serves here.
        failures = await asyncio.to_thread(_fuzz, document, running.base, setup)
    assert not failures, "\n\n".join(failures)
