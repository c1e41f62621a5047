"""The async shell around the decider: load, fold, decide, append with the expected
version and head, and retry when another writer got there first."""

import asyncio
import time
import uuid
import weakref
from collections.abc import Callable

import msgspec

from eventstore.base import EventStore
from eventstore.errors import ConcurrencyError
from eventstore.records import NewEvent, NewSnapshot, RecordedEvent
from projections.game import SNAPSHOT_NAME, GameState, decode_snapshot
from projections.loading import stream_of
from projections.schedule import Due
from projections.states import GameStates, Loaded
from schema import errors as codes
from schema.commands import GameCommand, RewindTurn
from schema.errors import Refusal
from schema.game_events import TurnResolved, game_codec
from schema.refusals import Conflict
from server.game.decide import RewindPlan, plan_rewind
from server.game.deciding import Decided, continues, decide_in_turn, folded, new_events, snapshot_of
from server.game.homes import Homes
from server.game.outcome import Outcome

_PAGE = 1000
# The archive's reason for a rewind whose admin gave none (the archive always holds one).
NO_REASON = "admin rewind"
# Races lost in a row on a state just read, after which a command holds the game's stream to
# append: one process can keep beating another to every append (its kept state is the head,
# and its next append goes one round trip after its last), while holding the stream makes
# the others wait, so it is kept for such runs of bad luck.
_HOLD_AFTER_LOSSES = 3


class Busy(Refusal):
    def __init__(self, message: str) -> None:
        super().__init__(codes.BUSY, message)


