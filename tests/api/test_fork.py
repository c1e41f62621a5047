"""Forks over HTTP: a fork of a running or finished game begins where `/turns/n` says the
source's turn n began, and who may fork, which turns, and how each kind of fork is played."""

from typing import Any

import msgspec

from projections.loading import stream_of
from tests.api.game import ORDERS, ScriptedGame
from tests.api.support import Account, Json, Server


async def _fork(server: Server, game: str, who: Account, expect: int = 201, **body: Any) -> Json:
    path = f"/v1/games/{game}/fork"
    answer: Json = await server.api.call("POST", path, who, body, expect=expect)
    return answer


async def _played(server: Server, turns: int) -> ScriptedGame:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    for turn in range(1, turns + 1):
        await game.submit(turn)
        if turn == 3:
            await game.vote_all()
        await game.resolve()
    return game


async def _assert_begins_at(server: Server, source: ScriptedGame, fork: Json, turn: int) -> None:
    api = server.api
    began: Json = await api.call("GET", f"/v1/games/{source.game_id}/turns/{turn}")
    assert fork["turn"] == turn
    assert fork["phase"] == "running"
    assert fork["board"] == began["start_board"]
    assert fork["effect"] == began["effect"]
    origin = fork["forked_from"]
    assert (origin["game"], origin["turn"]) == (source.game_id, turn)
    # The source's event at `position` is the last one the fork's state folds in (the start,
    # or the resolution before turn n), and its hash is the one recorded.
    store = server.app.state.services.store
    events = await store.read_stream(stream_of(source.game_id))
    (last,) = [e for e in events if e.position == origin["position"]]
    assert origin["chain_hash"] == last.hash.hex()
    assert last.type == ("game_started.v1" if turn == 1 else "turn_resolved.v1")
    settings = msgspec.to_builtins((await source.state()).settings)
    del settings["name"], settings["sandbox"]
    assert {k: v for k, v in fork["settings"].items() if k in settings} == settings
    vp = {p["id"]: 0 for p in fork["players"]}
    if turn > 1:
        before: Json = await api.call("GET", f"/v1/games/{source.game_id}/turns/{turn - 1}")
        vp = before["resolution"]["vp"]
    assert {p["id"]: p["vp"] for p in fork["players"]} == vp


async def test_a_running_game_forks_at_each_turn_it_has_reached(server: Server) -> None:
    source = await _played(server, 3)
    for turn in (1, 2, 3, 4):
        fork = await _fork(server, source.game_id, source.admin, turn=turn)
        await _assert_begins_at(server, source, fork, turn)
        assert fork["settings"]["sandbox"] is True
        assert fork["name"] == f"Test game (fork, turn {turn})"
    # The source goes on, untouched.
    assert (await source.state()).turn == 4


async def test_a_finished_game_forks_up_to_its_last_turn_a_sandbox_for_anyone(
    server: Server,
) -> None:
    source = await _played(server, 4)
    assert (await source.state()).phase == "finished"
    stranger = await server.api.account("Eve")
    fork = await _fork(server, source.game_id, stranger, turn=4, name="Again")
    await _assert_begins_at(server, source, fork, 4)
    assert fork["name"] == "Again"
    assert fork["admins"] == [stranger.account_id]
    # A real fork seats the source's players: theirs (their admin's) to ask for.
    error = await _fork(server, source.game_id, stranger, 403, turn=4, sandbox=False)
    assert error["error"]["code"] == "admin_only"
    real = await _fork(server, source.game_id, source.admin, turn=4, sandbox=False)
    await _assert_begins_at(server, source, real, 4)
    error = await _fork(server, source.game_id, stranger, 404, turn=5)
    assert error["error"]["code"] == "turn_not_found"


async def test_only_an_admin_forks_a_game_being_played_and_only_turns_it_reached(
    server: Server,
) -> None:
    source = await _played(server, 1)
    error = await _fork(server, source.game_id, source.player("Bob"), 403, turn=1)
    assert error["error"]["code"] == "admin_only"
    for turn in (0, 3, -1):
        error = await _fork(server, source.game_id, source.admin, 404, turn=turn)
        assert error["error"]["code"] == "turn_not_found"
    error = await _fork(server, "nosuchgame", source.admin, 404, turn=1)
    assert error["error"]["code"] == "game_not_found"


async def test_a_sandbox_fork_is_played_by_its_admin_alone(server: Server) -> None:
    source = await _played(server, 1)
    bob = source.player("Bob")
    fork = await _fork(server, source.game_id, source.admin, turn=2)
    api = server.api.as_(source.admin)
    for player, text in ((f"p{i + 1}", t) for i, t in ORDERS[2].items()):
        await api.submit_orders(fork["id"], text, player=player)
    error = await server.api.call(
        "PUT", f"/v1/games/{fork['id']}/orders", bob, {"orders": "EA H"}, expect=403
    )
    assert error["error"]["code"] == "not_a_player"
    server.clock.advance(60)
    await server.api.as_(source.admin).resolve(fork["id"])
    assert (await server.api.game(fork["id"])).turn == 3


async def test_a_real_fork_is_played_by_the_sources_players_in_their_seats(
    server: Server,
) -> None:
    source = await _played(server, 1)
    fork = await _fork(server, source.game_id, source.admin, turn=2, sandbox=False)
    assert fork["settings"]["sandbox"] is False
    for index, text in ORDERS[2].items():
        accepted = await server.api.orders(fork["id"], source.accounts[index], text, turn=2)
        assert all(order.valid for order in accepted.orders)
    stranger = await server.api.account("Eve")
    error = await server.api.call(
        "PUT", f"/v1/games/{fork['id']}/orders", stranger, {"orders": "EA H"}, expect=403
    )
    assert error["error"]["code"] == "not_a_player"
    server.clock.advance(60)
    await server.api.as_(source.admin).resolve(fork["id"])
    resolved: Json = await server.api.call("GET", f"/v1/games/{fork['id']}/turns/2")
    assert resolved["resolution"]["turn"] == 2
