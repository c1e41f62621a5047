"""Whole games of bots for `python -m benchmarks rules`: the Art of War on generated maps
and Skor, each played to its end in memory through the game's definition by the bots of
bots/ (bots/selfplay.py), random and greedy by turns: setup, every view the bots read, every
move and every resolution, timed together."""

import time
from typing import Any, NamedTuple

from bots.selfplay import play_out


class BotGame(NamedTuple):
    label: str
    game: str
    options: dict[str, Any]
    players: int


BOT_GAMES = (
    BotGame("Art of War, generated map", "art-of-war", {"map": "generated"}, 2),
    BotGame("Art of War, generated map", "art-of-war", {"map": "generated"}, 5),
    BotGame("Art of War, generated map", "art-of-war", {"map": "generated"}, 20),
    BotGame("Skor, round limit 30", "skor", {"round_limit": 30}, 2),
)


def bot_game_rows(count: int, seed: int) -> tuple[list[str], list[list[object]]]:
    """The table of whole bot games: per kind of game, `count` games of fresh secrets."""
    headers = ["game", "players", "games", "steps/game", "median ms/game", "games/s"]
    rows: list[list[object]] = []
    for kind in BOT_GAMES:
        strategies = [("random", "greedy")[n % 2] for n in range(kind.players)]
        times: list[float] = []
        steps = 0
        for n in range(count):
            secret = (seed * 1_000_003 + n).to_bytes(32, "big")
            start = time.perf_counter()
            played = play_out(kind.game, kind.options, strategies, secret, seed + n)
            times.append(time.perf_counter() - start)
            steps += played.steps
        median = sorted(times)[len(times) // 2]
        rows.append(
            [kind.label, kind.players, count, steps / count, median * 1000, count / sum(times)]
        )
    return headers, rows
