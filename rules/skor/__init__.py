"""Skor (docs/skor.md): a two-player grand strategy game played turn by turn on 40 hexes.

The API a game room calls: `roll_setup` and `start` (the public rolls, then both sealed
choices), `act` (one action of one player), `submit_text` (several, stopping at the first
refusal) and `to_move` (the outcome is the state's `ending`); `contract.adjudicate_json`
is the stateless what-if.
"""

from rules.skor.dice import Dice
from rules.skor.engine import Result, act, submit_text, to_move
from rules.skor.setup import Choice, Setup, roll_setup, start
from rules.skor.state import State

__all__ = [
    "Choice",
    "Dice",
    "Result",
    "Setup",
    "State",
    "act",
    "roll_setup",
    "start",
    "submit_text",
    "to_move",
]
