"""Bots play the Art of War and Skor through a real server to the end, each with the
Python client on its own account (bots/moving.py): every move they make is taken, and the
game ends (a treaty or a conquest; a City taken or the round limit)."""

import asyncio
from typing import Any

import pytest

from bots.moving import MoveBot
from bots.play import seat
from client import SkirmishClient
from schema.api import NewGame
from tests.api.support import serving


async def _play(
    schema_url: str, game: str, options: dict[str, Any], strategies: list[str], weary: int
) -> tuple[list[MoveBot], dict[str, Any], str]:
    async with serving(schema_url) as server, SkirmishClient(server.base) as anyone:
        players = [
            anyone.using((await anyone.create_account(f"Bot {n}")).token)
            for n in range(len(strategies))
        ]
        created = await players[0].create_game(NewGame("Bots", game=game, options=options))
        bots = [
            MoveBot(client, created.id, await seat(client, created.id), strategy, seed=n,
                    poll=0.5, weary=weary)
            for n, (client, strategy) in enumerate(zip(players, strategies, strict=True))
        ]  # fmt: skip
        await players[0].start(created.id)
        async with asyncio.timeout(120):
            ends = await asyncio.gather(*(bot.play() for bot in bots))
        final = await anyone.get_game(created.id)
    assert final.phase == "finished"
    assert final.ending is not None
    assert {end.phase for end in ends} == {"finished"}
    return bots, final.ending.results, final.ending.by


@pytest.mark.parametrize("strategies", [["greedy", "random", "greedy"], ["random", "random"]])
async def test_bots_play_the_art_of_war_to_its_end(schema_url: str, strategies: list[str]) -> None:
    options: dict[str, Any] = {"map": "aow-mini", "initial": "fill", "placement": "free"}
    bots, results, by = await _play(schema_url, "art-of-war", options, strategies, weary=4)
    assert by in ("conquest", "last_survivor", "mercy", "draw")
    assert sorted(results) == sorted(bot.player for bot in bots)
    # Orders every turn from every bot still in the war, until the treaty at the latest.
    assert all(bot.moves >= 1 for bot in bots)


async def test_bots_play_skor_to_its_end(schema_url: str) -> None:
    bots, results, by = await _play(
        schema_url, "skor", {"round_limit": 4}, ["greedy", "random"], weary=0
    )
    assert by in ("city", "round_limit")
    assert set(results.values()) in ({"won", "lost"}, {"drew"})
    # The setup's choice, then actions every turn of theirs to its `end`.
    assert all(bot.moves > 4 for bot in bots)
