"""Reading a game's past over HTTP: a turn is exact as soon as the game has moved on, and
a page of the event feed never ends early, however many hidden events it reads past."""

import asyncio

import pytest

from server.http.routes import history
from tests.api.support import OPERATOR_TOKEN, Account, Api, Json, Server

HIDDEN_ORDERS = 30


async def _game(api: Api) -> tuple[str, list[Account]]:
    accounts = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game_id = (await api.new_game(accounts[0], seed=7)).id
    for account in accounts:
        await api.join(game_id, account)
    await api.start(game_id, accounts[0])
    return game_id, accounts


async def test_a_turn_read_right_after_its_resolution_shows_it(server: Server) -> None:
    api = server.api
    game_id, _ = await _game(api)
    for turn in (1, 2, 3):
        # The operator resolves at once (an admin waits for everyone's orders).
        resolved = await api.admin(game_id, OPERATOR_TOKEN, "resolve")
        reads: list[Json] = await asyncio.gather(
            *(api.call("GET", f"/v1/games/{game_id}/turns/{turn}") for _ in range(8))
        )
        assert all(read["resolution"] is not None for read in reads)
        assert all(read["resolution"]["turn"] == turn for read in reads)
        assert all(read["position"] >= resolved.position for read in reads)
        following = await api.call("GET", f"/v1/games/{game_id}/turns/{turn + 1}")
        assert following["resolution"] is None
        assert following["start_board"] == reads[0]["resolution"]["board"]
        assert following["position"] >= resolved.position
    error = await api.call("GET", f"/v1/games/{game_id}/turns/5", expect=404)
    assert error["error"]["code"] == "turn_not_found"


async def _hidden_orders_then_a_broadcast(api: Api) -> tuple[str, list[Account], int, Json]:
    """A game where Bob sends many orders (hidden from everyone else), then Cy a broadcast;
    with the position of the game's start."""
    game_id, accounts = await _game(api)
    _, bob, cy = accounts
    started = (await api.game(game_id)).position
    board = (await api.game(game_id)).board.armies
    army = min(t for t, player in board.items() if player == "p2")
    for _ in range(HIDDEN_ORDERS):
        await api.orders(game_id, bob, f"{army} H")
    said: Json = await api.call(
        "POST", f"/v1/games/{game_id}/broadcast", cy, {"message": "after the orders"}
    )
    return game_id, accounts, started, said


async def test_a_page_reads_on_past_hidden_events(server: Server) -> None:
    api = server.api
    game_id, (ann, bob, _), started, said = await _hidden_orders_then_a_broadcast(api)
    for reader in (ann, None):
        page = await api.call("GET", f"/v1/games/{game_id}/events?after={started}&limit=5", reader)
        assert [e["type"] for e in page["events"]] == ["message_broadcast.v1"]
        assert (page["position"], page["has_more"]) == (said["position"], False)
    # Bob sees his own orders: a full page, and more after it.
    page = await api.call("GET", f"/v1/games/{game_id}/events?after={started}&limit=5", bob)
    assert [e["type"] for e in page["events"]] == ["orders_submitted.v1"] * 5
    assert page["has_more"] is True
    assert page["position"] == page["events"][-1]["position"]
    # A full page with nothing after it has nothing more; the first page of the game more.
    last = await api.call("GET", f"/v1/games/{game_id}/events?after={started}&limit=31", bob)
    assert (len(last["events"]), last["has_more"]) == (31, False)
    first = await api.call("GET", f"/v1/games/{game_id}/events?after=0&limit=1", ann)
    assert (first["events"][0]["type"], first["has_more"]) == ("game_created.v1", True)
    end = await api.call("GET", f"/v1/games/{game_id}/events?after={said['position']}", ann)
    assert (end["events"], end["position"], end["has_more"]) == ([], said["position"], False)


async def test_a_page_that_reads_its_bound_of_hidden_events_says_there_is_more(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = server.api
    game_id, (ann, _, _), started, said = await _hidden_orders_then_a_broadcast(api)
    monkeypatch.setattr(history, "MAX_SCANNED", 10)
    pages = []
    after = started
    while True:
        page = await api.call("GET", f"/v1/games/{game_id}/events?after={after}&limit=5", ann)
        pages.append(page)
        if not page["has_more"]:
            break
        after = page["position"]
    assert [len(p["events"]) for p in pages] == [0, 0, 0, 1]
    assert [p["has_more"] for p in pages] == [True, True, True, False]
    assert pages[-1]["position"] == said["position"]
    assert [e.type for e in await api.events(game_id, ann, after=started)] == [
        "message_broadcast.v1"
    ]
