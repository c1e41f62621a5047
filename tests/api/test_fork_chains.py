"""Forks of forks: a fork is forked like any game, at every turn it offers (its first turn,
the source's turn it began at, to its current one), by the route and by `/fork n`, however
long the chain; each begins where `/turns/n` of its own source says that turn began."""

import pytest

from tests.api.forks import (
    assert_begins_at,
    first_turn,
    fork_by_command,
    fork_of,
    play_sandbox_turn,
    played,
    real_fork,
)
from tests.api.support import Account, Json, Server


async def _fork_at_every_turn(server: Server, game: str, admin: Account) -> None:
    """`game` forks at each turn it offers, by the route and by `/fork n`, and at no other."""
    state: Json = await server.api.call("GET", f"/v1/games/{game}")
    first = await first_turn(server, game)
    last = state["turn"] - 1 if state["phase"] == "finished" else state["turn"]
    assert first <= last
    for turn in range(first, last + 1):
        await assert_begins_at(server, game, await fork_of(server, game, admin, turn=turn), turn)
        await assert_begins_at(server, game, await fork_by_command(server, game, admin, turn), turn)
    for turn in (first - 1, last + 1):
        error = await fork_of(server, game, admin, 404, turn=turn)
        assert error["error"]["code"] == "turn_not_found"


@pytest.mark.timeout(180)
async def test_a_fork_of_a_fork_of_a_fork_forks_at_every_turn_it_offers(server: Server) -> None:
    source = await played(server, 3)
    admin = source.admin
    await _fork_at_every_turn(server, source.game_id, admin)
    # Each fork plays a turn of its own before it is forked further on.
    chain = [source.game_id]
    for turn in (2, 3, 4):
        game = (await fork_of(server, chain[-1], admin, turn=turn))["id"]
        await _fork_at_every_turn(server, game, admin)
        await play_sandbox_turn(server, game, admin, turn)
        await _fork_at_every_turn(server, game, admin)
        chain.append(game)
    # The last of the chain, a fork of a fork of a fork, played to Ann's win on turn 4.
    last: Json = await server.api.call("GET", f"/v1/games/{chain[-1]}")
    assert last["phase"] == "finished"
    assert last["forked_from"]["game"] == chain[-2]


async def test_a_real_fork_of_a_real_fork_and_a_sandbox_of_it(server: Server) -> None:
    """Forks of real forks, which begin with their invitations and their start."""
    source = await played(server, 1)
    admin = source.admin
    real = await real_fork(server, source, 2)
    again = await real_fork(server, source, 2, of=real)
    sandbox = await fork_of(server, again, admin, turn=2)
    await assert_begins_at(server, again, sandbox, 2)
    await _fork_at_every_turn(server, again, admin)
