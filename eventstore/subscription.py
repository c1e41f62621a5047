"""Following the log: catch up, then sleep until woken, with polling as the safety net.

A subscription owns a cursor and a `fetch` that returns the next events after it (advancing
it), so it can never deliver an event twice; gap-safety is the store's read. A wake-up is only
a hint to fetch now: one that arrives while fetching is kept, because the flag is cleared
*before* each fetch.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Iterable
from types import TracebackType
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from eventstore.records import RecordedEvent

# The next events after the cursor (advancing it), and whether more have committed but are
# held back for now (the global log waits for older transactions): then look again soon.
Fetch = Callable[[], Awaitable[tuple[list["RecordedEvent"], bool]]]

MAX_BACKOFF_SECONDS = 2.0
HELD_BACK_RETRY_SECONDS = 0.01


class Wakeups:
    """The open subscriptions of one store, by stream (None: the whole log)."""

    def __init__(self) -> None:
        self._followers: dict[str | None, set[Subscription]] = defaultdict(set)

    def add(self, subscription: Subscription) -> None:
        self._followers[subscription.stream_id].add(subscription)

    def discard(self, subscription: Subscription) -> None:
        followers = self._followers.get(subscription.stream_id)
        if followers is not None:
            followers.discard(subscription)
            if not followers:
                del self._followers[subscription.stream_id]

    def wake(self, stream_ids: Iterable[str] | None) -> None:
        """Wake the followers of these streams and of the whole log; None wakes everyone."""
        if stream_ids is None:
            for followers in self._followers.values():
                for subscription in followers:
                    subscription.wake()
            return
        for subscription in self._followers.get(None, ()):
            subscription.wake()
        for stream_id in stream_ids:
            for subscription in self._followers.get(stream_id, ()):
                subscription.wake()

    def close_all(self) -> None:
        for followers in list(self._followers.values()):
            for subscription in list(followers):
                subscription.close()


class Subscription:
    """An async iterator of recorded events: every event after the start, once, in order.

    Use it as `async with store.subscribe(...) as events: async for event in events: ...`.
    Errors in `transient` (a lost database) are retried with backoff until it comes back.
    """

    def __init__(
        self,
        *,
        stream_id: str | None,
        fetch: Fetch,
        start: Callable[[], Awaitable[None]],
        wakeups: Wakeups,
        poll_interval: float,
        transient: tuple[type[Exception], ...],
    ) -> None:
        self.stream_id = stream_id
        self._fetch = fetch
        self._start = start
        self._wakeups = wakeups
        self._poll_interval = poll_interval
        self._transient = transient
        self._flag = asyncio.Event()
        self._buffer: deque[RecordedEvent] = deque()
        self._started = False
        self._closed = False
        self._failures = 0
        self._held_back = 0
        # Set while it has read everything there is and waits for more: a projection can
        # await it to know it is up to date, a test to know it is listening.
        self.caught_up = asyncio.Event()
        # Registered now, not on first use, so that no wake-up after this point is lost.
        wakeups.add(self)

    def wake(self) -> None:
        self._flag.set()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._wakeups.discard(self)
            self._flag.set()

    @property
    def closed(self) -> bool:
        return self._closed

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> RecordedEvent:
        while not self._buffer:
            if not await self._fill():
                raise StopAsyncIteration
        return self._buffer.popleft()

    async def next_batch(self) -> list[RecordedEvent]:
        """Every event available now, waiting for at least one; [] once closed. Safe to cut
        short (a timeout, say): a fetch moves the cursor only once its events are in hand,
        and nothing waits between that and returning them."""
        while not self._buffer:
            if not await self._fill():
                return []
        batch = list(self._buffer)
        self._buffer.clear()
        return batch

    async def _fill(self) -> bool:
        if self._closed:
            return False
        if not self._started:
            await self._start()
            self._started = True
        self._flag.clear()
        try:
            batch, held_back = await self._fetch()
        except self._transient:
            self._failures += 1
            await self._sleep(min(MAX_BACKOFF_SECONDS, 0.05 * 2**self._failures))
            return not self._closed
        self._failures = 0
        if batch:
            self._buffer.extend(batch)
            self._held_back = 0
            self.caught_up.clear()
        elif held_back:
            # A notification came before the events could be read: no other will follow.
            self._held_back += 1
            delay = HELD_BACK_RETRY_SECONDS * 2 ** min(self._held_back, 6)
            await self._sleep(min(delay, self._poll_interval))
        else:
            self.caught_up.set()
            await self._sleep(self._poll_interval)
        return not self._closed

    async def _sleep(self, seconds: float) -> None:
        """Until woken, closed, or `seconds` have passed (the poll that catches what no
        notification announced, such as a commit held back by an older transaction)."""
        try:
            async with asyncio.timeout(seconds):
                await self._flag.wait()
        except TimeoutError:
            pass

    async def __aenter__(self) -> Self:
        if not self._started:
            await self._start()
            self._started = True
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
