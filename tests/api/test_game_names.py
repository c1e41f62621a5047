"""Which game a game plays, over HTTP: named at creation (Skirmish Society unless said
otherwise), given back with the version of its rules, kept by its forks; a game the server
does not play is a clear 422."""

import pytest

from tests.api.support import Server


async def test_a_game_says_what_it_plays_and_by_which_rules(server: Server) -> None:
    admin = await server.api.account("Ann")
    plain = await server.api.new_game(admin)
    named = await server.api.new_game(admin, game="skirmish-society")
    for game in (plain, named):
        shown = await server.api.call("GET", f"/v1/games/{game.id}")
        assert (shown["game"], shown["game_version"]) == ("skirmish-society", 1)


@pytest.mark.parametrize(
    ("game", "code", "says"),
    [
        (
            "chess",
            "unknown_game",
            "no game named 'chess' here; the games are: art-of-war, skirmish-society",
        ),
        ("x" * 41, "invalid_body", "length <= 40"),
        (7, "invalid_body", "Expected `str`, got `int`"),
    ],
)
async def test_a_game_the_server_does_not_play_is_refused(
    server: Server, game: object, code: str, says: str
) -> None:
    admin = await server.api.account("Ann")
    body = {"name": "Chess night", "game": game}
    refused = await server.api.call("POST", "/v1/games", admin, body, expect=422)
    assert refused["error"]["code"] == code
    assert says in refused["error"]["message"]
