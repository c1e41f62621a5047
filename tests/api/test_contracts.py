"""The published contracts hold: every HTTP answer, feed event and websocket message of real
games (a scripted game, a game of admins' actions, a sandbox, text commands) fits the schemas
of /openapi.json and /asyncapi.json, so that the documents cannot drift from the server."""

import contextlib
from collections.abc import AsyncIterator

import pytest

from client import Conflict
from schema.game_events import game_codec
from server.http.routes import live as live_route
from tests.api.contracts import (
    Contract,
    Recorder,
    answer_errors,
    asyncapi,
    message_errors,
    openapi,
)
from tests.api.game import ScriptedGame
from tests.api.support import OPERATOR_TOKEN, Account, Api, Json, Live, Server

PLAYED_BY_DEFINITIONS = {"play_started.v1", "move_sealed.v1", "play_recorded.v1"}
MESSAGE_TYPES = {"snapshot", "event", "standings", "resolved", "rewound", "ping", "error"}


async def _documents(api: Api) -> tuple[Contract, Contract]:
    return openapi(await api.call("GET", "/openapi.json")), asyncapi(
        await api.call("GET", "/asyncapi.json")
    )


async def _scripted_game(game: ScriptedGame) -> None:
    """tests/api/game.py's game, with a broadcast, a change of look, a pause, a moderator's
    read of secrets and a rewind without a body on the way."""
    api, game_id = game.api, game.game_id
    bob = game.player("Bob")
    await game.join_and_start()
    await game.submit(1)
    # The operator reads the feed with the turn in play: none of its secrets.
    await api.events(game_id, OPERATOR_TOKEN)
    await api.call("POST", f"/v1/games/{game_id}/broadcast", bob, {"message": "hello"})
    look = {"color": 7, "pattern": 3, "name": "Bobby", "notifications": False}
    await api.call("PATCH", f"/v1/games/{game_id}/players/me", bob, look)
    await api.admin(game_id, game.admin, "pause")
    await api.admin(game_id, game.admin, "unpause")
    await game.resolve()
    await game.submit(2)
    await game.resolve()
    await game.vote_all()
    with pytest.raises(Conflict):
        await game.join_forces("Bob", "Cy")
    await game.submit(3)
    await game.resolve()
    await game.join_forces("Bob", "Cy")
    await game.join_forces("Cy", "Bob")
    await game.submit(4)
    await game.resolve()
    game.server.clock.advance(60)
    # A rewind's reason is optional: so is its body.
    await api.call("POST", f"/v1/games/{game_id}/admin/rewind", game.admin)
    await game.resolve()
    await api.call("GET", f"/v1/games/{game_id}/orders", bob)
    for turn in range(1, 5):
        await api.call("GET", f"/v1/games/{game_id}/turns/{turn}")
    await api.call("GET", f"/v1/games/{game_id}/turns/6", expect=404)
    await api.call("GET", f"/v1/games/{game_id}/archive", game.admin)


async def _admins_game(server: Server) -> list[Json]:
    """A game of admins' doings: admins added and removed, settings, a leaver, a ban lifted,
    a resignation, and the kill."""
    api = server.api
    ann, bob, cy, di = [await api.account(name) for name in ("Ann", "Bob", "Cy", "Di")]
    options = {"voting_mode": "same_day", "votes": "every_turn", "vote_start_turn": 1}
    game_id = (await api.new_game(ann, **options)).id
    for account in (ann, bob, cy):
        await api.join(game_id, account)
    await api.call("POST", f"/v1/games/{game_id}/admins", ann, {"player": "p2"})
    await api.call("DELETE", f"/v1/games/{game_id}/admins/{bob.account_id}", ann)
    await api.call("PATCH", f"/v1/games/{game_id}/settings", ann, {"resolution_hour": 5})
    await api.call("POST", f"/v1/games/{game_id}/resign", cy)
    await api.admin(game_id, ann, "ban", player="p2")
    # Banned in the join phase, Bob left the game: he is unbanned by his account.
    await api.admin(game_id, ann, "unban", player=bob.account_id)
    for account in (bob, cy, di):
        await api.join(game_id, account)
    await api.start(game_id, ann)
    vote = (await api.game(game_id)).vote
    assert vote is not None
    await api.call("POST", f"/v1/games/{game_id}/votes", di, {"effect": vote.candidates[0]})
    await api.call("POST", f"/v1/games/{game_id}/resign", bob)
    for who in (di, OPERATOR_TOKEN, None):
        await api.events(game_id, who)
    # A killed game's feed is gone (410): its last event is seen live only.
    async with Live.open(server.base, game_id) as watching:
        await watching.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        await api.admin(game_id, ann, "kill")
        killed = await watching.wait_for(
            lambda ms: any(m.get("event", {}).get("type") == "game_killed.v1" for m in ms)
        )
    await api.call("GET", f"/v1/games/{game_id}", expect=410)
    return killed


