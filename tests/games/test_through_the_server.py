"""What is each game's own, through the real server: rock-paper-scissors' secret throws,
tic-tac-toe's turns and refusals, a resignation, a changed move that replay finds, and every
answer and message fitting the published contracts. The steps every game goes through, both
go through in test_every_step.py."""

from typing import Any

import msgspec
from msgspec.structs import replace

from projections.loading import stream_of
from projections.playing import step_values
from schema.game_events import PlayRecorded, game_codec
from server.ops.replay import replay_game
from tests.api.contracts import Recorder, answer_errors, asyncapi, message_errors, openapi
from tests.api.support import Account, Api, Live, Server, feed_of, make_move, public_game

Json = dict[str, Any]


async def _game(api: Api, game: str, **options: Any) -> tuple[str, Account, Account]:
    """A started game of two: the admin (p1) and another (p2)."""
    one, two = await api.account("one"), await api.account("two")
    body = {"name": f"A game of {game}", "game": game, "options": options}
    created = await api.call("POST", "/v1/games", one, body, expect=201)
    game_id = created["id"]
    for who in (one, two):
        await api.join(game_id, who)
    await api.start(game_id, one)
    return game_id, one, two


async def _turns_told(api: Api, game_id: str, who: Account) -> list[int]:
    """The turns of the `your_turn` notices `who` got, in order."""
    feed = await feed_of(api, game_id, who)
    return [e["turn"] for e in feed if e["type"] == "player_notified.v1"]


async def test_rock_paper_scissors_keeps_throws_secret_until_both_are_in(server: Server) -> None:
    api = server.api
    game_id, one, two = await _game(api, "rock-paper-scissors", rounds=2)
    view = await public_game(api, game_id)
    assert (view["game"], view["phase"], view["turn"]) == ("rock-paper-scissors", "running", 1)
    assert view["options"] == {"rounds": 2, "seconds": None}
    assert view["to_move"] == ["p1", "p2"]

    async with Live.open(server.base, game_id) as spectator:
        assert (await make_move(api, game_id, one, "rock"))["events"] == ["move_sealed.v1"]
        # A second throw replaces the first, still secret; words are said in public at once,
        # and the round goes on.
        await make_move(api, game_id, one, "paper")
        said = await make_move(api, game_id, two, {"say": "rock, surely"})
        assert said["events"] == ["play_recorded.v1"]
        assert (await public_game(api, game_id))["play"]["said"] == ["rock, surely"]
        hidden = [e for e in await feed_of(api, game_id, two) if e["type"] == "move_sealed.v1"]
        assert hidden == []
        # Nor who has thrown: this game does not announce it, in the standings neither.
        thrown = await public_game(api, game_id)
        assert thrown["moved"] is None
        assert [(p["to_move"], p.get("moved")) for p in thrown["players"]] == [(True, None)] * 2
        mine = [
            e["move"] for e in await feed_of(api, game_id, one) if e["type"] == "move_sealed.v1"
        ]
        assert mine == ["rock", "paper"]
        answer = await make_move(api, game_id, two, "rock")
        # The round's resolution tells both seats the next round waits for them, each in a
        # notice of its own that is not in the mover's answer.
        assert answer["events"] == ["move_sealed.v1", "play_recorded.v1"]
        for who in (one, two):
            assert await _turns_told(api, game_id, who) == [1, 2]
        await spectator.wait_for(
            lambda ms: any(m.get("event", {}).get("type") == "play_recorded.v1" for m in ms)
        )
        sealed = [e for e in spectator.events if e["type"] == "move_sealed.v1"]
        # The socket shows each event as it was when it happened: nobody's throw.
        assert sealed == []

    shown = [e["move"] for e in await feed_of(api, game_id) if e["type"] == "move_sealed.v1"]
    assert shown == ["rock", "paper", "rock"]
    view = await public_game(api, game_id)
    assert (view["turn"], view["play"]["points"]) == (2, {"p1": 1, "p2": 0})

    await make_move(api, game_id, one, "lizard", expect=422)
    await make_move(api, game_id, one, "scissors")
    await make_move(api, game_id, two, "paper")
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"] == {"by": "points", "results": {"p1": "won", "p2": "lost"}}
    assert view["to_move"] == []
    assert view["secret"] is not None
    refused = await make_move(api, game_id, two, "rock", expect=409)
    assert refused["error"]["code"] == "wrong_phase"


