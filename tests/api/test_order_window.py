"""When orders open and close, as a front end reads it: the game's `orders_open_at` and
`orders_close_at`, and the `orders_open_at` of a 409 `orders_locked`."""

from datetime import datetime, timedelta

from tests.api.support import OPERATOR_TOKEN, START, Server


def _time(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def _at(minutes: float) -> str:
    """The time `minutes` after START, as the API writes it."""
    return (START + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


async def test_orders_locked_says_when_orders_open_and_the_game_shows_its_window(
    server: Server,
) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game_id = (await api.new_game(ann)).id
    joining = await api.game(game_id)
    assert (joining.orders_open_at, joining.orders_close_at) == (None, None)
    for player in (ann, bob, cy):
        await api.join(game_id, player)
    await api.start(game_id, ann)
    orders = f"/v1/games/{game_id}/orders"

    # Fast mode: turn 1 resolves at 08:15, and orders close a minute before.
    game = await api.game(game_id)
    assert game.next_resolution_at == _time(15)
    assert (game.orders_open_at, game.orders_close_at) == (_time(0), _time(14))

    server.clock.set(START + timedelta(minutes=14))
    locked = await api.call("PUT", orders, ann, {"orders": "anything"}, expect=409)
    assert locked["error"]["code"] == "orders_locked"
    assert locked["error"]["orders_open_at"] == _at(16)
    # The clock moves as time would: the turn resolves at 08:15 on the way.
    moved = {"set": _at(15.5)}
    await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, moved)
    game = await api.game(game_id)
    assert game.turn == 2
    assert (game.orders_open_at, game.orders_close_at) == (_time(16), _time(29))
    locked = await api.call("PUT", orders, ann, {"orders": "anything"}, expect=409)
    assert locked["error"]["orders_open_at"] == _at(16)
    server.clock.set(datetime.fromisoformat(locked["error"]["orders_open_at"]))
    await api.call("PUT", orders, ann, {"orders": "anything"})

    # Paused, nothing is scheduled, and orders are taken.
    await api.admin(game_id, ann, "pause")
    paused = await api.game(game_id)
    assert (paused.orders_open_at, paused.orders_close_at) == (None, None)
