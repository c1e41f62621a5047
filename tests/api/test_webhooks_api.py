"""A game's webhook over HTTP, on a real server: private targets refused when set, trust
decided by who sets it, and a receiver that never finishes answering holds up nothing else."""

from datetime import timedelta

import asyncpg
import pytest

from server.webhooks.sender import DEADLINE_SECONDS, PER_GAME, backoff
from tests.api.game import ScriptedGame
from tests.api.support import OPERATOR_TOKEN, START, Account, Api, serving, until
from tests.server.tarpit import Tarpit

# Literal addresses and localhost (from /etc/hosts): checking them asks no DNS server.
REFUSED = [
    ("http://127.0.0.1:8080/hook", "loopback"),
    ("http://localhost/hook", "loopback"),
    ("https://[::1]/hook", "loopback"),
    ("http://[::ffff:127.0.0.1]/hook", "loopback"),
    ("http://0.0.0.0/hook", "unspecified"),
    ("http://10.1.2.3/hook", "private"),
    ("http://192.168.0.10/hook", "private"),
    ("http://[fd00::1]/hook", "private"),
    ("http://169.254.169.254/latest/meta-data", "link-local"),
    ("http://[fe80::1]/hook", "link-local"),
    ("http://224.0.0.1/hook", "multicast"),
]


def _hook(game_id: str) -> str:
    return f"/v1/games/{game_id}/webhook"


async def test_a_private_target_is_refused_when_the_webhook_is_set(schema_url: str) -> None:
    async with serving(schema_url) as server:
        api = server.api
        admin = await api.account("Ann")
        game_id = (await api.new_game(admin)).id
        for url, kind in REFUSED:
            for who in (admin, OPERATOR_TOKEN):
                refused = await api.call("PUT", _hook(game_id), who, {"url": url}, expect=422)
                assert refused["error"]["code"] == "webhook_target_refused", url
                assert f"a {kind} address" in refused["error"]["message"], url
        for url in ("ftp://example.test/hook", "http://", "not a url", "http://a/" + "x" * 2000):
            refused = await api.call("PUT", _hook(game_id), admin, {"url": url}, expect=422)
            assert refused["error"]["code"] == "invalid_webhook_url", url
        view = await api.call("GET", _hook(game_id), admin)
        assert view["url"] is None


async def test_who_sets_the_webhook_decides_whether_it_is_trusted(schema_url: str) -> None:
    async with serving(schema_url, webhook_allow_private=True) as server:
        api = server.api
        url = "http://127.0.0.1:9/hook"
        admin = await api.account("Ann")
        game_id = (await api.new_game(admin)).id

        async def set_by(who: Account | str, headers: dict[str, str] | None = None) -> bool:
            done = await api.call("PUT", _hook(game_id), who, {"url": url}, headers=headers)
            view = await api.call("GET", _hook(game_id), who, headers=headers)
            assert done["url"] == view["url"] == url
            assert done["trusted"] == view["trusted"]
            return bool(done["trusted"])

        # Reminders are their players' alone before the resolution: not even the operator's
        # webhook receives them (rules.md, "Decisions added after the second release").
        assert not await set_by(admin)
        assert not await set_by(OPERATOR_TOKEN)

        client = await api.call("POST", "/v1/clients", OPERATOR_TOKEN, {"name": "bot"}, expect=201)
        as_bot = {"X-Acting-User": "discord-42"}
        created = await api.call(
            "POST", "/v1/games", client["token"], {"name": "Bot's"}, expect=201, headers=as_bot
        )
        game_id = created["id"]
        assert await set_by(client["token"], as_bot)
        # Only the client the game was set up through (its bot, which DMs each player their
        # own) is trusted with them; the operator setting the same game's webhook is not.
        assert not await set_by(OPERATOR_TOKEN)


async def _webhook_outcomes(schema_url: str, game_id: str) -> list[asyncpg.Record]:
    connection = await asyncpg.connect(schema_url)
    try:
        return await connection.fetch(
            "SELECT attempts, last_error, next_attempt_at FROM webhook_deliveries "
            "WHERE game_id = $1 AND attempts > 0",
            game_id,
        )
    finally:
        await connection.close()


async def _failures_recorded(schema_url: str, game_id: str, count: int) -> bool:
    return len(await _webhook_outcomes(schema_url, game_id)) >= count


async def _listed(api: Api, game_id: str) -> bool:
    listed = await api.call("GET", "/v1/games?limit=200")
    return any(game["id"] == game_id for game in listed["games"])


@pytest.mark.timeout(120)
async def test_a_receiver_that_never_answers_holds_up_nothing_else(schema_url: str) -> None:
    tarpit = Tarpit(every=2.0)
    async with tarpit.serving() as hook, serving(schema_url, webhook_allow_private=True) as server:
        api = server.api
        slow = ScriptedGame(server)
        await slow.create(fast_mode=True)
        await slow.join_and_start()  # resolves at START + 15 min
        server.clock.advance(5 * 60)
        other = ScriptedGame(server)
        await other.create(fast_mode=True)
        await other.join_and_start()  # resolves at START + 20 min
        await api.call("PUT", _hook(slow.game_id), slow.admin, {"url": hook})

        await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": 600})
        assert (await slow.state()).turn == 2
        # Of its five deliveries (the resolution, four players' results), as many as the
        # cap lets through at once.
        await until(lambda: tarpit.open == PER_GAME, what="the tarpit to hold the deliveries")

        # Meanwhile (the tarpit lets nothing go before the deadline, 10 s after it took
        # them) a new game is listed, and the other game resolves at its time.
        new = ScriptedGame(server)
        await new.create()
        await until(lambda: _listed(api, new.game_id), what="the new game to be listed")
        assert tarpit.closed == 0
        moved = await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": 300})
        assert tarpit.closed == 0
        resolved_at = START + timedelta(minutes=20)
        assert moved["now"] == resolved_at.isoformat().replace("+00:00", "Z")
        state = await other.state()
        assert state.last_turn is not None
        assert (state.turn, state.last_turn.at) == (2, resolved_at)

        # The tarpit's deliveries are given up at the deadline, and tried again later.
        await until(
            lambda: tarpit.closed >= PER_GAME,
            seconds=DEADLINE_SECONDS * 3,
            what="the deadline",
        )
        await until(
            lambda: _failures_recorded(schema_url, slow.game_id, PER_GAME),
            what="the failures to be recorded",
        )
        for attempts, error, retry in await _webhook_outcomes(schema_url, slow.game_id):
            assert attempts == 1
            assert error == f"no complete answer within {DEADLINE_SECONDS:g} s"
            assert retry == resolved_at + backoff(1)
        view = await api.call("GET", _hook(slow.game_id), slow.admin)
        assert (view["pending"], view["delivered"], view["failed"]) == (5, 0, 0)
        assert view["last_error"] == f"no complete answer within {DEADLINE_SECONDS:g} s"
    assert tarpit.most_open == PER_GAME
