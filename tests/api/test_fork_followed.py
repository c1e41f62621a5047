"""A real fork followed and played through the Python client: its feed (where its secret is
hidden while it runs) fits /openapi.json for every reader, `events()` and `live()` read it,
and bots claim their seats and play it, each in the seat its account held in the source."""

import asyncio
import contextlib

import pytest

from bots.play import Bot, seat
from schema.api import ForkBody
from schema.live import EventMessage
from tests.api.contracts import Exchange, answer_errors, openapi
from tests.api.forks import fork_of, played, real_fork
from tests.api.support import (
    OPERATOR_TOKEN,
    PAST_THE_LOCK,
    Account,
    Server,
    collecting,
    data,
    until,
)

# The turns the bots play in the fork (the scripted game's VP target may end it sooner).
TURNS = 5


async def _feed_fits(server: Server, game: str, readers: list[Account | str | None]) -> None:
    """The whole feed, as each reader reads it, fits the published schema of the feed."""
    rest = openapi(await server.api.call("GET", "/openapi.json"))
    path = f"/v1/games/{game}/events"
    for who in readers:
        page = await server.api.call("GET", f"{path}?after=0", who)
        assert not page["has_more"]
        errors = answer_errors(rest, Exchange("GET", path, 200, page))
        assert not errors, "\n".join(errors)


async def test_a_real_forks_feed_fits_the_contract_and_the_client_reads_it(
    server: Server,
) -> None:
    source = await played(server, 1)
    bob = source.player("Bob")
    fork = await real_fork(server, source, 2)
    again = (await fork_of(server, fork, source.admin, turn=2, sandbox=False))["id"]
    for game in (fork, again):
        await _feed_fits(server, game, [bob, source.admin, OPERATOR_TOKEN, None])
    # The client reads it, as a player and as a spectator: the secret, hidden, reads as
    # its default.
    for who in (bob, None):
        (forked, *_) = await server.api.events(fork, who)
        assert forked.type == "game_forked.v1"
        assert data(forked)["secret"] is None
        assert data(forked)["commitment"]
    # And follows it live, from its first event.
    position = (await server.api.game(fork)).position
    async with collecting(server.api.as_(bob).live(fork)) as received:
        await until(lambda: any(m.position >= position for m in received))
    events = [m.event for m in received if isinstance(m, EventMessage)]
    assert events[0].type == "game_forked.v1"
    assert data(events[0])["secret"] is None


@pytest.mark.timeout(180)
async def test_bots_play_a_real_fork(server: Server) -> None:
    """Three of the source's players are bots, which claim their seats themselves; the
    fourth declines; the admin starts the fork."""
    source = await played(server, 1)
    api, operator = server.api, server.api.as_(OPERATOR_TOKEN)
    admin = api.as_(source.admin)
    fork = (await admin.fork(source.game_id, ForkBody(turn=2, sandbox=False))).id
    clients = [api.as_(account) for account in source.accounts[:3]]
    bots = [
        Bot(client, fork, await seat(client, fork), "greedy", seed=n, poll=0.2)
        for n, client in enumerate(clients)
    ]
    assert [bot.player for bot in bots] == ["p1", "p2", "p3"]
    # A seat once claimed is found again, not claimed twice.
    assert await seat(clients[0], fork) == "p1"
    await api.as_(source.player("Di")).decline_seat(fork)
    await admin.start(fork)
    tasks = [asyncio.create_task(bot.play()) for bot in bots]
    try:
        for turn in range(2, 2 + TURNS):

            def ready(turn: int = turn) -> bool:
                return all(turn in b.done for b, t in zip(bots, tasks, strict=True) if not t.done())

            await until(ready, what=f"every bot's orders of turn {turn}")
            now = await api.game(fork)
            assert now.next_resolution_at is not None
            assert now.now is not None
            due = (now.next_resolution_at - now.now).total_seconds()
            await operator.move_clock(advance_seconds=due)

            async def resolved(turn: int = turn) -> bool:
                seen = await api.game(fork)
                return seen.turn > turn or seen.phase == "finished"

            await until(resolved, what=f"turn {turn} to resolve")
            await operator.move_clock(advance_seconds=PAST_THE_LOCK)
            if (await api.game(fork)).phase == "finished":
                break
        final = await api.game(fork)
        assert final.turn == 2 + TURNS or final.phase == "finished"
        if final.phase == "finished":
            # Every bot sees the end and stops by itself.
            async with asyncio.timeout(15):
                ends = await asyncio.gather(*tasks)
            assert {end.winner for end in ends} == {final.winner}
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    sent = [o for bot in bots for a in bot.submitted.values() if a is not None for o in a.orders]
    assert sent
    assert all(order.valid for order in sent), [o for o in sent if not o.valid]
