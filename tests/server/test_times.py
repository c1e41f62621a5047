"""Times as people read them: hours, time zones, spans and moments."""

from datetime import UTC, datetime, timedelta

import pytest

from server.game.times import duration, hour_label, moment, offset_label


@pytest.mark.parametrize(
    ("hour", "label"),
    [(0, "12AM (00:00)"), (6, "6AM (06:00)"), (12, "12PM (12:00)"), (14, "2PM (14:00)"),
     (23, "11PM (23:00)")],
)  # fmt: skip
def test_hour_label(hour: int, label: str) -> None:
    assert hour_label(hour) == label


def test_offset_label() -> None:
    assert [offset_label(o) for o in (0, 2, -3, 12)] == ["UTC", "UTC+2", "UTC-3", "UTC+12"]


@pytest.mark.parametrize(
    ("span", "shown"),
    [
        (timedelta(seconds=30), "under a minute"),
        (timedelta(minutes=15), "15m"),
        (timedelta(hours=3, minutes=20), "3h 20m"),
        (timedelta(hours=3), "3h"),
        (timedelta(days=2, hours=4, minutes=9), "2d 4h"),
    ],
)
def test_duration(span: timedelta, shown: str) -> None:
    assert duration(span) == shown


def test_moment_shows_utc_the_local_time_and_how_long_until() -> None:
    at = datetime(2030, 1, 2, 12, 0, tzinfo=UTC)
    now = at - timedelta(hours=3, minutes=20)
    assert moment(at, now, 2) == "2030-01-02 12:00 UTC (2PM local time, in 3h 20m)"
    assert moment(at, at, -12) == "2030-01-02 12:00 UTC (12AM local time, due now)"
    fast = at + timedelta(minutes=15)
    assert moment(fast, at, 0) == "2030-01-02 12:15 UTC (12:15 local time, in 15m)"
