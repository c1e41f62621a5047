"""Where a game's events live, and reading a game's state from them."""

from eventstore.base import EventStore
from projections.evolve import fold
from projections.game import SNAPSHOT_NAME, GameState, decode_snapshot
from schema.game_events import game_codec

_PREFIX = "game-"


def stream_of(game_id: str) -> str:
    """The stream that holds a game's events."""
    return _PREFIX + game_id


def game_of(stream_id: str) -> str | None:
    """The game whose events a stream holds, or None for any other stream."""
    return stream_id.removeprefix(_PREFIX) if stream_id.startswith(_PREFIX) else None


async def state_until(store: EventStore, game_id: str, version: int) -> GameState:
    """The game as its stream holds it now, up to `version` and no further (for a follower
    that folds the later events itself): the latest snapshot at or below it, then the rest."""
    stream = stream_of(game_id)
    state = GameState()
    if version == 0:
        return state  # before its first event: nothing to read (a catch-up meets each game so)
    snapshot = await store.load_snapshot(stream, SNAPSHOT_NAME, at_or_below=version)
    if snapshot is not None:
        state = decode_snapshot(snapshot.data, snapshot.version) or state
    if version <= state.version:
        return state
    events = await store.read_stream(
        stream, after_version=state.version, limit=version - state.version
    )
    return fold(state, ((e.version, game_codec.decode_recorded(e)) for e in events))
