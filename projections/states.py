"""The games' states this process folded last, shared by whoever folds them.

GameService folds a game to run a command on it, and the read-model runner folds the same
game again a moment later to write its rows; both keep their states here, so that neither
loads from the store what the other just folded. Bounded: the least recently used games
go first.

An entry is the state up to the event at (version, position). A state is never trusted
blindly: positions are never reused, and a truncation moves every later event to the
archive, so an entry is the stream's state up to that version exactly while the event at
that version still has that position. GameService reads the events after the position and
folds on only when they continue the version one by one (a rewind elsewhere breaks that);
the runner takes a state only when it is at the very event it applies.
"""

from collections import OrderedDict

import msgspec

from projections.game import GameState


class Loaded(msgspec.Struct, frozen=True):
    state: GameState
    # The global position of the game's last event (0 for none).
    position: int


# Games whose states a cache keeps, by default (GameService's, in each server process): a
# state of 20 players on a map of their own takes about a quarter of a megabyte.
KEPT_STATES = 1000


class GameStates:
    def __init__(self, size: int = KEPT_STATES) -> None:
        self._size = size
        self._games: OrderedDict[str, Loaded] = OrderedDict()

    def latest(self, game_id: str) -> Loaded | None:
        """The latest state known of the game, to be read on from its position."""
        return self._games.get(game_id)

    def at(self, game_id: str, version: int, position: int) -> GameState | None:
        """The game's state up to its event at (version, position), if that is the one
        kept."""
        kept = self._games.get(game_id)
        if kept is None or kept.state.version != version or kept.position != position:
            return None
        self._games.move_to_end(game_id)
        return kept.state

    def remember(self, game_id: str, loaded: Loaded) -> Loaded:
        """Keep the state, which its folder has just checked against the stream."""
        self._games[game_id] = loaded
        self._games.move_to_end(game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)
        return loaded

    def offer(self, game_id: str, loaded: Loaded) -> None:
        """Keep the state unless one of a later event is kept: a follower of the log may
        be behind the game's writer."""
        kept = self._games.get(game_id)
        if kept is None or kept.position < loaded.position:
            self.remember(game_id, loaded)

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def clear(self) -> None:
        self._games.clear()
