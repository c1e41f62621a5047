"""The bots of the games run by their definitions (rules/game.py), one entry a game in
`BOTS`: what a seat's bot moves now, from the game's public view, for the Art of War
(bots/artofwar.py) and Skor (bots/skor.py). Pure, like the strategies."""

from collections.abc import Callable
from typing import Any, Protocol

from bots import artofwar, skor, skor_greedy
from rules.house import Demoed
from rules.kit.prng import SeededRandom, derived
from rules.registry import DEFAULT_GAME, definitions
from rules.skor.actions import Action
from rules.skor.setup import Setup
from rules.skor.state import State

STRATEGIES = ("random", "greedy")
SKOR_CHOICES: dict[str, Callable[[Setup, str, SeededRandom], dict[str, Any]]] = {
    "random": skor.random_choice,
    "greedy": skor_greedy.greedy_choice,
}
SKOR_ACTIONS: dict[str, Callable[[State, str, SeededRandom], Action]] = {
    "random": skor.random_action,
    "greedy": skor_greedy.greedy_action,
}


class Bots(Protocol):
    """A game's bots: a seat's moves now, from the game's public view, by the strategy's
    name, from the bot's randomness; `weary` is the turn from which a bot seeks a draw."""

    def __call__(
        self, view: Any, seat: str, strategy: str, rng: SeededRandom, weary: int
    ) -> list[Any]: ...


def _art_of_war(view: Any, seat: str, strategy: str, rng: SeededRandom, weary: int) -> list[Any]:
    """A change of stance if any, then the turn's orders."""
    return artofwar.STRATEGIES[strategy](artofwar.read_view(view), seat, rng, weary)


def _skor(view: Any, seat: str, strategy: str, rng: SeededRandom, weary: int) -> list[Any]:
    """The setup choice, or one action (Skor's bots never seek a draw)."""
    play = skor.read_view(view)
    if play.game is None:
        return [SKOR_CHOICES[strategy](play.setup, seat, rng)]
    return [skor.as_move(SKOR_ACTIONS[strategy](play.game, seat, rng))]


# Each game's bots by the game's name (rules/registry.py): one line a game.
BOTS: dict[str, Bots] = {"art-of-war": _art_of_war, "skor": _skor}
# Skirmish Society's pace in `skirmish demo`: a fast-mode turn every so many real seconds.
SKIRMISH_TURN_SECONDS = 10.0


def demo_games() -> dict[str, float]:
    """The games `skirmish demo` plays, each with its pace by default: Skirmish Society's
    turn, or how long each bot of another game waits before each of its steps, for a game
    whose definition says how to demo it (`Demoed`) and which has bots (bots/games.py)."""
    games = definitions().items()
    demoed = {name: game for name, game in games if isinstance(game, Demoed) and name in BOTS}
    return {DEFAULT_GAME: SKIRMISH_TURN_SECONDS} | {
        name: game.demo_seconds for name, game in demoed.items()
    }


def moves_now(
    game: str,
    view: Any,
    seat: str,
    strategy: str,
    rng: SeededRandom,
    weary: int = artofwar.WEARY_TURN,
) -> list[Any]:
    """The seat's moves, to be made in order, when the game waits for it."""
    bots = BOTS.get(game)
    if bots is None:
        raise ValueError(f"no bots play {game!r}; they play {', '.join(BOTS)}")
    return bots(view, seat, strategy, rng, weary)


def bot_stream(seed: int, seat: str, step: int) -> SeededRandom:
    """A bot's randomness for one step of a game: from its seed, its seat and the step
    alone, so that the same bot shown the same game plays the same moves again."""
    return derived(seed.to_bytes(8, "big", signed=True), "bot", seat, step)
