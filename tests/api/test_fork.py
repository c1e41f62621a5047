"""Forks over HTTP: a fork of a running or finished game begins where `/turns/n` says the
source's turn n began, and who may fork, which turns, and how each kind of fork is played."""

from tests.api.forks import assert_begins_at, fork_by_command, fork_of, played, real_fork
from tests.api.game import ORDERS
from tests.api.support import Json, Server


async def test_a_running_game_forks_at_each_turn_it_has_reached(server: Server) -> None:
    source = await played(server, 3)
    for turn in (1, 2, 3, 4):
        fork = await fork_of(server, source.game_id, source.admin, turn=turn)
        await assert_begins_at(server, source.game_id, fork, turn)
        assert fork["settings"]["sandbox"] is True
        assert fork["name"] == f"Test game (fork, turn {turn})"
        assert (fork["game"], fork["game_version"]) == ("skirmish-society", 1)
    # The source goes on, untouched.
    assert (await source.state()).turn == 4


async def test_a_finished_game_forks_up_to_its_last_turn_a_sandbox_for_anyone(
    server: Server,
) -> None:
    source = await played(server, 4)
    assert (await source.state()).phase == "finished"
    stranger = await server.api.account("Eve")
    fork = await fork_of(server, source.game_id, stranger, turn=4, name="Again")
    await assert_begins_at(server, source.game_id, fork, 4)
    assert fork["name"] == "Again"
    assert fork["admins"] == [stranger.account_id]
    # A real fork invites the source's players: their admin's to ask.
    error = await fork_of(server, source.game_id, stranger, 403, turn=4, sandbox=False)
    assert error["error"]["code"] == "admin_only"
    real = await fork_of(server, source.game_id, source.admin, turn=4, sandbox=False)
    await assert_begins_at(server, source.game_id, real, 4)
    error = await fork_of(server, source.game_id, stranger, 404, turn=5)
    assert error["error"]["code"] == "turn_not_found"


async def test_only_an_admin_forks_a_game_being_played_and_only_turns_it_reached(
    server: Server,
) -> None:
    source = await played(server, 1)
    error = await fork_of(server, source.game_id, source.player("Bob"), 403, turn=1)
    assert error["error"]["code"] == "admin_only"
    for turn in (0, 3, -1):
        error = await fork_of(server, source.game_id, source.admin, 404, turn=turn)
        assert error["error"]["code"] == "turn_not_found"
    error = await fork_of(server, "nosuchgame", source.admin, 404, turn=1)
    assert error["error"]["code"] == "game_not_found"


async def test_a_sandbox_fork_is_played_by_its_admin_alone(server: Server) -> None:
    source = await played(server, 1)
    bob = source.player("Bob")
    fork = await fork_of(server, source.game_id, source.admin, turn=2)
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
    """Once they claimed their seats and its admin started it (tests/api/test_fork_invites.py
    says how)."""
    source = await played(server, 1)
    fork = await real_fork(server, source, 2)
    assert (await server.api.game(fork)).settings.sandbox is False
    for index, text in ORDERS[2].items():
        accepted = await server.api.orders(fork, source.accounts[index], text, turn=2)
        assert all(order.valid for order in accepted.orders)
    for index in (1, 2):
        await server.api.orders(fork, source.accounts[index], "EA H", turn=2)
    stranger = await server.api.account("Eve")
    error = await server.api.call(
        "PUT", f"/v1/games/{fork}/orders", stranger, {"orders": "EA H"}, expect=403
    )
    assert error["error"]["code"] == "not_a_player"
    server.clock.advance(60)
    await server.api.as_(source.admin).resolve(fork)
    resolved: Json = await server.api.call("GET", f"/v1/games/{fork}/turns/2")
    assert resolved["resolution"]["turn"] == 2


async def test_a_default_name_fits_however_long_the_sources(server: Server) -> None:
    """The source's name gives way (an ellipsis ends it), never "(fork, turn n)"."""
    long_name = "A very long name of thirty-two!!"
    assert len(long_name) == 32
    source = await played(server, 1, name=long_name)
    expected = "A very long name… (fork, turn 2)"
    assert len(expected) == 32
    by_route = await fork_of(server, source.game_id, source.admin, turn=2)
    by_command = await fork_by_command(server, source.game_id, source.admin, 2)
    assert by_route["name"] == by_command["name"] == expected
    # A fork of that fork: its name gives way in turn.
    again = await fork_of(server, by_route["id"], source.admin, turn=2)
    assert again["name"] == expected
