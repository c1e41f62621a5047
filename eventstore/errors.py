"""The errors the store raises on purpose (the contract in eventstore.base)."""

from collections.abc import Sequence
from uuid import UUID


class EventStoreError(Exception):
    """Base of every error the store raises on purpose."""


class InvalidRequestError(EventStoreError, ValueError):
    """The arguments can never succeed: an empty batch, a bad name, a naive datetime..."""


class EventTooLargeError(InvalidRequestError):
    """An event, or an append in all, is past the store's bound: nothing was written."""


class ConcurrencyError(EventStoreError):
    """The stream is not at the expected version, or its last event is not the expected one:
    someone else appended first, or rewound it. `actual_position` is the position of the
    stream's last event when the store knows it."""

    def __init__(
        self,
        stream_id: str,
        expected: int | None,
        actual: int,
        *,
        expected_position: int | None = None,
        actual_position: int | None = None,
    ) -> None:
        if expected == actual and expected_position is not None:
            message = (
                f"stream {stream_id!r} is at version {actual} but its last event is at "
                f"position {actual_position}, expected {expected_position}: it was rewound"
            )
        else:
            message = f"stream {stream_id!r} is at version {actual}, expected {expected}"
        super().__init__(message)
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        self.expected_position = expected_position
        self.actual_position = actual_position


class DuplicateEventError(EventStoreError):
    """Some, but not all, events of a batch were appended before: not a plain re-send."""

    def __init__(self, stream_id: str, event_ids: Sequence[UUID]) -> None:
        listed = ", ".join(str(event_id) for event_id in event_ids)
        super().__init__(f"stream {stream_id!r} already holds events {listed}")
        self.stream_id = stream_id
        self.event_ids = tuple(event_ids)


class StoreUnavailableError(EventStoreError):
    """The database could not be reached, even after retrying."""
