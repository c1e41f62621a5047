"""`GET /v1/games/{game}/verify` over HTTP: anyone may verify a game, and a row changed in
PostgreSQL shows in the answer."""

from eventstore import chain
from projections.loading import stream_of
from tests.api.game import ScriptedGame
from tests.api.support import Json, Server


async def _played(server: Server) -> ScriptedGame:
    """A game with two turns resolved."""
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    for turn in (1, 2):
        await game.submit(turn)
        await game.resolve()
    return game


async def test_anyone_verifies_a_played_game_and_sees_a_row_changed_by_hand(
    server: Server,
) -> None:
    game = await _played(server)
    path = f"/v1/games/{game.game_id}/verify"
    store = server.app.state.services.store
    stream = await store.read_stream(stream_of(game.game_id))

    found: Json = await server.api.call("GET", path)

    assert found["ok"] is True
    assert (found["events"], found["head"]) == (len(stream), stream[-1].hash.hex())
    assert (found["turns_replayed"], found["chain_break"], found["differences"]) == (2, None, [])

    await server.app.state.services.pool.execute(
        "UPDATE events SET actor = 'nobody' WHERE stream_id = $1 AND version = 3",
        stream_of(game.game_id),
    )
    found = await server.api.call("GET", path)

    assert found["ok"] is False
    assert found["chain_break"]["version"] == 3
    assert found["chain_break"]["type"] == stream[2].type


async def test_verifying_a_game_that_does_not_exist_is_a_404(server: Server) -> None:
    await server.api.call("GET", "/v1/games/nosuchgame/verify", expect=404)


async def test_a_fork_and_its_source_both_verify(server: Server) -> None:
    game = await _played(server)
    fork: Json = await server.api.call(
        "POST", f"/v1/games/{game.game_id}/fork", game.admin, {"turn": 2}, expect=201
    )

    source: Json = await server.api.call("GET", f"/v1/games/{game.game_id}/verify")
    forked: Json = await server.api.call("GET", f"/v1/games/{fork['id']}/verify")

    assert (source["ok"], forked["ok"]) == (True, True)
    assert (forked["events"], forked["turns_replayed"]) == (1, 0)
    store = server.app.state.services.store
    (origin,) = await store.read_stream(stream_of(fork["id"]))
    assert origin.hash == chain.link(chain.GENESIS, stream_of(fork["id"]), 1, origin)
