"""Token buckets on a fake clock: bursts, refilling, waiting, and a bounded table."""

from datetime import UTC, datetime, timedelta

import pytest

from server.accounts.ratelimit import Rate, TokenBuckets
from server.clock import FakeClock

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def buckets(rate: Rate, max_keys: int = 1000) -> tuple[TokenBuckets, FakeClock]:
    clock = FakeClock(START)
    return TokenBuckets(rate, clock, max_keys=max_keys), clock


def test_a_burst_then_one_token_per_interval() -> None:
    table, clock = buckets(Rate(3, 6))
    assert [table.take(["ann"]) for _ in range(3)] == [0, 0, 0]
    # Empty: the next token comes in 2 s (3 every 6 s).
    assert table.take(["ann"]) == pytest.approx(2.0)
    clock.advance(1.5)
    assert table.take(["ann"]) == pytest.approx(0.5)
    clock.advance(0.5)
    assert table.take(["ann"]) == 0
    assert table.take(["ann"]) == pytest.approx(2.0)
    # Idle long enough, the bucket is full again: never more than the burst.
    clock.advance(3600)
    assert [table.take(["ann"]) for _ in range(3)] == [0, 0, 0]
    assert table.take(["ann"]) > 0


def test_keys_have_buckets_of_their_own() -> None:
    table, _ = buckets(Rate(1, 60))
    assert table.take(["ann"]) == 0
    assert table.take(["ann"]) == pytest.approx(60)
    assert table.take(["bob"]) == 0


def test_several_keys_are_charged_all_or_nothing() -> None:
    table, clock = buckets(Rate(2, 10))
    assert table.take(["ann", "home"]) == 0
    assert table.take(["bob", "home"]) == 0
    # The address is spent: Cy is refused, and his own bucket is not charged for it.
    assert table.take(["cy", "home"]) == pytest.approx(5)
    assert table.take(["cy"]) == 0
    assert table.take(["cy"]) == 0
    assert table.take(["cy"]) == pytest.approx(5)
    # The wait is the longest of them.
    clock.advance(5)
    assert table.take(["cy", "home"]) == 0
    assert table.take(["ann", "home"]) == pytest.approx(5)


def test_refused_attempts_cost_nothing() -> None:
    table, clock = buckets(Rate(1, 10))
    assert table.take(["ann"]) == 0
    for _ in range(100):
        assert table.take(["ann"]) > 0
    clock.advance(10)
    assert table.take(["ann"]) == 0


def test_a_clock_that_goes_back_refills_nothing() -> None:
    table, clock = buckets(Rate(1, 10))
    clock.advance(5)
    assert table.take(["ann"]) == 0
    clock.set(START)
    assert table.take(["ann"]) == pytest.approx(10)
    clock.set(START + timedelta(seconds=5))
    assert table.take(["ann"]) == pytest.approx(10)
    clock.advance(10)
    assert table.take(["ann"]) == 0


def test_full_buckets_are_forgotten() -> None:
    table, clock = buckets(Rate(2, 10))
    table.take(["ann"])
    table.take(["bob"])
    assert len(table) == 2
    clock.advance(5)
    # Ann's and Bob's buckets are full again by now, as good as new: gone.
    table.take(["cy"])
    assert len(table) == 1


def test_a_flood_of_keys_cannot_grow_the_table_beyond_its_bound() -> None:
    table, clock = buckets(Rate(5, 3600), max_keys=100)
    for n in range(10_000):
        assert table.take([f"address {n}"]) == 0
        clock.advance(0.001)
    assert len(table) == 100
    # The most recent keys are the ones kept.
    for _ in range(4):
        assert table.take(["address 9999"]) == 0
    assert table.take(["address 9999"]) > 0


@pytest.mark.parametrize(
    ("text", "rate", "per_second"),
    [
        ("60/6", Rate(60, 6), 10),
        ("20/3600", Rate(20, 3600), 20 / 3600),
        (" 1/0.5 ", Rate(1, 0.5), 2),
    ],
)
def test_rates_are_written_n_per_s(text: str, rate: Rate, per_second: float) -> None:
    assert Rate.parse(text) == rate
    assert rate.per_second == pytest.approx(per_second)


@pytest.mark.parametrize("text", ["", "60", "60/", "/6", "0/6", "60/0", "60/700000", "-1/6", "a/b"])
def test_a_bad_rate_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"N/S|count|seconds"):
        Rate.parse(text)
