"""The house asks a game what it has, never naming it (rules/game.py's optional parts):
Islands, a game from outside the project (tests/games/islands.py), registered as
SKIRMISH_GAMES registers one, has its built-in maps listed and served whole, its what-if
answered, both documented in /openapi.json, its sandbox linked from the home page, and
`skirmish demo`'s flags, options and pace, and its standings, with no line of the house for
it."""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bots.games import BOTS, demo_games
from bots.run import Demo, seat_range
from client import SkirmishClient
from rules.registry import register, unregister
from server.ops.cli import build_parser
from tests.api.contracts import Recorder, answer_errors, openapi
from tests.api.support import Server, make_move, public_game, serving
from tests.games.islands import ISLANDS, IslandsMap


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    try:
        async with serving(schema_url, games=("tests.games.islands:ISLANDS",)) as running:
            yield running
    finally:
        unregister(ISLANDS.name)


@pytest.fixture
def registered() -> Iterator[None]:
    register(ISLANDS)
    yield
    unregister(ISLANDS.name)


async def test_it_plays_through_the_room_on_one_of_its_maps(server: Server) -> None:
    api = server.api
    one, two = await api.account("one"), await api.account("two")
    body = {"name": "Islands", "game": "islands", "options": {"map": "archipelago", "limit": 3}}
    game_id = (await api.call("POST", "/v1/games", one, body, expect=201))["id"]
    for who in (one, two):
        await api.join(game_id, who)
    await api.start(game_id, one)
    seats = {"p1": one, "p2": two}
    for island in ("north", "south", "east"):
        (seat,) = (await public_game(api, game_id))["to_move"]
        await make_move(api, game_id, seats[seat], island)
    over = await public_game(api, game_id)
    assert (over["phase"], over["play"]["claims"]) == (
        "finished",
        {
            "north": over["play"]["order"][0],
            "south": over["play"]["order"][1],
            "east": over["play"]["order"][0],
        },
    )
    # Its standings: the most islands first, in its own column.
    first, second = over["play"]["order"]
    assert [(p["id"], p["standing"], p["to_move"]) for p in over["players"]] == [
        (first, {"islands": 2}, False),
        (second, {"islands": 1}, False),
    ]


async def test_its_maps_are_listed_served_whole_and_documented(server: Server) -> None:
    api = server.api
    listed = [m for m in (await api.call("GET", "/v1/maps"))["maps"] if m["game"] == "islands"]
    assert listed == [
        {
            "name": "atoll",
            "description": "3 islands",
            "territories": 3,
            "homes": 0,
            "players": None,
            "game": "islands",
        },
        {
            "name": "archipelago",
            "description": "4 islands",
            "territories": 4,
            "homes": 0,
            "players": None,
            "game": "islands",
        },
    ]
    contract = openapi(await api.call("GET", "/openapi.json"))
    recorder = Recorder()
    recorder.follow(api.client)
    whole = await api.call("GET", "/v1/maps/atoll")
    assert whole == {"name": "atoll", "islands": ["reef", "lagoon", "key"], "game": "islands"}
    skirmish = await api.call("GET", "/v1/maps/rulebook")
    await api.call("GET", "/v1/maps/coral", expect=404)
    assert [answer_errors(contract, exchange) for exchange in recorder.exchanges] == [[], [], []]
    shapes = ("components", "schemas")
    assert contract.errors(whole, *shapes, "IslandsMap") == []
    assert contract.errors(skirmish, *shapes, "IslandsMap") != []
    # The client reads it as the game's own map, as its registry knows the game.
    async with SkirmishClient(server.base) as anyone:
        assert await anyone.builtin_map("atoll") == IslandsMap(
            name="atoll", islands=["reef", "lagoon", "key"]
        )


async def test_its_what_if_is_answered_and_documented(server: Server) -> None:
    api = server.api
    contract = openapi(await api.call("GET", "/openapi.json"))
    recorder = Recorder()
    recorder.follow(api.client)
    request = {"ruleset": "islands", "claims": {"reef": "p1", "key": "p1", "lagoon": "p2"}}
    assert await api.call("POST", "/v1/adjudicate", None, request) == {"ahead": ["p1"]}
    refused = await api.call(
        "POST", "/v1/adjudicate", None, {"ruleset": "islands", "claims": {}}, expect=422
    )
    assert refused["error"]["message"] == "claim at least one island"
    assert [answer_errors(contract, exchange) for exchange in recorder.exchanges] == [[], []]
    body = ("paths", "/v1/adjudicate", "post", "requestBody", "content", "application/json")
    assert contract.errors(request, *body, "schema") == []
    assert contract.errors(request, "components", "schemas", "IslandsRequest") == []


async def test_its_sandbox_is_linked_from_the_home_page_and_served_from_the_game(
    server: Server,
) -> None:
    home = (await server.api.client.get("/")).text
    assert '<a href="/sandbox/islands">islands\' sandbox</a> claims islands for both seats;' in home
    assert '<a href="/sandbox/skor">' in home
    # Its page is its own (a built-in game's is server/pages/sandbox/<name>.html); a game
    # with no sandbox has none.
    page = await server.api.client.get("/sandbox/islands")
    assert (page.status_code, page.headers["content-type"]) == (200, "text/html; charset=utf-8")
    assert "<p>Claim an island.</p>" in page.text
    assert (await server.api.client.get("/sandbox/rock-paper-scissors")).status_code == 404
    assert (await server.api.client.get("/sandbox/skor")).status_code == 200


def _bots(view: Any, seat: str, strategy: str, rng: Any, weary: int) -> list[Any]:
    return [next(i for i in ("reef", "lagoon", "key", "north") if i not in view["claims"])]


def test_skirmish_demo_takes_its_flags_once_it_has_bots(
    registered: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game without bots is none of the demo's.
    assert "islands" not in demo_games()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--game", "islands"])
    monkeypatch.setitem(BOTS, "islands", _bots)
    assert demo_games()["islands"] == 1.5
    parser = build_parser()
    args = parser.parse_args(["demo", "--game", "islands", "--islands-map", "archipelago"])
    assert (args.islands_map, args.limit) == ("archipelago", 3)
    demo = Demo(game="islands", seed=7, flags={"islands_map": "archipelago", "limit": 2})
    assert demo.options() == {"map": "archipelago", "limit": 2}
    assert Demo(game="islands").options() == {"map": "atoll", "limit": 3}
    assert seat_range(demo) == (2, 2)
    with pytest.raises(SystemExit):
        parser.parse_args(["demo", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "--limit LIMIT islands claimed before the game ends, 1 to 4 (default 3)" in helped
    assert "another game (art-of-war 2, islands 1.5, skor 0.5)" in helped
    with pytest.raises(SystemExit):
        parser.parse_args(["demo", "--game", "islands", "--islands-map", "coral"])
