"""Whole games of bots played in memory through a game's definition (rules/game.py), as the
room would run them but without one: what the strategies' tests and `python -m benchmarks
rules` play. Pure: the game's secret and the bots' seed in, its final state out."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bots.artofwar import WEARY_TURN
from bots.games import bot_stream, moves_now
from rules.game import Draws, Ending, Private, Sealed
from rules.registry import newest


class Played:
    """A game played out: its final state, how it ended, how many steps it took, and every
    event of the game in order (the setup's first)."""

    def __init__(self, state: Any, ending: Ending, steps: int, moves: int, events: list[Any]):
        self.state, self.ending, self.steps, self.moves = state, ending, steps, moves
        self.events = events


def play_out(
    name: str,
    options: Mapping[str, Any],
    strategies: Sequence[str],
    secret: bytes,
    seed: int,
    weary: int = WEARY_TURN,
    max_steps: int = 100_000,
    observe: Callable[[Any, str, list[Any]], None] = lambda state, seat, moves: None,
) -> Played:
    """A game of `len(strategies)` bots (seats p1, p2, ...) to its end; every move the bots
    make is one the game takes (a refused move raises MoveRefused). `observe` is shown the
    state, the seat and its moves before they are made."""
    game = newest(name)
    seats = tuple(f"p{n}" for n in range(1, len(strategies) + 1))
    strategy = dict(zip(seats, strategies, strict=True))
    draws = Draws(secret)
    state: Any = None
    events: list[Any] = []

    def apply(made: list[Any]) -> None:
        nonlocal state
        for event in made:
            state = game.evolve(state, event)
        events.extend(made)

    apply(game.setup(game.check_options(options), seats, draws))
    steps = moves = 0
    while (ending := game.ending(state)) is None:
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
        steps += 1
        wait = game.to_move(state)
        sealed: dict[str, Any] = {}
        for seat in sorted(wait.seats):
            view = game.view(state, frozenset())
            for move in moves_now(
                name, view, seat, strategy[seat], bot_stream(seed, seat, steps), weary
            ):
                moves += 1
                decision = game.move(state, seat, move, draws)
                if isinstance(decision, Sealed):
                    sealed[seat] = decision.move
                    continue
                # A private act (a message) changes the state as a public one does.
                apply(decision.events if isinstance(decision, Private) else decision)
        if wait.sealed:
            apply(game.resolve(state, sealed, draws))
    return Played(state, ending, steps, moves, events)