class GameService:
    """Runs commands against games. One per process; it keeps the states it folded in
    `states`, which the process's read-model runner shares."""

    def __init__(
        self,
        store: EventStore,
        *,
        attempts: int = 100,
        states: GameStates | None = None,
        on_resolved: Callable[[float], None] | None = None,
    ) -> None:
        self.store = store
        self.states = states or GameStates()
        # Told how many seconds each resolution took (server/http/metrics.py).
        self._on_resolved = on_resolved
        self._attempts = attempts
        # One lock per game being written to; a lock nobody holds or waits for is dropped.
        self._writing: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # The commands waiting for each game's lock: the next to take it runs them all.
        self._waiting: dict[str, list[_Waiting]] = {}
        # With several workers, the one each game's commands run in (set once they listen).
        self.homes: Homes | None = None

    async def load(self, game_id: str) -> Loaded:
        stream = stream_of(game_id)
        cached = self.states.latest(game_id)
        if cached is not None:
            events = await self._read_after_position(stream, cached.position)
            if continues(cached.state.version, events):
                return self.states.remember(game_id, folded(cached, events))
        snapshot, events = await self.store.read_from_snapshot(stream, SNAPSHOT_NAME)
        loaded = Loaded(GameState(), 0)
        if snapshot is not None:
            state = decode_snapshot(snapshot.data, snapshot.version)
            if state is None:
                # Of an older shape: fold the whole stream instead.
                events = await self.store.read_stream(stream)
            else:
                loaded = Loaded(state, snapshot.position)
        return self.states.remember(game_id, folded(loaded, events))

    async def act(self, game_id: str, command: GameCommand) -> Outcome[Due]:
        """The command run in its game's home (server/game/homes.py): what it appended. For
        callers that need no more than that."""
        if self.homes is not None:
            acted = await self.homes.forward(game_id, command)
            if acted is not None:
                return acted
        return await self.act_here(game_id, command)

    async def act_here(self, game_id: str, command: GameCommand) -> Outcome[Due]:
        executed = await self.execute(game_id, command)
        return Outcome(executed.events, executed.position, executed.state.due())

    async def execute(self, game_id: str, command: GameCommand) -> Outcome[GameState]:
        # A duration for the metrics, not a time of the game: not the injected clock.
        started = time.perf_counter()
        answer: asyncio.Future[Outcome[GameState]] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game_id, []).append(_Waiting(command, answer))
        try:
            async with self._lock_of(game_id):
                if not answer.done():
                    await self._execute_waiting(game_id, self._waiting.pop(game_id))
        except asyncio.CancelledError:
            answer.cancel()  # not run, if it had not been yet
            waiting = self._waiting.get(game_id, [])
            if all(w.answer.done() for w in waiting):
                self._waiting.pop(game_id, None)  # nobody left to run them
            raise
        executed = await answer
        if self._on_resolved and any(isinstance(e, TurnResolved) for e in executed.events):
            self._on_resolved(time.perf_counter() - started)
        return executed

    def _lock_of(self, game_id: str) -> asyncio.Lock:
        # Commands to one game from this process take turns: racing each other they would
        # mostly lose (one append per version wins), and each lost race costs two round
        # trips. Other processes' writers are still met by the expected version.
        lock = self._writing.get(game_id)
        if lock is None:
            lock = self._writing[game_id] = asyncio.Lock()
        return lock

    async def _execute_waiting(self, game_id: str, waiting: list["_Waiting"]) -> None:
        """Run every command that waited for the game's lock, in turn, as one append: while
        one append is under way the game's other commands queue, and appending them one by
        one would cost each a round trip, and the last the wait for all before it. Each
        caller gets its own events or error, and the state and position after the append."""
        waiting = [w for w in waiting if not w.answer.done()]
        outcomes: list[Outcome[GameState] | Exception]
        try:
            outcomes = [*await self._execute(game_id, [w.command for w in waiting])]
        except Exception as error:
            outcomes = [error] * len(waiting)
        except BaseException:
            for w in waiting:
                w.answer.cancel()
            raise
        for w, outcome in zip(waiting, outcomes, strict=True):
            if w.answer.done():
                continue
            if isinstance(outcome, Outcome):
                w.answer.set_result(outcome)
            else:
                w.answer.set_exception(outcome)

    async def _execute(
        self, game_id: str, commands: list[GameCommand]
    ) -> list[Outcome[GameState] | Refusal]:
        correlations = [uuid.uuid4() for _ in commands]
        # The kept state is decided on without a read: the append expects its last event to
        # be the stream's last still (a version alone could be one reused after a rewind
        # elsewhere), so a stale state is refused there, and read on from. Only its events
        # are taken on trust: a refusal, or nothing to do, is decided again on a state read
        # up to date, as it may be the stale state's answer.
        loaded = self.states.latest(game_id)
        read = loaded is None
        lost = 0
        for _ in range(self._attempts):
            if loaded is None:
                loaded, read = await self.load(game_id), True
            if lost >= _HOLD_AFTER_LOSSES:
                try:
                    answers = await self._execute_held(game_id, loaded, commands, correlations)
                except ConcurrencyError:
                    answers = None
                if answers is not None:
                    return answers
                loaded = None
                continue
            decided, state = decide_in_turn(loaded.state, commands)
            if not read and not all(isinstance(d, list) and d for d in decided):
                loaded = None
                continue
            new = new_events(commands, correlations, decided)
            if not new:
                return [_answer(d, loaded.state, loaded.position) for d in decided]
            try:
                result = await self.store.append(
                    stream_of(game_id),
                    new,
                    loaded.state.version,
                    expected_position=loaded.position,
                    snapshot=snapshot_of(decided, state),
                )
            except ConcurrencyError:
                # The cached state stays: the next load reads on from it, and reloads from
                # the snapshot only if the stream no longer follows on (a rewind). Dropping
                # it made every lost race fold the whole turn again from the last snapshot,
                # which under contention cost more than all the rest. No wait before the
                # next try: the process that won appends again one round trip later, from
                # its own state, so a loser that waited lost again (with two workers on one
                # game, one worker's players waited 0.3-0.8 s at the p99).
                if read:
                    lost += 1
                loaded = None
                continue
            self.states.remember(game_id, Loaded(state, result.position))
            return [_answer(d, state, result.position) for d in decided]
        raise Busy("the game is too busy right now; try again")

    async def _execute_held(
        self,
        game_id: str,
        loaded: Loaded,
        commands: list[GameCommand],
        correlations: list[uuid.UUID],
    ) -> list[Outcome[GameState] | Refusal] | None:
        """The commands decided on what the game's stream holds and appended with it held
        (EventStore.append_held): for a process that keeps losing the race to another
        process's appends, which could otherwise go on for every attempt. None when the
        stream no longer follows on from `loaded` (a rewind elsewhere)."""
        taken: list[tuple[list[Decided], Loaded, GameState]] = []

        def decide_held(
            missed: list[RecordedEvent],
        ) -> tuple[list[NewEvent], NewSnapshot | None] | None:
            if not continues(loaded.state.version, missed):
                return None
            current = folded(loaded, missed)
            decided, state = decide_in_turn(current.state, commands)
            taken.append((decided, current, state))
            new = new_events(commands, correlations, decided)
            return (new, snapshot_of(decided, state)) if new else None

        result = await self.store.append_held(stream_of(game_id), loaded.position, decide_held)
        if not taken:
            return None
        [(decided, current, state)] = taken
        if result is None:
            return [_answer(d, current.state, current.position) for d in decided]
        self.states.remember(game_id, Loaded(state, result.position))
        return [_answer(d, state, result.position) for d in decided]

    async def rewind(self, game_id: str, command: RewindTurn) -> Outcome[GameState]:
        """Undo the last resolution: its events and everything after go to the archive, and
        a `TurnRewound` takes their place, in one transaction. The truncation expects the
        stream at the version the plan was made from, so two admins rewinding at once (in
        any processes) undo one turn, and the second is told the game changed. Players
        writing meanwhile only move the stream on: the rewind plans again and retries, as
        long as it still undoes the same resolution."""
        async with self._lock_of(game_id):
            first_plan: RewindPlan | None = None
            for _ in range(self._attempts):
                loaded = await self.load(game_id)
                plan = plan_rewind(loaded.state, command)
                if first_plan is not None and plan.after_version != first_plan.after_version:
                    raise Conflict(
                        codes.GAME_CHANGED,
                        "the game changed while you were rewinding (another admin may have "
                        "rewound it already): nothing was undone; look at the game again",
                    )
                first_plan = first_plan or plan
                try:
                    await self._truncate(game_id, plan, command, loaded.state.version)
                except ConcurrencyError:
                    continue
                finally:
                    self.states.forget(game_id)
                reloaded = await self.load(game_id)
                return Outcome([plan.rewound], reloaded.position, reloaded.state)
        raise Busy("the game is too busy to rewind right now; try again")

    async def _truncate(
        self, game_id: str, plan: RewindPlan, command: RewindTurn, expected_version: int
    ) -> None:
        marker = game_codec.new_event(
            plan.rewound,
            occurred_at=command.now,
            actor=command.actor.account,
            correlation_id=uuid.uuid4(),
        )
        await self.store.truncate(
            stream_of(game_id),
            plan.after_version,
            truncated_by=command.actor.account,
            reason=plan.rewound.reason or NO_REASON,
            truncated_at=command.now,
            then_append=[marker],
            expected_version=expected_version,
        )

    async def _read_after_position(self, stream: str, position: int) -> list[RecordedEvent]:
        events: list[RecordedEvent] = []
        while True:
            batch = await self.store.read_stream_after_position(stream, position, limit=_PAGE)
            events.extend(batch)
            if len(batch) < _PAGE:
                return events
            position = batch[-1].position


class _Waiting(msgspec.Struct, frozen=True):
    command: GameCommand
    answer: "asyncio.Future[Outcome[GameState]]"


def _answer(decided: Decided, state: GameState, position: int) -> Outcome[GameState] | Refusal:
    return decided if isinstance(decided, Refusal) else Outcome(decided, position, state)
