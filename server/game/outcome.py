"""The outcome of a command run against a game (server/game/handlers.py), for every caller:
the HTTP routes, the text commands, the scheduler, and the worker a game's home answers
(server/game/homes.py)."""

from typing import Generic, TypeVar

import msgspec

from projections.game import GameState
from projections.schedule import Due
from schema.game_events import GameEvent

# How much of the game comes back: the whole state from a command run in this process, or
# only when the game falls due next from one run in the game's home, another worker (its
# state would cost every forwarded command a frame as large as the game, and the routes
# and the scheduler that forward commands need no more).
G = TypeVar("G", GameState, Due)


class Outcome(msgspec.Struct, Generic[G], frozen=True):
    """The events a command appended (none when it had nothing to do), the position of the
    game's last event after them, and the game as the command left it."""

    events: list[GameEvent]
    position: int
    state: G
