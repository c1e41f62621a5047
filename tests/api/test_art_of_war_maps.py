"""GET /v1/maps/{name} of an Art of War map: the map whole, drawing hints and all, as the
rules read them (the sandbox draws a position from it), its `game` telling it from a
Skirmish Society map, which has none (that answer is as it always was)."""

from rules.artofwar.maps import builtin_board, builtin_names
from tests.api.contracts import Recorder, answer_errors, openapi
from tests.api.support import Server


async def test_the_built_in_maps_come_whole_with_their_drawing_hints(server: Server) -> None:
    listed = (await server.api.call("GET", "/v1/maps"))["maps"]
    names = [m["name"] for m in listed if m["game"] == "art-of-war"]
    assert names == list(builtin_names())
    # One name, one map: /v1/maps/{name} finds any game's by its name alone.
    assert len({m["name"] for m in listed}) == len(listed)
    contract = openapi(await server.api.call("GET", "/openapi.json"))
    recorder = Recorder()
    recorder.follow(server.api.client)
    for name in names:
        drawn = await server.api.call("GET", f"/v1/maps/{name}")
        assert drawn["game"] == "art-of-war"
        board = builtin_board(name)
        assert (drawn["name"], drawn["description"]) == (name, board.description)
        assert [t["id"] for t in drawn["territories"]] == board.ids
        for territory in drawn["territories"]:
            assert territory["population"] == board.population(territory["id"])
            assert isinstance(territory["x"], float)
            assert isinstance(territory["y"], float)
        borders = {frozenset(edge) for edge in drawn["edges"]}
        assert borders == {frozenset((a, b)) for a, near in board.neighbours.items() for b in near}
    # Each answer fits the document, as one of its two shapes.
    skirmish = await server.api.call("GET", "/v1/maps/rulebook")
    assert "game" not in skirmish
    assert len(recorder.exchanges) == len(names) + 1
    for exchange in recorder.exchanges:
        assert answer_errors(contract, exchange) == []
    shapes = ("components", "schemas")
    assert contract.errors(drawn, *shapes, "GameMap") != []
    assert contract.errors(drawn, *shapes, "ArtOfWarMap") == []
    assert contract.errors(skirmish, *shapes, "ArtOfWarMap") != []