async def _sandbox_and_commands(server: Server) -> str:
    """A sandbox, whose admin plays every seat, driven partly by text commands."""
    api = server.api
    zed = await api.account("Zed")
    sandbox: str = (await api.new_game(zed, sandbox=True)).id
    for name in ("Red", "Blue", "Green"):
        await api.call("POST", f"/v1/games/{sandbox}/commands", zed, {"text": f"/join {name}"})
    await api.call("POST", f"/v1/games/{sandbox}/commands", zed, {"text": "/start"})
    await api.call("POST", f"/v1/games/{sandbox}/commands", zed, {"text": "/status"})
    await api.call("POST", "/v1/commands", zed, {"text": "/help"})
    await api.call("POST", "/v1/commands", zed, {"text": "/setup Commanded"})
    await api.orders(sandbox, zed, "XX H", player="p2")
    await api.call("POST", f"/v1/games/{sandbox}/commands", zed, {"text": "/submit YY H"})
    await api.admin(sandbox, zed, "resolve")
    server.clock.advance(120)
    return sandbox


async def _forks(game: ScriptedGame) -> list[str]:
    """A sandbox fork; a real fork, whose invitations are claimed and declined, started by
    its admin; and a real fork of that one, waiting for its players' claims."""
    api, admin = game.api, game.admin
    path = f"/v1/games/{game.game_id}/fork"
    sandbox = await api.call("POST", path, admin, {"turn": 2}, expect=201)
    real = await api.call("POST", path, admin, {"turn": 2, "sandbox": False}, expect=201)
    for name in ("Ann", "Bob"):
        await api.call("POST", f"/v1/games/{real['id']}/claim", game.player(name))
    await api.call("POST", f"/v1/games/{real['id']}/decline", game.player("Cy"))
    await api.call("GET", "/v1/me", game.player("Di"))
    await api.call("POST", f"/v1/games/{real['id']}/start", admin)
    path = f"/v1/games/{real['id']}/fork"
    again = await api.call("POST", path, admin, {"turn": 2, "sandbox": False}, expect=201)
    return [sandbox["id"], real["id"], again["id"]]


async def _everything_else(api: Api, games: list[str], readers: list[Account]) -> None:
    """The reads and stateless calls, as every kind of reader."""
    for game_id in games:
        for who in (*readers, OPERATOR_TOKEN, None):
            await api.events(game_id, who)
    await api.call("GET", "/v1/me", readers[0])
    await api.call("POST", "/v1/me/tokens", readers[0], {"name": "phone"}, expect=201)
    await api.call("GET", "/v1/me/tokens", readers[0])
    await api.call("GET", "/v1/games")
    await api.call("GET", "/v1/games?phase=finished")
    await api.call("GET", "/v1/maps")
    await api.call("GET", "/v1/maps/rulebook")
    await api.call("POST", "/v1/maps/generate", body={"players": 3, "seed": 5})
    await api.call("GET", "/v1/effects")
    await api.call("GET", "/v1/health")
    turn = {"map": "rulebook", "players": {"red": {}}, "orders": {"red": ["SI H"]}}
    await api.call("POST", "/v1/adjudicate", body={**turn, "armies": {"SI": "red"}})
    war = {"ruleset": "art-of-war", "map": "aow-mini", "players": {"red": {}, "blue": {}}}
    positions = {"owners": {"CO": "red", "BR": "blue"}, "units": {"CO": 5, "BR": 1}}
    body = {**war, **positions, "orders": {"red": ["CO 5 to BR"]}, "seed": "6f264513fb5abc65"}
    await api.call("POST", "/v1/adjudicate", body=body)
    sides = {"red": {"culture": "feudal", "side": 2}, "blue": {"culture": "alien", "side": 5}}
    setup = {"players": ["red", "blue"], "choices": sides}
    skor = await api.call(
        "POST", "/v1/adjudicate", body={"ruleset": "skor", "setup": setup, "seed": "5e"}
    )
    end = {"player": skor["state"]["turn"]["player"], "action": "end"}
    turn = {"ruleset": "skor", "state": skor["state"], "seed": "5e", "action": end}
    assert (await api.call("POST", "/v1/adjudicate", body=turn))["results"][0]["result"] == "ok"
    await api.call("POST", "/v1/games", readers[0], {"name": "x", "vp_target": 51}, expect=422)


@contextlib.asynccontextmanager
async def _sockets(server: Server, game: ScriptedGame) -> AsyncIterator[list[Live]]:
    """A spectator, a player by `?token=` and the admin by an awaited first message (so that
    the published query's `auth` is used), from the start."""
    base, game_id = server.base, game.game_id
    async with (
        Live.open(base, game_id) as spectator,
        Live.open(base, game_id, token=game.player("Bob").token) as bob,
        Live.open(base, game_id, auth="message", first_message=game.admin.token) as ann,
    ):
        yield [spectator, bob, ann]


