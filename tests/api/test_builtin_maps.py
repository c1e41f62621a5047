"""Games on the built-in maps over HTTP: `GET /v1/maps` says how many players each seats; a
game on a playable one starts with 3 players and with as many as it seats, refuses a join
beyond that, and a map that cannot host a game is refused when the game is created (it
once was accepted, and every start then failed for want of homes)."""

from typing import Any

import pytest

from tests.api.support import Account, Json, Server


async def _maps(server: Server) -> dict[str, Json]:
    listed = await server.api.call("GET", "/v1/maps")
    return {m["name"]: m for m in listed["maps"]}


async def test_the_map_list_says_how_many_players_each_map_seats(server: Server) -> None:
    maps = await _maps(server)
    assert maps["diplomacy-land"]["players"] == {"min": 3, "max": 6}
    assert maps["diplomacy-land"]["homes"] == 6
    assert maps["rulebook"]["players"] is None
    assert maps["rulebook"]["homes"] == 0


async def _game_with(server: Server, map_name: str, players: int) -> tuple[str, list[Account]]:
    """A game on `map_name` created by the first of `players` accounts, all joined."""
    accounts = [await server.api.account(f"Player {i}") for i in range(1, players + 1)]
    game = await server.api.new_game(accounts[0], map=map_name, seed=3)
    for account in accounts:
        await server.api.join(game.id, account)
    return game.id, accounts


async def _playable(server: Server) -> list[tuple[str, Any]]:
    return [(name, m["players"]) for name, m in (await _maps(server)).items() if m["players"]]


@pytest.mark.parametrize("end", ["min", "max"])
async def test_a_game_on_each_playable_built_in_map_starts(server: Server, end: str) -> None:
    playable = await _playable(server)
    assert [name for name, _ in playable] == ["diplomacy-land"]
    for name, players in playable:
        game_id, accounts = await _game_with(server, name, players[end])
        await server.api.start(game_id, accounts[0])
        game = await server.api.game(game_id)
        assert game.phase == "running"
        assert game.map is not None
        assert game.map.name == name
        assert set(game.board.armies.values()) == {p.id for p in game.players}
        assert len(game.board.armies) == 2 * players[end]


async def test_a_join_beyond_the_map_s_homes_is_refused(server: Server) -> None:
    game_id, _ = await _game_with(server, "diplomacy-land", 6)
    late = await server.api.account("Late")
    refused = await server.api.call("POST", f"/v1/games/{game_id}/join", late, expect=409)
    assert refused["error"]["code"] == "game_full"
    assert refused["error"]["message"] == "the game is full: map 'diplomacy-land' holds 6 players"


async def test_a_map_that_cannot_host_a_game_is_refused_at_creation(server: Server) -> None:
    admin = await server.api.account("Admin")
    body = {"name": "On the rulebook map", "map": "rulebook"}
    refused = await server.api.call("POST", "/v1/games", admin, body, expect=422)
    assert refused["error"]["code"] == "map_unusable"
    message = refused["error"]["message"]
    assert message.startswith("map 'rulebook' cannot host a game: it has starting homes for 0")
    assert "GET /v1/maps" in message


async def test_the_map_list_says_which_game_each_map_is_for(server: Server) -> None:
    """The Art of War's maps are listed too; a client of Skirmish Society alone, which knows
    no `game`, finds none of them playable. Each is served by `GET /v1/maps/{name}` (its
    `game` telling the Art of War's from Skirmish Society's, which has none)."""
    maps = await _maps(server)
    assert {name: m["game"] for name, m in maps.items()} == {
        "diplomacy-land": "skirmish-society",
        "rulebook": "skirmish-society",
        "aow-mini": "art-of-war",
        "world": "art-of-war",
    }
    world = maps["world"]
    assert (world["territories"], world["homes"], world["players"]) == (42, 0, None)
    assert world["description"].startswith("A world-like map of 42 territories")
    assert maps["aow-mini"]["territories"] == 9
    for name, listed_map in maps.items():
        drawn = await server.api.call("GET", f"/v1/maps/{name}")
        assert drawn.get("game", "skirmish-society") == listed_map["game"]
        assert len(drawn["territories"]) == listed_map["territories"]
    listed = await server.api.anyone.maps()
    assert [m.game for m in listed.maps] == [
        "skirmish-society",
        "skirmish-society",
        "art-of-war",
        "art-of-war",
    ]