async def test_tic_tac_toe_is_played_in_turns_drawn_from_the_secret(server: Server) -> None:
    api = server.api
    game_id, one, two = await _game(api, "tic-tac-toe")
    view = await public_game(api, game_id)
    x = view["play"]["x"]
    first, second = (one, two) if x == "p1" else (two, one)
    assert view["to_move"] == [x]
    # A game without standings of its own: its players as they joined, whose turn it is,
    # and none of Skirmish Society's numbers but its zeros (the field's old clients need).
    assert [(p["id"], p["to_move"], p.get("standing")) for p in view["players"]] == [
        ("p1", x == "p1", None),
        ("p2", x == "p2", None),
    ]
    assert {(p["vp"], p["territories"], p["armies"]) for p in view["players"]} == {(0, 0, 0)}
    assert all("moved" not in p for p in view["players"])
    refused = await make_move(api, game_id, second, 4, expect=409)
    assert refused["error"]["code"] == "not_your_move"
    assert (await make_move(api, game_id, first, 9, expect=422))["error"]["code"] == "move_refused"
    orders = await api.call(
        "PUT", f"/v1/games/{game_id}/orders", first, {"orders": "SI H"}, expect=409
    )
    assert orders["error"]["code"] == "wrong_kind_of_game"
    for who, cell in ((first, 0), (second, 3), (first, 1), (second, 4)):
        played = (await make_move(api, game_id, who, cell))["events"]
        assert played == ["play_recorded.v1"]
    # Each move passed the turn on with a notice to the other seat, theirs alone.
    assert await _turns_told(api, game_id, second) == [2, 4]
    await make_move(api, game_id, second, 5, expect=409)
    await make_move(api, game_id, first, 0, expect=422)  # taken
    await make_move(api, game_id, first, 2)
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"]["by"] == "line"
    assert view["play"]["cells"][:3] == [x, x, x]
    assert (view["turn"], view["to_move"]) == (6, [])


async def test_a_seat_that_resigns_loses_and_replay_finds_a_changed_move(server: Server) -> None:
    api = server.api
    game_id, one, two = await _game(api, "tic-tac-toe")
    x = (await public_game(api, game_id))["play"]["x"]
    first = one if x == "p1" else two
    await make_move(api, game_id, first, 4)
    await api.call("POST", f"/v1/games/{game_id}/resign", two)
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"] == {"by": "resignation", "results": {"p1": "won", "p2": "resigned"}}

    store = server.app.state.services.games.store
    events = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of(game_id))]
    assert replay_game(game_id, events) == (3, [])
    step = next(i for i, e in enumerate(events) if isinstance(e, PlayRecorded))
    recorded = events[step]
    assert isinstance(recorded, PlayRecorded)
    edited = [step_values(recorded)[0] | {"cell": 5}]
    changed = replace(recorded, events=msgspec.Raw(msgspec.json.encode(edited)))
    _, differences = replay_game(game_id, [*events[:step], changed, *events[step + 1 :]])
    assert [(d.turn, [c.field for c in d.changes]) for d in differences] == [(1, ["events"])]


async def test_every_answer_event_and_message_fits_the_published_contracts(
    server: Server,
) -> None:
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    rest = openapi(await api.call("GET", "/openapi.json"))
    live = asyncapi(await api.call("GET", "/asyncapi.json"))
    game_id, one, two = await _game(api, "rock-paper-scissors", rounds=1)
    async with (
        Live.open(server.base, game_id) as spectator,
        Live.open(server.base, game_id, token=one.token) as player,
    ):
        await make_move(api, game_id, one, "rock")
        await make_move(api, game_id, two, "paper")
        await api.call("POST", f"/v1/games/{game_id}/admin/rewind", one)
        await make_move(api, game_id, one, "lizard", expect=422)
        await api.call("POST", f"/v1/games/{game_id}/resign", two)
        last = (await public_game(api, game_id))["position"]
        for socket in (spectator, player):
            await socket.wait_for_position(last)
    for who in (None, one, two):
        await feed_of(api, game_id, who)
    await api.call("GET", f"/v1/games/{game_id}/verify")

    answers = [e for e in recorder.exchanges if e.path.startswith("/v1/")]
    errors = [error for exchange in answers for error in answer_errors(rest, exchange)]
    messages = [*spectator.messages, *player.messages]
    errors += message_errors(live, messages)
    assert not errors, "\n".join(errors[:30])
    read = {
        event["type"]
        for exchange in answers
        if exchange.path.endswith("/events") and isinstance(exchange.body, dict)
        for event in exchange.body["events"]
    }
    assert {"play_started.v1", "move_sealed.v1", "play_recorded.v1"} <= read
