"""GET /v1/art-of-war/maps: the Art of War's built-in maps whole, drawing hints and all, as
the rules read them (the sandbox draws a position from them)."""

from rules.artofwar.maps import builtin_board, builtin_names
from tests.api.contracts import Recorder, answer_errors, openapi
from tests.api.support import Server


async def test_the_built_in_maps_come_whole_with_their_drawing_hints(server: Server) -> None:
    recorder = Recorder()
    recorder.follow(server.api.client)
    answer = await server.api.call("GET", "/v1/art-of-war/maps")
    (exchange,) = recorder.exchanges
    assert answer_errors(openapi(await server.api.call("GET", "/openapi.json")), exchange) == []
    assert [m["name"] for m in answer["maps"]] == list(builtin_names())
    for drawn in answer["maps"]:
        board = builtin_board(drawn["name"])
        assert drawn["description"] == board.description
        assert [t["id"] for t in drawn["territories"]] == board.ids
        for territory in drawn["territories"]:
            assert territory["population"] == board.population(territory["id"])
            assert isinstance(territory["x"], float)
            assert isinstance(territory["y"], float)
        borders = {frozenset(edge) for edge in drawn["edges"]}
        assert borders == {frozenset((a, b)) for a, near in board.neighbours.items() for b in near}
