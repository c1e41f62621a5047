"""A batch of the global log folded in memory, game by game, before any of it is written: a
catch-up folds one batch while PostgreSQL writes the one before (projections/runner.py)."""

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from eventstore.base import EventStore
from eventstore.outages import UNREACHABLE
from eventstore.records import BriefEvent, Checkpoint, RecordedEvent
from projections.evolve import fold
from projections.game import SNAPSHOT_NAME, GameState, decode_snapshot
from projections.loading import game_of, state_until, stream_of
from projections.rows import TURN_EVENT_TYPES, GameRows
from projections.states import GameStates
from schema.game_events import GameEvent, TurnRewound, game_codec

# An event of the global log: read in full (a subscription) or brief (a catch-up).
LoggedEvent = BriefEvent | RecordedEvent
# Events folded between two turns of the event loop: about a millisecond's work.
_SLICE = 128
# Games of a batch read from the store at once when their snapshots do not do: a batch of
# games that other processes resolved holds dozens, and read one after the other their
# round trips alone kept the read models seconds behind a burst.
_LOADS_AT_ONCE = 4
_REWOUND = TurnRewound.__struct_config__.tag


@dataclass(slots=True)
class FoldedBatch:
    """A batch's games folded: the rows of each one folded, the error of each one that could
    not be, and the last event of each (the version and position its rows reach)."""

    checkpoint: Checkpoint
    size: int
    last: dict[str, LoggedEvent] = field(default_factory=dict)
    rows: dict[str, GameRows] = field(default_factory=dict)
    errors: dict[str, Exception] = field(default_factory=dict)

    def states(self) -> dict[str, GameState | None]:
        """Each game's state after the batch; None for a game that could not be folded."""
        states: dict[str, GameState | None] = dict.fromkeys(self.errors)
        states.update((game_id, rows.state) for game_id, rows in self.rows.items())
        return states


async def fold_batch(
    store: EventStore,
    states: GameStates,
    batch: Sequence[LoggedEvent],
    before: Callable[[str], GameState | None],
) -> FoldedBatch:
    """Fold each game of `batch` on from `before(game_id)`, the state its rows hold (None
    when unknown: then it is read from the store)."""
    streams: dict[str, list[LoggedEvent]] = {}
    for event in batch:
        streams.setdefault(event.stream_id, []).append(event)
    folded = FoldedBatch(batch[-1].checkpoint, len(batch))
    games = {game_of(stream): events for stream, events in streams.items()}
    loaded = await _load_unknown(store, states, games, before)
    for game_id in sorted(game for game in games if game is not None):
        events = games[game_id]
        folded.last[game_id] = events[-1]
        try:
            folded.rows[game_id] = await _fold(
                store, states, game_id, before(game_id), events, loaded.get(game_id)
            )
        except UNREACHABLE:
            raise
        except Exception as error:
            folded.errors[game_id] = error
    return folded


async def _load_unknown(
    store: EventStore,
    states: GameStates,
    games: dict[str | None, list[LoggedEvent]],
    before: Callable[[str], GameState | None],
) -> dict[str, GameState]:
    """The states after the batch of the games whose states nothing here knows (another
    process resolved them: the runner leads in one process only), read from the store
    together. Each is read as of its last event in the batch, where a resolution left a
    snapshot: their snapshots come in one round trip, and nothing is folded from older
    ones. A game whose snapshot is older is read on its own, a few at a time. A game the
    batch rewinds, or whose versions skip, is left to `_fold`; so is one whose read fails,
    which `_fold` reads again and fails as it should."""
    unknown = {
        game_id: events[-1].version
        for game_id, events in games.items()
        if game_id is not None
        and before(game_id) is None
        # A game's first events fold from nothing, with nothing to read (a rebuild's).
        and events[0].version > 1
        and states.at(game_id, events[-1].version, events[-1].position) is None
        and all(e.version == events[0].version + n for n, e in enumerate(events))
        and not any(e.type == _REWOUND for e in events)
    }
    if len(unknown) < 2:
        return {}
    found: dict[str, GameState] = {}
    wanted = {stream_of(game_id): version for game_id, version in unknown.items()}
    for snapshot in await store.load_snapshots(SNAPSHOT_NAME, wanted):
        game_id = game_of(snapshot.stream_id)
        assert game_id is not None
        state = decode_snapshot(snapshot.data, snapshot.version)
        if state is not None and state.version == unknown[game_id]:
            found[game_id] = state
    gate = asyncio.Semaphore(_LOADS_AT_ONCE)

    async def load(game_id: str, version: int) -> GameState:
        async with gate:
            return await state_until(store, game_id, version)

    rest = [(game_id, version) for game_id, version in unknown.items() if game_id not in found]
    loaded = await asyncio.gather(*(load(*game) for game in rest), return_exceptions=True)
    found.update(
        (game_id, state)
        for (game_id, _), state in zip(rest, loaded, strict=True)
        if isinstance(state, GameState)
    )
    return found


async def _fold(
    store: EventStore,
    states: GameStates,
    game_id: str,
    before: GameState | None,
    events: list[LoggedEvent],
    loaded: GameState | None = None,
) -> GameRows:
    """The game's rows moved on by its events in this batch, in memory; `loaded`, its state
    after them if already read from the store."""
    rows = GameRows(game_id, before=before)
    last = events[-1]
    # The state GameService of this process folded up to this very event, if any.
    known = states.at(game_id, last.version, last.position)
    if known is None:
        known = loaded
    state = before
    for start in range(0, len(events), _SLICE):
        part = events[start : start + _SLICE]
        # With the state known, only the events that move the rows are read: a resolution's
        # notices and a game's own steps (an Art of War turn's is some 90 kB) are not.
        read = part if known is None else [e for e in part if e.type in TURN_EVENT_TYPES]
        decoded = game_codec.decode_all(read)
        for event in decoded:
            rows.add(event)
        if known is None:
            state = await _state_after(store, game_id, state, part, decoded)
        # A write under way (the batch before, in a catch-up) moves on to its next statement
        # as soon as the one before is answered: PostgreSQL works on it while this folds.
        await asyncio.sleep(0)
    rows.state, rows.position = state if known is None else known, last.position
    return rows


async def _state_after(
    store: EventStore,
    game_id: str,
    state: GameState | None,
    events: list[LoggedEvent],
    decoded: list[GameEvent],
) -> GameState:
    """`state` moved on by the game's events, folded a run of consecutive versions at a time;
    read from the store where the state is unknown, where a version does not follow the one
    before (a rewind elsewhere), and at a rewind, since a fold cannot run backwards."""
    head = None if state is None else state.version
    run: list[tuple[int, GameEvent]] = []
    for recorded, event in zip(events, decoded, strict=True):
        version = recorded.version
        rewound = isinstance(event, TurnRewound)
        if rewound or head != version - 1:
            if run:
                assert state is not None  # a run follows a known state
                state, run = fold(state, run), []
            # At a rewind, the game as its stream holds it now, the rewind included.
            state = await state_until(store, game_id, version if rewound else version - 1)
            head = state.version
            if rewound:
                continue
        run.append((version, event))
        head = version
    if run:
        assert state is not None
        state = fold(state, run)
    assert state is not None  # there is at least one event
    return state
