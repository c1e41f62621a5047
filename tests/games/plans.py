"""How each of the tests' games is played through the server, said the same way for both, so
that one test takes each through every step (test_every_step.py): the moves of each step, by
who plays first (0) or second (1), since who that is may be drawn."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]
# One step of a game (one turn): the moves that make it, in order, by 0 (first) or 1 (second).
Step = tuple[tuple[int, Any], ...]


@dataclass(frozen=True)
class Plan:
    game: str
    options: Json
    # The seats in the order they play, from the game's public view once it started.
    order: Callable[[Json], tuple[str, str]]
    # The steps that lead up to the last turn of both endings below.
    opening: tuple[Step, ...]
    # The last step of a game that the first seat wins.
    won: Step
    # The steps that end the opening in a draw instead.
    drawn: tuple[Step, ...]
    # What the first seat does before the clock runs out on its first wait (with `seconds`),
    # which the clock then plays on to an end, the first seat winning.
    before_the_clock: Step
    # How many waits the clock then times out, to the end.
    timeouts: int
    # Whether a wait is sealed: the clock resolves it, for no seat; else it times out a seat.
    sealed: bool


ROCK_PAPER_SCISSORS = Plan(
    game="rock-paper-scissors",
    options={"rounds": 2},
    order=lambda view: ("p1", "p2"),
    opening=(((0, "rock"), (1, "scissors")),),
    won=((1, "scissors"), (0, "rock")),
    drawn=(((0, "scissors"), (1, "rock")),),
    # The first round goes to the only seat that threw; nobody throws in the second.
    before_the_clock=((0, "paper"),),
    timeouts=2,
    sealed=True,
)

TIC_TAC_TOE = Plan(
    game="tic-tac-toe",
    options={},
    order=lambda view: (view["play"]["x"], view["play"]["o"]),
    opening=(((0, 0),), ((1, 3),), ((0, 1),), ((1, 4),)),
    won=((0, 2),),
    drawn=(((0, 5),), ((1, 2),), ((0, 6),), ((1, 7),), ((0, 8),)),
    # Each time out marks the lowest free cell: the first seat's line 2-4-6 on the seventh.
    before_the_clock=(),
    timeouts=7,
    sealed=False,
)

PLANS = (ROCK_PAPER_SCISSORS, TIC_TAC_TOE)
