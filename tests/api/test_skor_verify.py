"""`GET /v1/games/{game}/verify` of a Skor game played through the real server: every die
is checked against the secret the game revealed when it ended (docs/skor.md, "Playing Skor
on the server"). A die's value changed in PostgreSQL is found at its step, whether the hash
chain is left broken or rewritten over the change."""

from typing import Any

import msgspec

from eventstore import chain
from eventstore.records import RecordedEvent
from projections.loading import stream_of
from projections.playing import step_values
from schema.game_events import PlayRecorded, game_codec
from tests.api.support import Account, Api, Server, make_move, public_game

Json = dict[str, Any]


async def _ended_with_dice(api: Api) -> tuple[str, Account]:
    """A Skor game whose first player is a Dictatorship (every `end` of theirs rolls a d2),
    played a few turns, then resigned: its secret is revealed. The game, and its first player."""
    one, two = await api.account("one"), await api.account("two")
    body = {"name": "Skor", "game": "skor", "options": {}}
    game_id = (await api.call("POST", "/v1/games", one, body, expect=201))["id"]
    for who in (one, two):
        await api.join(game_id, who)
    await api.start(game_id, one)
    first_seat, _ = (await public_game(api, game_id))["play"]["setup"]["players"]
    first, second = (one, two) if first_seat == "p1" else (two, one)
    await make_move(api, game_id, first, {"culture": "dictatorship", "side": 1})
    await make_move(api, game_id, second, {"culture": "feudal", "side": 4})
    for _ in range(2):
        await make_move(api, game_id, first, "end")
        game = (await public_game(api, game_id))["play"]["game"]
        if game["turn"].get("phase") == "purge":  # the d2 said 1: a piece goes first
            piece = next(p for p in game["pieces"] if p["player"] == first_seat)
            await make_move(api, game_id, first, {"action": "remove", "at": piece["at"]})
        await make_move(api, game_id, second, "end")
    await api.call("POST", f"/v1/games/{game_id}/resign", second)
    view = await public_game(api, game_id)
    assert (view["phase"], view["secret"] is not None) == ("finished", True)
    return game_id, first


def _with_a_die_changed(stream: list[RecordedEvent]) -> tuple[RecordedEvent, int, Json]:
    """The stream's first step that rolled a die, with that die's value changed to another
    face of it; the step's turn, and the die as rolled."""
    for recorded in stream:
        if recorded.type != "play_recorded.v1":
            continue
        step = game_codec.decode_recorded(recorded)
        assert isinstance(step, PlayRecorded)
        values = step_values(step)
        for index, event in enumerate(values):
            if event.get("dice"):
                rolled = event["dice"][0]
                other = rolled["value"] % rolled["sides"] + 1
                dice = [{**rolled, "value": other}, *event["dice"][1:]]
                events = [*values[:index], {**event, "dice": dice}, *values[index + 1 :]]
                changed = msgspec.structs.replace(
                    step, events=msgspec.Raw(msgspec.json.encode(events))
                )
                data = game_codec.encode(changed)
                return msgspec.structs.replace(recorded, data=data), step.turn, rolled
    raise AssertionError("no step of the game rolled a die")


async def test_a_skor_die_changed_in_the_database_is_found_at_its_step(server: Server) -> None:
    api = server.api
    game_id, _ = await _ended_with_dice(api)
    path = f"/v1/games/{game_id}/verify"
    clean: Json = await api.call("GET", path)
    assert (clean["ok"], clean["chain_break"], clean["differences"]) == (True, None, [])

    stream_id = stream_of(game_id)
    stream = await server.app.state.services.store.read_stream(stream_id)
    tampered, turn, rolled = _with_a_die_changed(stream)
    pool = server.app.state.services.pool
    await pool.execute(
        "UPDATE events SET data = $3 WHERE stream_id = $1 AND version = $2",
        *(stream_id, tampered.version, tampered.data),
    )

    broken: Json = await api.call("GET", path)
    assert broken["ok"] is False
    assert broken["chain_break"]["version"] == tampered.version
    _assert_found_at(broken, turn, rolled)

    # Whoever rewrites the chain over the change too: the hashes hold, the dice do not.
    stream[tampered.version - 1] = tampered
    previous = stream[tampered.version - 2].hash
    async with pool.acquire() as connection, connection.transaction():
        for event in stream[tampered.version - 1 :]:
            previous = chain.link(previous, stream_id, event.version, event)
            await connection.execute(
                "UPDATE events SET hash = $3 WHERE stream_id = $1 AND version = $2",
                *(stream_id, event.version, previous),
            )
    rechained: Json = await api.call("GET", path)
    assert (rechained["ok"], rechained["chain_break"]) == (False, None)
    _assert_found_at(rechained, turn, rolled)
    # The purge's d2 changed, the steps after it were played from a state that never was:
    # the replay stops where they no longer fold.
    assert "cannot be replayed" in rechained["differences"][-1]["error"]


def _assert_found_at(verification: Json, turn: int, rolled: Json) -> None:
    """The first difference is the step's turn: its events as recorded hold the die changed,
    as replayed now from the secret the die as rolled."""
    difference = verification["differences"][0]
    assert difference["turn"] == turn, difference
    (change,) = difference["changes"]
    assert change["field"] == "events"
    dice_now = [die for event in change["now"] for die in event.get("dice", [])]
    dice_recorded = [die for event in change["recorded"] for die in event.get("dice", [])]
    assert dice_now[0] == rolled
    assert dice_recorded[0] == {**rolled, "value": rolled["value"] % rolled["sides"] + 1}