@pytest.mark.timeout(120)
async def test_every_answer_event_and_message_of_real_games_fits_the_published_contracts(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pings within the test, and a snapshot for a socket that starts a dozen events back.
    monkeypatch.setattr(live_route, "PING_SECONDS", 0.3)
    monkeypatch.setattr(live_route, "SNAPSHOT_BEYOND", 12)
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    rest, live = await _documents(api)
    game = ScriptedGame(server)
    await game.create()
    async with _sockets(server, game) as sockets:
        await _scripted_game(game)
        last = (await game.state()).position
        for socket in sockets:
            await socket.wait_for(
                lambda ms: any(m["position"] >= last for m in ms) and ms[-1]["type"] == "ping"
            )
    async with Live.open(server.base, game.game_id) as late:
        await late.wait_for(lambda ms: [m["type"] for m in ms[:2]] == ["snapshot", "standings"])
    async with Live.open(server.base, "no-such-game") as lost:
        await lost.wait_closed()
    async with Live.open(server.base, game.game_id, after="soon") as confused:  # type: ignore[arg-type]
        assert await confused.wait_closed() == 4422
    killed = await _admins_game(server)
    sandbox = await _sandbox_and_commands(server)
    forks = await _forks(game)
    games = [game.game_id, sandbox, *forks]
    await _everything_else(api, games, [game.admin, game.player("Bob")])

    answers = [e for e in recorder.exchanges if e.path.startswith("/v1/")]
    errors = [error for exchange in answers for error in answer_errors(rest, exchange)]
    messages = [m for s in [*sockets, late, lost, confused] for m in s.messages] + killed
    errors += message_errors(live, messages)
    errors += live.errors({"token": game.admin.token}, "components", "messages", "token", "payload")
    assert not errors, "\n".join(errors[:30])

    # Every kind of message, and every event type, was among them.
    assert {m["type"] for m in messages} == MESSAGE_TYPES
    read = [
        event
        for exchange in answers
        if exchange.path.endswith("/events") and isinstance(exchange.body, dict)
        for event in exchange.body["events"]
    ]
    sent = [m["event"] for m in messages if m["type"] == "event"]
    # But a moderator's read, which only older servers recorded (rules.md, "Decisions added
    # after the second release"): no game played now holds one; and the events of games run by
    # their definition (docs/games.md), which tests/games plays and checks.
    assert {e["type"] for e in [*read, *sent]} == game_codec.types - {
        "private_events_read.v1",
        *PLAYED_BY_DEFINITIONS,
    }


async def test_every_event_type_is_in_both_documents(server: Server) -> None:
    rest, live = await _documents(server.api)
    feed = rest.document["components"]["schemas"]["EventPage"]["properties"]["events"]["items"]
    assert feed["discriminator"]["propertyName"] == "type"
    assert set(feed["discriminator"]["mapping"]) == game_codec.types
    for contract, union in (
        (rest, feed),
        (live, live.document["components"]["schemas"]["EventMessage"]["properties"]["event"]),
    ):
        schemas = contract.document["components"]["schemas"]
        tags = set()
        for variant in union["oneOf"]:
            shape = schemas[variant["$ref"].rsplit("/", 1)[1]]
            (tag,) = shape["properties"]["type"]["enum"]
            # The event's own schema, whose `type` is the same tag.
            data = schemas[shape["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
            assert data["properties"]["type"]["enum"] == [tag]
            tags.add(tag)
        assert tags == game_codec.types


async def test_the_bounds_of_a_body_are_in_its_schema(server: Server) -> None:
    rest, _ = await _documents(server.api)
    schemas = rest.document["components"]["schemas"]
    game = schemas["NewGame"]["properties"]
    assert (game["vp_target"]["minimum"], game["vp_target"]["maximum"]) == (1, 50)
    assert (game["resolution_hour"]["minimum"], game["resolution_hour"]["maximum"]) == (0, 23)
    assert (game["seed"]["anyOf"][0]["minimum"], game["seed"]["anyOf"][0]["maximum"]) == (
        0,
        2**63 - 1,
    )
    assert game["name"]["maxLength"] == 32
    look = schemas["PlayerPatch"]["properties"]
    assert look["color"]["anyOf"][0]["maximum"] == 20
    assert look["pattern"]["anyOf"][0]["maximum"] == 16
    rewind = rest.document["paths"]["/v1/games/{game}/admin/rewind"]["post"]["requestBody"]
    assert rewind["required"] is False
    ban = rest.document["paths"]["/v1/games/{game}/admin/ban"]["post"]["requestBody"]
    assert ban["required"] is True
    assert schemas["BanBody"]["required"] == ["player"]
