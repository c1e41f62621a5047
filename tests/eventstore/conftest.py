"""What the store contract's files share."""

from collections.abc import AsyncIterator

import pytest

from eventstore.base import EventStore
from eventstore.postgres import PostgresEventStore


@pytest.fixture
async def elsewhere(store: EventStore) -> AsyncIterator[EventStore]:
    """Another store over the same data, as in another process (the memory store has no
    other instance: it is its own)."""
    if not isinstance(store, PostgresEventStore):
        yield store
        return
    async with await type(store).open(store._pool, poll_interval=0.2) as other:
        yield other
