"""The live feed frames each message once for everyone who sees the game alike and writes
those bytes to each of their sockets (server/live/frames.py); a player's own frames go to that
player's sockets and nobody else's."""

from tests.api.game import ScriptedGame
from tests.api.raw_sockets import RawSocket, open_raw
from tests.api.support import Server, until


def _frames(socket: RawSocket) -> bytes:
    """Everything the socket received after the handshake's answer, byte for byte."""
    return bytes(socket.received.partition(b"\r\n\r\n")[2])


async def test_spectators_receive_the_same_bytes_and_a_players_own_frames_go_to_them_alone(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    ann, bob, cy, di = game.accounts
    game_id = game.game_id
    start = (await game.state()).position
    spectators = await open_raw(server.base, game_id, 2, after=start)
    [bobs] = await open_raw(server.base, game_id, 1, after=start, token=bob.token)
    try:
        for who, text in ((ann, "EA B"), (bob, "BE H"), (cy, "BA H"), (di, "GI to PR")):
            await game.api.orders(game_id, who, text)
        said = await game.api.call(
            "POST", f"/v1/games/{game_id}/broadcast", ann, {"message": "hello"}
        )
        done = await game.resolve()
        sockets = [*spectators, bobs]
        await until(
            lambda: all(s.reached(done.position) for s in sockets),
            what="every socket to receive the resolution",
        )
    finally:
        for raw in [*spectators, bobs]:
            raw.close()

    first, second = (_frames(s) for s in spectators)
    assert first == second
    kinds = [m["type"] for m in spectators[0].messages]
    assert kinds[0] == "standings"
    assert {"event", "resolved"} <= set(kinds)
    assert any(m["position"] == said["position"] for m in spectators[0].messages)
    # Bob's socket carries his own orders as they were submitted; no spectator's does.
    assert b"orders_submitted" in _frames(bobs)
    assert b"orders_submitted" not in first
    submitted = [
        m["event"]["data"]
        for m in bobs.messages
        if m["type"] == "event" and m["event"]["type"] == "orders_submitted.v1"
    ]
    assert [(d["player_id"], d["text"]) for d in submitted] == [("p2", "BE H")]
