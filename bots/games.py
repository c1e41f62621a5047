"""The bots of the games run by their definitions (rules/game.py): what a seat's bot moves
now, from the game's public view, for the Art of War (bots/artofwar.py) and Skor
(bots/skor.py). Pure, like the strategies."""

from typing import Any

from bots import artofwar, skor
from rules.kit.prng import SeededRandom, derived

GAMES = ("art-of-war", "skor")
STRATEGIES = ("random", "greedy")


def moves_now(
    game: str,
    view: Any,
    seat: str,
    strategy: str,
    rng: SeededRandom,
    weary: int = artofwar.WEARY_TURN,
) -> list[Any]:
    """The seat's moves, to be made in order, when the game waits for it: in the Art of War
    a change of stance if any, then its orders; in Skor its setup choice, or one action.
    `weary` is the Art of War's turn from which its bots offer a draw."""
    if game == "art-of-war":
        turn = artofwar.STRATEGIES[strategy]
        return turn(artofwar.read_view(view), seat, rng, weary)
    if game == "skor":
        return [skor.next_move(skor.read_view(view), seat, strategy, rng)]
    raise ValueError(f"no bots play {game!r}; they play {', '.join(GAMES)}")


def bot_stream(seed: int, seat: str, step: int) -> SeededRandom:
    """A bot's randomness for one step of a game: from its seed, its seat and the step
    alone, so that the same bot shown the same game plays the same moves again."""
    return derived(seed.to_bytes(8, "big", signed=True), "bot", seat, step)
