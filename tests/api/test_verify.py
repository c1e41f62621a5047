"""`GET /v1/games/{game}/verify` over HTTP: anyone may verify a game, and a row changed in
PostgreSQL shows in the answer."""

from client import SkirmishClient
from eventstore import chain
from projections.loading import stream_of
from schema.verification import Anchor
from tests.api.game import ScriptedGame
from tests.api.support import Json, Server, collecting, until


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


async def test_a_tail_cut_passes_plain_verify_but_not_one_anchored_on_a_head_seen(
    server: Server,
) -> None:
    game = await _played(server)
    path = f"/v1/games/{game.game_id}/verify"
    stream_id = stream_of(game.game_id)
    # A client that read the feed keeps the last hash it saw (of the last public event: a
    # spectator does not see the players' notifications that end the stream).
    client = server.api.anyone.using(None)
    events = [event async for event in client.all_events(game.game_id)]
    stream = await server.app.state.services.store.read_stream(stream_id)
    assert [event.hash for event in events] == [
        stream[event.version - 1].hash.hex() for event in events
    ]
    head = events[-1].hash
    assert head is not None
    assert client.last_head(game.game_id) == head
    seen = await client.verify(game.game_id)
    assert seen.ok
    assert seen.anchor == Anchor(hash=head, found="live", version=events[-1].version, reason=None)
    # Verified, the stream's own head is the client's anchor from now on.
    assert client.last_head(game.game_id) == seen.head == stream[-1].hash.hex()
    head = stream[-1].hash.hex()

    # Cut the tail: the last turn's resolution and what followed it, the head rewritten to
    # match, so that the chain that remains is whole.
    cut_to = max(e.version for e in stream if e.type == "turn_resolved.v1") - 1
    async with server.app.state.services.pool.acquire() as connection, connection.transaction():
        await connection.execute(
            "DELETE FROM events WHERE stream_id = $1 AND version > $2", stream_id, cut_to
        )
        await connection.execute(
            "UPDATE streams SET version = $2, position = (SELECT position FROM events "
            "WHERE stream_id = $1 AND version = $2) WHERE stream_id = $1",
            stream_id,
            cut_to,
        )

    plain: Json = await server.api.call("GET", path)
    anchored: Json = await server.api.call("GET", f"{path}?expected_head={head}")
    by_the_client = await client.verify(game.game_id)
    fresh = await SkirmishClient(server.base, http=server.api.client).verify(game.game_id)

    assert (plain["ok"], plain["events"], plain["chain_break"]) == (True, cut_to, None)
    assert anchored["ok"] is False
    assert anchored["anchor"]["found"] is None
    assert "removed or rewritten" in anchored["anchor"]["reason"]
    assert by_the_client.ok is False
    assert by_the_client.anchor == Anchor(
        hash=head, found=None, version=None, reason=anchored["anchor"]["reason"]
    )
    # A failed verification does not move the anchor; a client that saw nothing has none.
    assert client.last_head(game.game_id) == head
    assert (fresh.ok, fresh.anchor) == (True, None)
    malformed: Json = await server.api.call("GET", f"{path}?expected_head=abc", expect=422)
    assert malformed["error"]["code"] == "invalid_request"


async def test_a_client_following_a_game_live_anchors_its_verification_on_what_it_saw(
    server: Server,
) -> None:
    game = await _played(server)
    feed = await server.api.events(game.game_id)
    client = SkirmishClient(server.base, http=server.api.client)
    async with collecting(client.live(game.game_id)) as received:
        await until(
            lambda: any(m.position >= feed[-1].position for m in received), what="the catch-up"
        )
    seen = feed[-1].hash
    assert seen is not None
    assert client.last_head(game.game_id) == seen

    verified = await client.verify(game.game_id)

    assert verified.ok
    assert verified.anchor == Anchor(hash=seen, found="live", version=feed[-1].version, reason=None)
