"""The bots of the games run by their definitions (rules/game.py): what a seat's bot moves
now, from the game's public view, for the Art of War (bots/artofwar.py) and Skor
(bots/skor.py). Pure, like the strategies."""

from collections.abc import Callable
from typing import Any

from bots import artofwar, skor, skor_greedy
from rules.kit.prng import SeededRandom, derived
from rules.skor.actions import Action
from rules.skor.setup import Setup
from rules.skor.state import State

GAMES = ("art-of-war", "skor")
STRATEGIES = ("random", "greedy")
SKOR_CHOICES: dict[str, Callable[[Setup, str, SeededRandom], dict[str, Any]]] = {
    "random": skor.random_choice,
    "greedy": skor_greedy.greedy_choice,
}
SKOR_ACTIONS: dict[str, Callable[[State, str, SeededRandom], Action]] = {
    "random": skor.random_action,
    "greedy": skor_greedy.greedy_action,
}


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
        play = skor.read_view(view)
        if play.game is None:
            return [SKOR_CHOICES[strategy](play.setup, seat, rng)]
        return [skor.as_move(SKOR_ACTIONS[strategy](play.game, seat, rng))]
    raise ValueError(f"no bots play {game!r}; they play {', '.join(GAMES)}")


def bot_stream(seed: int, seat: str, step: int) -> SeededRandom:
    """A bot's randomness for one step of a game: from its seed, its seat and the step
    alone, so that the same bot shown the same game plays the same moves again."""
    return derived(seed.to_bytes(8, "big", signed=True), "bot", seat, step)
