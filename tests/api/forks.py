"""Helpers for the fork tests: a fork by the route or by `/fork n`, a scripted source played
some turns, a fork's turn played, and where a fork begins checked against the source's
`/turns/n`."""

from typing import Any

import msgspec

from projections.loading import stream_of
from schema.api import ForkBody
from tests.api.game import ORDERS, ScriptedGame
from tests.api.support import PAST_THE_LOCK, Account, Json, Server

# The events that begin a game's first turn: its start, a fork's, or a real fork's start
# after its invitations.
FIRST_TURN_EVENTS = {"game_started.v1", "game_forked.v1", "fork_started.v1"}


async def fork_of(server: Server, game: str, who: Account, expect: int = 201, **body: Any) -> Json:
    path = f"/v1/games/{game}/fork"
    answer: Json = await server.api.call("POST", path, who, body, expect=expect)
    return answer


async def fork_by_command(server: Server, game: str, who: Account, turn: int) -> Json:
    """`/fork n`, as a chat user sends it; the fork's public view."""
    path = f"/v1/games/{game}/commands"
    reply: Json = await server.api.call("POST", path, who, {"text": f"/fork {turn}"})
    assert reply["ok"], reply["reply"]
    made: Json | None = reply["result"]
    assert made is not None
    return made


async def real_fork(server: Server, source: ScriptedGame, turn: int, of: str = "") -> str:
    """A real fork at `turn` of the scripted game (or of `of`, a real fork of it), every
    player's seat claimed, started by its admin; its id."""
    body = ForkBody(turn=turn, sandbox=False)
    game = (await server.api.as_(source.admin).fork(of or source.game_id, body)).id
    for account in source.accounts:
        await server.api.as_(account).claim_seat(game)
    await server.api.start(game, source.admin)
    return game


async def played(server: Server, turns: int, **options: Any) -> ScriptedGame:
    """tests/api/game.py's game, played `turns` turns; `options` of its setup."""
    game = ScriptedGame(server)
    await game.create(**options)
    await game.join_and_start()
    for turn in range(1, turns + 1):
        await game.submit(turn)
        if turn == 3:
            await game.vote_all()
        await game.resolve()
    return game


async def play_sandbox_turn(server: Server, game: str, admin: Account, turn: int) -> None:
    """The scripted game's orders of `turn`, sent by the sandbox's admin for every seat;
    then the turn resolved."""
    api = server.api.as_(admin)
    for index, text in ORDERS[turn].items():
        await api.submit_orders(game, text, player=f"p{index + 1}")
    server.clock.advance(60)
    await api.resolve(game)
    server.clock.advance(PAST_THE_LOCK)


async def first_turn(server: Server, game: str) -> int:
    found: Json = await server.api.call("GET", f"/v1/games/{game}")
    origin = found["forked_from"]
    return 1 if origin is None else int(origin["turn"])


async def assert_begins_at(server: Server, source: str, fork: Json, turn: int) -> None:
    """`fork` begins as turn `turn` of `source` began, as `/turns/n` of the source says; its
    origin names the source's event it was folded up to, with that event's hash."""
    api = server.api
    began: Json = await api.call("GET", f"/v1/games/{source}/turns/{turn}")
    assert fork["turn"] == turn
    assert fork["board"] == began["start_board"]
    assert fork["effect"] == began["effect"]
    origin = fork["forked_from"]
    assert (origin["game"], origin["turn"]) == (source, turn)
    # The source's event at `position` is the last one the fork's state folds in (the start
    # of the source's first turn, or the resolution before turn n), and its hash is the one
    # recorded.
    store = server.app.state.services.store
    events = await store.read_stream(stream_of(source))
    (last,) = [e for e in events if e.position == origin["position"]]
    assert origin["chain_hash"] == last.hash.hex()
    first = await first_turn(server, source)
    if turn == first:
        assert last.type in FIRST_TURN_EVENTS
    else:
        assert last.type == "turn_resolved.v1"
    source_state: Json = await api.call("GET", f"/v1/games/{source}")
    settings = dict(source_state["settings"])
    del settings["name"], settings["sandbox"]
    assert {k: v for k, v in fork["settings"].items() if k in settings} == settings
    if turn > first:
        before: Json = await api.call("GET", f"/v1/games/{source}/turns/{turn - 1}")
        vp = before["resolution"]["vp"]
    else:
        # A game starts at 0 VP; a fork with the VP of its game_forked, its first event.
        vp = {p["id"]: 0 for p in fork["players"]}
        if events[0].type == "game_forked.v1":
            vp = {p["id"]: p["vp"] for p in msgspec.json.decode(events[0].data)["players"]}
    assert {p["id"]: p["vp"] for p in fork["players"]} == vp
