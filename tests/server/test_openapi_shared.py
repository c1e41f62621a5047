"""The answers many operations share are declared in one place (server/http/api.py,
`document_shared`): a route on a game declares 410 without saying so, unless it answers the
game's refusals as replies."""

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from server.http.api import document_shared, documented
from server.http.routes.games import GameId


def test_every_operation_on_a_game_declares_410_and_no_other_does() -> None:
    app = FastAPI()

    @app.get("/v1/games/{game}/anything", **documented())
    async def on_a_game(game: GameId) -> None: ...

    @app.post("/v1/games/{game}/say", **documented(refusals_as_replies=True))
    async def replying(game: GameId) -> None: ...

    @app.get("/v1/maps/{name}", **documented(errors=(404,)))
    async def elsewhere(name: str) -> None: ...

    schema = get_openapi(title="t", version="1", routes=app.routes)
    document_shared(schema)

    def declared(path: str, method: str) -> set[str]:
        operation = schema["paths"][path][method]
        assert not any(key.startswith("x-") for key in operation)
        return set(operation["responses"])

    assert "410" in declared("/v1/games/{game}/anything", "get")
    assert "410" not in declared("/v1/games/{game}/say", "post")
    assert "410" not in declared("/v1/maps/{name}", "get")
    assert {"401", "429"} <= declared("/v1/games/{game}/say", "post")
