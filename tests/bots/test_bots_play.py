"""Bots play a game through a real server, each with the Python client on its own account
(four of both kinds, three random, six of both): every order they send comes back valid,
turn after turn, to a winner or the last turn the test waits for. The server's clock is the
operator's (the scripted games' way)."""

import asyncio
import contextlib

import pytest

from bots.play import Bot, seat
from client import SkirmishClient
from schema.api import NewGame
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, serving, until

TURNS = 12


@pytest.mark.parametrize(
    "strategies",
    [["random", "greedy", "random", "greedy"], ["random"] * 3, ["random", "greedy"] * 3],
)
async def test_bots_play_a_game_through_a_server(schema_url: str, strategies: list[str]) -> None:
    async with (
        serving(schema_url) as server,
        SkirmishClient(server.base) as anyone,
        anyone.using(OPERATOR_TOKEN) as operator,
    ):
        accounts = [await anyone.create_account(f"Bot {n}") for n in range(len(strategies))]
        players = [anyone.using(account.token) for account in accounts]
        setup = NewGame(
            "Bots", fast_mode=True, vp_target=6, votes="every_turn", vote_start_turn=1, seed=7
        )
        game = await players[0].create_game(setup)
        bots = [
            Bot(player, game.id, await seat(player, game.id), strategy, seed=n, poll=0.2)
            for n, (player, strategy) in enumerate(zip(players, strategies, strict=True))
        ]
        # A seat once taken is found again, not taken twice.
        assert await seat(players[0], game.id) == bots[0].player
        await players[0].start(game.id)
        tasks = [asyncio.create_task(bot.play()) for bot in bots]
        try:
            for turn in range(1, TURNS + 1):

                def ready(turn: int = turn) -> bool:
                    return all(
                        turn in b.done for b, t in zip(bots, tasks, strict=True) if not t.done()
                    )

                await until(ready, what=f"every bot's orders of turn {turn}")
                # To the turn's resolution exactly, so that no move spans two turns.
                now = await anyone.get_game(game.id)
                assert now.next_resolution_at is not None
                assert now.now is not None
                due = (now.next_resolution_at - now.now).total_seconds()
                await operator.move_clock(advance_seconds=due)

                async def resolved(turn: int = turn) -> bool:
                    seen = await anyone.get_game(game.id)
                    return seen.turn > turn or seen.phase == "finished"

                await until(resolved, what=f"turn {turn} to resolve")
                await operator.move_clock(advance_seconds=PAST_THE_LOCK)
                if (await anyone.get_game(game.id)).phase == "finished":
                    break
            final = await anyone.get_game(game.id)
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
    sent = [
        (bot.strategy, turn, order.text, order.reason)
        for bot in bots
        for turn, accepted in bot.submitted.items()
        if accepted is not None
        for order in accepted.orders
    ]
    print(
        final.phase,
        final.turn,
        final.winner,
        [(p.id, p.vp, p.armies) for p in final.players],
        len(sent),
        [sorted(b.voted) for b in bots],
    )
    assert len(sent) > 2 * len(strategies)
    assert [order for order in sent if order[3] is not None] == []
    assert final.phase == "finished" or final.turn == TURNS + 1
    assert all(bot.voted for bot in bots if bot.submitted)
