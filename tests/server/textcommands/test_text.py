"""The reply helpers: defused mentions, Discord's length limit, hours and times."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.textcommands.text import (
    DISCORD_LIMIT,
    clip,
    duration,
    fit,
    hour_label,
    moment,
    offset_label,
    ordinal,
    plural,
    safe,
)

ZW = "\u200b"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("hello @everyone", f"hello @{ZW}everyone"),
        ("@HERE now", f"@{ZW}HERE now"),
        ("ask <@123> or <@!456>", f"ask <{ZW}@123> or <{ZW}@!456>"),
        ("the <@&789> role", f"the <{ZW}@&789> role"),
        ("/join_forces <@name or player id>", "/join_forces <@name or player id>"),
        ("mail me at ann@example.com", "mail me at ann@example.com"),
    ],
)
def test_safe_defuses_mentions_only(text: str, shown: str) -> None:
    assert safe(text) == shown


def test_fit_keeps_short_text_as_it_is() -> None:
    assert fit(["a", "b"]) == "a\nb"


def test_fit_cuts_at_whole_lines_and_says_how_many_were_left_out() -> None:
    lines = [f"line {i:03d} " + "x" * 90 for i in range(100)]
    text = fit(lines)
    assert len(text) <= DISCORD_LIMIT
    kept = text.split("\n")
    assert kept[:-1] == lines[: len(kept) - 1]
    assert kept[-1] == f"... and {100 - (len(kept) - 1)} more lines"


def test_fit_cuts_a_single_overlong_line() -> None:
    text = fit(["y" * 5000, "z"])
    assert len(text) == DISCORD_LIMIT
    first, note = text.split("\n")
    assert first.startswith("yyy")
    assert first.endswith("y...")
    assert note == "... and 2 more lines"


def test_clip() -> None:
    assert clip("short", 10) == "short"
    assert clip("a" * 20, 10) == "aaaaaaa..."


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


def test_ordinal_and_plural() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th",
    ]  # fmt: skip
    assert plural(1, "army", "armies") == "1 army"
    assert plural(2, "army", "armies") == "2 armies"
    assert plural(0, "order") == "0 orders"


@given(st.lists(st.text(max_size=3000), max_size=30))
def test_fit_always_fits(lines: list[str]) -> None:
    assert len(fit(lines)) <= DISCORD_LIMIT
