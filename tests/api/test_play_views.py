"""A game run by its definition as each reader sees it: a player's own seats and sealed move
in GET /v1/games/{game} (never another seat's), and its past turns (GET /turns/{turn}/play):
the view at each turn's start and the events of the step that began it."""

from tests.api.contracts import Recorder, answer_errors, openapi
from tests.api.support import Api, Server, joined_game, make_move, public_game


async def _fits_the_contract(api: Api, recorder: Recorder) -> None:
    """Every answer the test got fits /openapi.json."""
    rest = openapi(await api.call("GET", "/openapi.json"))
    answers = [e for e in recorder.exchanges if e.path.startswith("/v1/")]
    errors = [error for exchange in answers for error in answer_errors(rest, exchange)]
    assert not errors, "\n".join(errors)


async def test_a_player_sees_their_own_sealed_move_and_nobody_elses(server: Server) -> None:
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    one, two, three = [await api.account(name) for name in ("ann", "bob", "cy")]
    body = {"name": "Sealed", "game": "art-of-war", "options": {"map": "aow-mini"}}
    game_id = await joined_game(api, body, (one, two, three))
    await api.start(game_id, one)
    await make_move(api, game_id, one, "hold everything")

    mine = await public_game(api, game_id, one)
    assert (mine["seats"], mine["sealed"]) == (["p1"], {"p1": ["hold everything"]})
    theirs = await public_game(api, game_id, two)
    assert (theirs["seats"], theirs["sealed"]) == (["p2"], {})
    anyone = await public_game(api, game_id)
    assert (anyone["seats"], anyone["sealed"]) == (None, None)
    assert anyone["moved"] == ["p1"]
    # A spectator with an account plays no seat: nothing sealed is theirs.
    outsider = await api.account("dee")
    assert (await public_game(api, game_id, outsider))["sealed"] == {}
    await _fits_the_contract(api, recorder)


async def test_past_turns_show_each_start_and_the_step_before_it(server: Server) -> None:
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    one, two = await api.account("ann"), await api.account("bob")
    body = {"name": "History", "game": "art-of-war", "options": {"map": "aow-mini"}}
    game_id = await joined_game(api, body, (one, two))
    await api.start(game_id, one)
    first = (await public_game(api, game_id))["play"]
    await make_move(api, game_id, one, "")
    await make_move(api, game_id, two, "")
    now = await public_game(api, game_id, one)
    assert (now["turn"], now["sealed"]) == (2, {})

    start = await api.call("GET", f"/v1/games/{game_id}/turns/1/play", one)
    assert (start["turn"], start["play"]) == (1, first)
    assert [e["type"] for e in start["events"]] == ["started.v1"]
    second = await api.call("GET", f"/v1/games/{game_id}/turns/2/play")
    assert second["play"] == now["play"]
    (run,) = second["events"]
    assert (run["type"], run["turn"], run["orders"]) == ("turn_run.v1", 1, {"p1": [], "p2": []})

    missing = await api.call("GET", f"/v1/games/{game_id}/turns/3/play", expect=404)
    assert missing["error"]["code"] == "turn_not_found"
    await _fits_the_contract(api, recorder)


async def test_skirmish_society_turns_are_not_read_there(server: Server) -> None:
    """A 409 that names where they are read, as the other way round below, not a turn "not
    reached": the game has a turn 1."""
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    ann, bob, cy = [await api.account(name) for name in ("ann", "bob", "cy")]
    game_id = await joined_game(api, {"name": "SS"}, (ann, bob, cy))
    await api.start(game_id, ann)
    await api.call("GET", f"/v1/games/{game_id}/turns/1")
    refused = await api.call("GET", f"/v1/games/{game_id}/turns/1/play", expect=409)
    assert refused["error"]["code"] == "wrong_kind_of_game"
    assert f"GET /v1/games/{game_id}/turns/1" in refused["error"]["message"]
    assert "/play" not in refused["error"]["message"]
    await _fits_the_contract(api, recorder)


async def test_skirmish_society_reads_of_a_game_run_by_its_definition_name_its_own(
    server: Server,
) -> None:
    """Its orders and turns are Skirmish Society's: a 409, as its orders and votes are, that
    says where such a game keeps them, not an empty answer or a turn "not reached"."""
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    one, two = await api.account("ann"), await api.account("bob")
    body = {"name": "Kinds", "game": "art-of-war", "options": {"map": "aow-mini"}}
    game_id = (await api.call("POST", "/v1/games", one, body, expect=201))["id"]
    for who in (one, two):
        await api.join(game_id, who)
    await api.start(game_id, one)

    orders = await api.call("GET", f"/v1/games/{game_id}/orders", one, expect=409)
    assert orders["error"]["code"] == "wrong_kind_of_game"
    assert f"GET /v1/games/{game_id}" in orders["error"]["message"]
    turn = await api.call("GET", f"/v1/games/{game_id}/turns/1", expect=409)
    assert turn["error"]["code"] == "wrong_kind_of_game"
    assert f"/v1/games/{game_id}/turns/1/play" in turn["error"]["message"]
    await api.call("GET", f"/v1/games/{game_id}/turns/1/play")
    await _fits_the_contract(api, recorder)


async def test_skirmish_society_takes_its_moves_at_post_moves_too(server: Server) -> None:
    """Its orders, votes and join-forces requests are its definition's moves: POST /moves takes
    them as `{"orders": text}`, `{"vote": effect}`, `{"join_forces": seat}`, stored as PUT
    /orders stores them (the same event, with its receipt), refused as they are refused."""
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    ann, bob, cy = [await api.account(name) for name in ("ann", "bob", "cy")]
    game_id = await joined_game(api, {"name": "SS moves"}, (ann, bob, cy))
    await api.start(game_id, ann)

    played = await make_move(api, game_id, ann, {"orders": "XX H"})
    assert played["events"] == ["orders_submitted.v1"]
    mine = await api.call("GET", f"/v1/games/{game_id}/orders", ann)
    assert [[(o["text"], o["valid"]) for o in s] for s in mine["submitted"]] == [[("XX H", False)]]
    # A vote and a request refused as POST /votes and /join-forces refuse them.
    votes = f"/v1/games/{game_id}/votes"
    by_route = await api.call("POST", votes, bob, {"effect": "no such effect"}, expect=409)
    by_move = await make_move(api, game_id, bob, {"vote": "no such effect"}, expect=409)
    assert by_move["error"] == by_route["error"]
    assert by_move["error"]["code"] == "no_vote"
    joins = f"/v1/games/{game_id}/join-forces"
    by_route = await api.call("POST", joins, cy, {"with": "p9"}, expect=404)
    by_move = await make_move(api, game_id, cy, {"join_forces": "p9"}, expect=404)
    assert by_move["error"] == by_route["error"]
    assert by_move["error"]["code"] == "player_not_found"
    refused = await make_move(api, game_id, bob, {"hold": "everything"}, expect=422)
    assert refused["error"]["code"] == "move_refused"
    await _fits_the_contract(api, recorder)
