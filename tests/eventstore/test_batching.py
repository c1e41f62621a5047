"""The combiner on its own: who waits, what goes out together, who gets which answer."""

import asyncio
from collections.abc import Iterator

from eventstore.batching import AppendCombiner, AppendRequest, Outcome
from eventstore.errors import ConcurrencyError
from eventstore.records import AppendResult
from tests.support import new_event


class RecordingWriter:
    """Writes nothing: answers each request with a result, or a conflict for stream "bad",
    after the test lets the write finish."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.release = asyncio.Event()
        self._written = asyncio.Condition()
        self._positions: Iterator[int] = iter(range(1, 1000))

    async def wait_for_writes(self, count: int) -> None:
        async with self._written:
            await self._written.wait_for(lambda: len(self.writes) >= count)

    async def __call__(self, requests: list[AppendRequest]) -> list[Outcome]:
        self.writes.append([request.stream_id for request in requests])
        async with self._written:
            self._written.notify_all()
        await self.release.wait()
        return [self._answer(request) for request in requests]

    def _answer(self, request: AppendRequest) -> Outcome:
        if request.stream_id == "bad":
            return ConcurrencyError("bad", request.expected_version, 7)
        position = next(self._positions)
        return AppendResult(
            stream_id=request.stream_id, version=1, position=position, transaction_id=1
        )


def _request(stream_id: str) -> AppendRequest:
    return AppendRequest(stream_id, (new_event(),), None)


async def test_while_a_write_is_under_way_everything_waits_then_goes_out_together() -> None:
    writer = RecordingWriter()
    combiner = AppendCombiner(writer, max_in_flight=1)
    first = asyncio.create_task(combiner.append(_request("a")))
    others = [asyncio.create_task(combiner.append(_request(s))) for s in ("a", "b", "a", "bad")]
    async with asyncio.timeout(5):
        await writer.wait_for_writes(1)
        writer.release.set()
        result = await first
        outcomes = await asyncio.gather(*others, return_exceptions=True)
        await combiner.close()

    assert writer.writes == [["a"], ["a", "b", "a", "bad"]]
    assert result.stream_id == "a"
    assert [getattr(o, "stream_id", None) for o in outcomes[:3]] == ["a", "b", "a"]
    assert isinstance(outcomes[3], ConcurrencyError)


async def test_a_busy_stream_waits_while_free_streams_go_at_once() -> None:
    writer = RecordingWriter()
    combiner = AppendCombiner(writer, max_in_flight=4)
    tasks = [asyncio.create_task(combiner.append(_request(s))) for s in ("a", "a", "b", "c")]
    async with asyncio.timeout(5):
        await writer.wait_for_writes(2)
        assert writer.writes == [["a"], ["b", "c"]]
        writer.release.set()
        await asyncio.gather(*tasks)
        await combiner.close()
    assert writer.writes == [["a"], ["b", "c"], ["a"]]


async def test_callers_that_append_again_at_once_join_one_write() -> None:
    sizes: list[int] = []

    async def write(requests: list[AppendRequest]) -> list[Outcome]:
        sizes.append(len(requests))
        await asyncio.sleep(0.001)  # a round trip to the database
        return [
            AppendResult(stream_id=r.stream_id, version=1, position=1, transaction_id=1)
            for r in requests
        ]

    combiner = AppendCombiner(write, max_in_flight=1)

    async def writer_of_one_stream() -> None:
        for _ in range(5):
            await combiner.append(_request("s"))

    async with asyncio.timeout(5):
        await asyncio.gather(*(writer_of_one_stream() for _ in range(4)))
    # The first goes alone, the three behind it together; from then on all four come back
    # before the queue goes out.
    assert sizes == [1, 4, 4, 4, 4, 3]


async def test_without_contention_each_append_goes_alone_at_once() -> None:
    writer = RecordingWriter()
    writer.release.set()
    combiner = AppendCombiner(writer, max_in_flight=2)
    for stream_id in ("a", "b", "a"):
        await combiner.append(_request(stream_id))
    assert writer.writes == [["a"], ["b"], ["a"]]


async def test_a_caller_who_gives_up_before_its_batch_leaves_is_not_written() -> None:
    writer = RecordingWriter()
    combiner = AppendCombiner(writer, max_in_flight=1)
    first = asyncio.create_task(combiner.append(_request("a")))
    quitter = asyncio.create_task(combiner.append(_request("q")))
    stayer = asyncio.create_task(combiner.append(_request("s")))
    async with asyncio.timeout(5):
        await writer.wait_for_writes(1)
        quitter.cancel()
        writer.release.set()
        await first
        await stayer
        await combiner.close()
    assert writer.writes == [["a"], ["s"]]


async def test_closing_waits_for_appends_still_queued() -> None:
    writer = RecordingWriter()
    combiner = AppendCombiner(writer, max_in_flight=1)
    first = asyncio.create_task(combiner.append(_request("a")))
    queued = asyncio.create_task(combiner.append(_request("b")))
    async with asyncio.timeout(5):
        await writer.wait_for_writes(1)
        # The first write ends and the store closes in the same turn of the event loop,
        # before the queued append has left.
        writer.release.set()
        await combiner.close()
        assert queued.done()
        await first
    assert writer.writes == [["a"], ["b"]]


async def test_queued_appends_go_out_in_writes_of_at_most_max_bytes() -> None:
    writer = RecordingWriter()
    size = _request("a").size
    combiner = AppendCombiner(writer, max_in_flight=1, max_bytes=2 * size)
    first = asyncio.create_task(combiner.append(_request("a")))
    queued = [asyncio.create_task(combiner.append(_request(s))) for s in ("b", "c", "d", "e")]
    async with asyncio.timeout(5):
        await writer.wait_for_writes(1)
        writer.release.set()
        await first
        await asyncio.gather(*queued)
        await combiner.close()
    assert writer.writes == [["a"], ["b", "c"], ["d", "e"]]
