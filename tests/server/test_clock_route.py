"""POST /v1/admin/clock: a whole fast-mode turn resolves by itself from outside."""

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx
import pytest

from server.app import create_app
from server.clock import FakeClock
from server.ops import clock_steps, scheduler
from server.settings import Settings
from tests.server.running import running, serve_subprocess
from tests.server.scripted import START

OPERATOR = "operator-token-for-tests"


@pytest.fixture
async def http(schema_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(
        Settings(database_url=schema_url, operator_token=OPERATOR), clock=FakeClock(START)
    )
    async with running(app) as base, httpx.AsyncClient(base_url=base) as client:
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _player(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post("/v1/accounts", json={"name": name})
    assert response.status_code == 201
    return _bearer(response.json()["token"])


async def _fast_game_started(http: httpx.AsyncClient, name: str) -> str:
    """A fast-mode game of three players, started at START; its id."""
    players = [await _player(http, player) for player in ("Ann", "Bob", "Cat")]
    created = await http.post(
        "/v1/games", json={"name": name, "fast_mode": True}, headers=players[0]
    )
    game: str = created.json()["id"]
    for headers in players:
        assert (await http.post(f"/v1/games/{game}/join", headers=headers)).status_code == 200
    assert (await http.post(f"/v1/games/{game}/start", headers=players[0])).status_code == 200
    return game


async def test_a_fast_game_resolves_when_the_operator_moves_the_clock(
    http: httpx.AsyncClient,
) -> None:
    game = await _fast_game_started(http, "Clockwork")

    moved = await http.post(
        "/v1/admin/clock", json={"advance_seconds": 900}, headers=_bearer(OPERATOR)
    )
    assert moved.status_code == 200
    assert moved.json() == {
        "now": (START + timedelta(minutes=15)).isoformat().replace("+00:00", "Z")
    }
    state = (await http.get(f"/v1/games/{game}")).json()
    assert state["turn"] == 2
    assert state["last_turn"]["at"] == moved.json()["now"]
    # The game's own view of the time is the operator's clock, for countdowns.
    assert state["now"] == moved.json()["now"]

    later = (START + timedelta(hours=1)).isoformat()
    moved = await http.post("/v1/admin/clock", json={"set": later}, headers=_bearer(OPERATOR))
    assert moved.status_code == 200
    assert (await http.get(f"/v1/games/{game}")).json()["turn"] == 5


async def test_only_the_operator_moves_the_clock_and_never_back(http: httpx.AsyncClient) -> None:
    player = await _player(http, "Ann")
    refused = await http.post("/v1/admin/clock", json={"advance_seconds": 60}, headers=player)
    assert refused.status_code == 403
    back = (START - timedelta(minutes=1)).isoformat()
    refused = await http.post("/v1/admin/clock", json={"set": back}, headers=_bearer(OPERATOR))
    assert refused.status_code == 422
    assert "does not go back" in refused.json()["error"]["message"]
    for body in ({}, {"advance_seconds": 1, "set": START.isoformat()}, {"advance_seconds": -5}):
        refused = await http.post("/v1/admin/clock", json=body, headers=_bearer(OPERATOR))
        assert refused.status_code == 422, body


async def test_the_fake_clock_resumes_where_it_stood_after_a_restart(schema_url: str) -> None:
    environment = {**os.environ, "DATABASE_URL": schema_url, "SKIRMISH_OPERATOR_TOKEN": OPERATOR}
    async with (
        serve_subprocess("--fake-clock", environment=environment) as base,
        httpx.AsyncClient(base_url=base) as http,
    ):
        moved = await http.post(
            "/v1/admin/clock", json={"advance_seconds": 3 * 24 * 3600}, headers=_bearer(OPERATOR)
        )
    assert moved.status_code == 200
    ahead = moved.json()["now"]

    async with (
        serve_subprocess("--fake-clock", environment=environment) as base,
        httpx.AsyncClient(base_url=base) as http,
    ):
        game = await _fast_game_started(http, "Restarted")
        state = (await http.get(f"/v1/games/{game}")).json()
        back = await http.post(
            "/v1/admin/clock",
            json={"set": datetime.now(UTC).isoformat()},
            headers=_bearer(OPERATOR),
        )
    assert state["now"] == ahead
    assert back.status_code == 422
    assert back.json()["error"]["code"] == "clock_backwards"


async def test_a_fake_clock_starts_at_the_stored_time_whatever_its_start(
    schema_url: str,
) -> None:
    later = START + timedelta(days=2)
    app = create_app(
        Settings(database_url=schema_url, operator_token=OPERATOR), clock=FakeClock(START)
    )
    async with running(app) as base, httpx.AsyncClient(base_url=base) as http:
        moved = await http.post(
            "/v1/admin/clock", json={"set": later.isoformat()}, headers=_bearer(OPERATOR)
        )
    assert moved.status_code == 200

    for start in (START - timedelta(days=1), later + timedelta(days=1)):
        clock = FakeClock(start)
        app = create_app(Settings(database_url=schema_url, operator_token=OPERATOR), clock=clock)
        async with running(app) as base, httpx.AsyncClient(base_url=base) as http:
            stood = await http.post(
                "/v1/admin/clock", json={"advance_seconds": 0}, headers=_bearer(OPERATOR)
            )
        assert stood.status_code == 200
        assert datetime.fromisoformat(stood.json()["now"]) == clock.now() == later


async def test_a_real_clock_cannot_be_moved(schema_url: str) -> None:
    app = create_app(Settings(database_url=schema_url, operator_token=OPERATOR))
    async with running(app) as base, httpx.AsyncClient(base_url=base) as http:
        refused = await http.post(
            "/v1/admin/clock", json={"advance_seconds": 60}, headers=_bearer(OPERATOR)
        )
    assert refused.status_code == 404
    assert refused.json()["error"]["code"] == "no_fake_clock"


async def test_a_clock_whose_read_models_lag_answers_503_and_a_later_call_waits_for_them(
    http: httpx.AsyncClient, schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clock_steps, "CATCH_UP_SECONDS", 0.5)
    ann = await _player(http, "Ann")  # once the server has started
    connection = await asyncpg.connect(schema_url)
    try:
        # The runner cannot move its checkpoint while this transaction holds its table.
        transaction = connection.transaction()
        await transaction.start()
        await connection.execute("LOCK TABLE projection_checkpoints IN EXCLUSIVE MODE")
        created = await http.post("/v1/games", json={"name": "Lagging"}, headers=ann)
        assert created.status_code == 201
        lagging = await http.post(
            "/v1/admin/clock", json={"advance_seconds": 60}, headers=_bearer(OPERATOR)
        )
        assert lagging.status_code == 503
        assert lagging.json()["error"]["code"] == "read_models_behind"
        # The clock had not moved: it waits for the read models first.
        assert START.isoformat() in lagging.json()["error"]["message"]
        assert lagging.headers["Retry-After"] == "5"
        await transaction.rollback()
    finally:
        await connection.close()
    # The server's own wait again: a short one could run out while another test's open
    # transaction holds back what every catch-up reader sees.
    monkeypatch.undo()
    waited = await http.post(
        "/v1/admin/clock", json={"advance_seconds": 60}, headers=_bearer(OPERATOR)
    )
    assert waited.status_code == 200
    assert waited.json()["now"] == (START + timedelta(seconds=60)).isoformat().replace(
        "+00:00", "Z"
    )


async def test_a_clock_whose_due_games_another_scheduler_keeps_answers_503_and_goes_on_when_asked(
    http: httpx.AsyncClient, schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The wait for the claims alone is short: the read models keep the wait of a server
    # that shares the database with other work (another test's open transaction holds
    # back what every catch-up reader sees).
    monkeypatch.setattr(clock_steps, "CLAIMS_SECONDS", 0.3)
    monkeypatch.setattr(scheduler.Scheduler, "lease_seconds", property(lambda _: 0.2))
    game = await _fast_game_started(http, "Claimed")
    caught_up = await http.post(
        "/v1/admin/clock", json={"advance_seconds": 0}, headers=_bearer(OPERATOR)
    )
    assert caught_up.status_code == 200
    connection = await asyncpg.connect(schema_url)
    try:
        # Another server's scheduler claims the game as it falls due, and keeps it.
        await connection.execute(
            "UPDATE read_games SET claimed_until = now() + interval '1 hour' WHERE game_id = $1",
            game,
        )
        kept = await http.post(
            "/v1/admin/clock", json={"advance_seconds": 900}, headers=_bearer(OPERATOR)
        )
        assert kept.status_code == 503
        assert kept.json()["error"]["code"] == "scheduler_busy"
        assert kept.headers["Retry-After"] == "5"
        # The clock stopped where the game fell due (its reminder, before its resolution),
        # and says so.
        state = (await http.get(f"/v1/games/{game}")).json()
        assert state["turn"] == 1
        stopped = datetime.fromisoformat(state["now"])
        assert START < stopped < START + timedelta(minutes=15)
        target = (START + timedelta(seconds=900)).isoformat()
        assert kept.json()["error"]["message"].startswith(
            f"the clock stopped at {stopped.isoformat()} on its way to {target}: "
        )

        await connection.execute(
            "UPDATE read_games SET claimed_until = NULL WHERE game_id = $1", game
        )
    finally:
        await connection.close()
    # Where the message says to go.
    again = kept.json()["error"]["message"].rsplit("by ", 1)[1]
    moved = await http.post("/v1/admin/clock", content=again, headers=_bearer(OPERATOR))
    assert moved.status_code == 200
    assert moved.json()["now"] == target.replace("+00:00", "Z")
    assert (await http.get(f"/v1/games/{game}")).json()["turn"] == 2
