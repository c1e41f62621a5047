"""The server with the tests' own games, registered as any game from outside the project is
(SKIRMISH_GAMES, server/plugins.py), and forgotten after each test."""

from collections.abc import AsyncIterator, Iterator

import pytest

from rules.registry import unregister
from tests.api.support import Server, serving
from tests.games.rock_paper_scissors import ROCK_PAPER_SCISSORS
from tests.games.tic_tac_toe import TIC_TAC_TOE

GAMES = (
    "tests.games.rock_paper_scissors:ROCK_PAPER_SCISSORS",
    "tests.games.tic_tac_toe:TIC_TAC_TOE",
)


def forget() -> None:
    """Unregister the tests' games (GAMES), which a server registered."""
    for game in (ROCK_PAPER_SCISSORS, TIC_TAC_TOE):
        unregister(game.name)


@pytest.fixture
def forgotten() -> Iterator[None]:
    yield
    forget()


@pytest.fixture
async def server(schema_url: str, forgotten: None) -> AsyncIterator[Server]:
    async with serving(schema_url, games=GAMES) as running_server:
        yield running_server
