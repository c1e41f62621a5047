"""When a game resolves next, and when orders are locked."""

from datetime import UTC, datetime, timedelta

import pytest
from msgspec.structs import replace

from projections.owned import room_facts
from projections.schedule import Window, daily_deadline, lock_window, utc_offset_for
from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from projections.skirmish.state import SkirmishPlay
from rules.game import Wait
from rules.skirmish.maps import builtin_map
from schema.game_events import Settings

MORNING = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)


def _settings(**options: object) -> Settings:
    return replace(Settings(name="Clock"), **options)


def _utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


def _wait(settings: Settings) -> Wait:
    """Skirmish Society's wait of a turn in a game with these settings."""
    play = SkirmishPlay(room=room_facts(settings, {}), map=builtin_map("rulebook"))
    return SKIRMISH_SOCIETY_GAME.to_move(play)


def _deadline(began: datetime, settings: Settings, unpaused: datetime | None) -> datetime:
    """The deadline of a wait that began at `began`, unpaused at `unpaused` since (fast mode
    restarts its wait at an unpause)."""
    wait = _wait(settings)
    if wait.daily is not None:
        return daily_deadline(wait.daily, began, unpaused)
    assert wait.seconds is not None
    assert wait.restarts
    return (unpaused or began) + timedelta(seconds=wait.seconds)


def next_resolution_after(began: datetime, settings: Settings) -> datetime:
    """The resolution that ends a turn period that began at `began`."""
    return _deadline(began, settings, None)


def resolution_after_unpause(unpaused: datetime, settings: Settings) -> datetime:
    """The resolution of a turn unpaused at `unpaused` (its wait began the day before)."""
    return _deadline(unpaused - timedelta(days=1), settings, unpaused)


def lock_length(settings: Settings) -> timedelta:
    return timedelta(seconds=_wait(settings).lock)


def window(
    now: datetime,
    *,
    next_resolution: datetime | None,
    last_resolution: datetime | None,
    settings: Settings,
) -> Window:
    return lock_window(now, next_resolution, last_resolution, lock_length(settings))


@pytest.mark.parametrize(
    ("utc_offset", "expected"),
    [
        # Noon in the game's local time, reckoned from 08:00 UTC on 10 March.
        (0, _utc(10, 12)),
        (2, _utc(10, 10)),  # local 10:00 now: noon is two hours away
        (-5, _utc(10, 17)),  # local 03:00 now
        (5, _utc(11, 7)),  # local 13:00 now: noon has passed, so tomorrow's
        (12, _utc(11, 0)),  # local 20:00 now
        (-11, _utc(10, 23)),  # local 21:00 yesterday
    ],
)
def test_the_next_resolution_is_the_resolution_hour_in_local_time(
    utc_offset: int, expected: datetime
) -> None:
    assert next_resolution_after(MORNING, _settings(utc_offset=utc_offset)) == expected


@pytest.mark.parametrize("hour", [0, 9, 23])
def test_the_resolution_hour_is_any_hour_of_the_day(hour: int) -> None:
    resolution = next_resolution_after(MORNING, _settings(resolution_hour=hour))
    assert resolution.hour == hour
    assert resolution.minute == 0
    assert MORNING < resolution <= MORNING + timedelta(days=1, hours=1, minutes=10)


def test_a_resolution_is_a_day_after_the_last_one() -> None:
    settings = _settings()
    assert next_resolution_after(_utc(10, 12), settings) == _utc(11, 12)
    assert next_resolution_after(_utc(10, 12, 3), settings) == _utc(11, 12)


def test_the_next_resolution_leaves_both_lock_windows_and_an_hour_of_orders() -> None:
    settings = _settings()
    assert next_resolution_after(_utc(10, 10, 50), settings) == _utc(10, 12)
    assert next_resolution_after(_utc(10, 10, 51), settings) == _utc(11, 12)


@pytest.mark.parametrize("anchor", [_utc(10, 8), _utc(10, 11, 58), _utc(10, 23, 59)])
def test_fast_mode_resolves_every_fifteen_minutes_whatever_the_hour(anchor: datetime) -> None:
    settings = _settings(fast_mode=True, resolution_hour=3, utc_offset=4)
    assert next_resolution_after(anchor, settings) == anchor + timedelta(minutes=15)


@pytest.mark.parametrize(
    ("unpaused", "resolves"),
    [
        # rules.md: the next resolution hour whose lock window has not yet begun.
        (_utc(10, 11), _utc(10, 12)),
        (_utc(10, 11, 54), _utc(10, 12)),
        (_utc(10, 11, 55), _utc(11, 12)),  # the window of 12:00 begins at 11:55
        (_utc(10, 11, 59), _utc(11, 12)),
        (_utc(10, 12, 30), _utc(11, 12)),
        (_utc(10, 0), _utc(10, 12)),
    ],
)
def test_after_unpause_the_game_resolves_at_the_next_hour_whose_lock_has_not_begun(
    unpaused: datetime, resolves: datetime
) -> None:
    settings = _settings()
    assert resolution_after_unpause(unpaused, settings) == resolves


def test_after_unpause_in_fast_mode_a_whole_period_follows() -> None:
    settings = _settings(fast_mode=True)
    unpaused = _utc(10, 11, 58)
    assert resolution_after_unpause(unpaused, settings) == (unpaused + timedelta(minutes=15))


def test_the_lock_lasts_five_minutes_or_one_in_fast_mode() -> None:
    assert lock_length(_settings()) == timedelta(minutes=5)
    assert lock_length(_settings(fast_mode=True)) == timedelta(minutes=1)


@pytest.mark.parametrize(
    ("now", "opens"),
    [
        (_utc(10, 11, 54), None),
        (_utc(10, 11, 55), _utc(10, 12, 5)),
        (_utc(10, 11, 59), _utc(10, 12, 5)),
    ],
)
def test_orders_lock_five_minutes_before_a_resolution(
    now: datetime, opens: datetime | None
) -> None:
    found = window(
        now, next_resolution=_utc(10, 12), last_resolution=_utc(9, 12), settings=_settings()
    )
    assert found == Window(
        "open" if opens is None else "locked",
        opens_at=opens,
        closes_at=_utc(10, 11, 55) if opens is None else None,
        resolves_at=_utc(10, 12),
    )


@pytest.mark.parametrize(
    ("now", "opens"),
    [
        (_utc(10, 12), _utc(10, 12, 5)),
        (_utc(10, 12, 4), _utc(10, 12, 5)),
        (_utc(10, 12, 5), None),
    ],
)
def test_orders_stay_locked_five_minutes_after_a_resolution(
    now: datetime, opens: datetime | None
) -> None:
    found = window(
        now, next_resolution=_utc(11, 12), last_resolution=_utc(10, 12), settings=_settings()
    )
    assert (found.state, found.opens_at) == ("open" if opens is None else "locked", opens)


@pytest.mark.parametrize(
    ("now", "opens"),
    [
        (_utc(10, 8, 0), _utc(10, 8, 1)),
        (_utc(10, 8, 1), None),
        (_utc(10, 8, 13), None),
        (_utc(10, 8, 14), _utc(10, 8, 16)),
    ],
)
def test_in_fast_mode_the_lock_windows_last_one_minute(
    now: datetime, opens: datetime | None
) -> None:
    found = window(
        now,
        next_resolution=_utc(10, 8, 15),
        last_resolution=_utc(10, 8),
        settings=_settings(fast_mode=True),
    )
    assert found.opens_at == opens


def test_without_a_last_resolution_only_the_coming_one_locks() -> None:
    settings = _settings()
    first = window(
        _utc(10, 8), next_resolution=_utc(10, 12), last_resolution=None, settings=settings
    )
    assert first.state == "open"
    closing = window(
        _utc(10, 11, 56), next_resolution=_utc(10, 12), last_resolution=None, settings=settings
    )
    assert (closing.state, closing.opens_at) == ("locked", _utc(10, 12, 5))


def test_a_turn_past_its_resolution_is_due_and_nothing_scheduled_is_open() -> None:
    settings = _settings()
    due = window(
        _utc(10, 13), next_resolution=_utc(10, 12), last_resolution=None, settings=settings
    )
    assert due == Window("due", resolves_at=_utc(10, 12))
    unscheduled = window(
        _utc(10, 13), next_resolution=None, last_resolution=_utc(10, 12), settings=settings
    )
    assert unscheduled == Window("open")


@pytest.mark.parametrize(
    ("local_hour", "utc_hour", "offset"),
    [
        (8, 8, 0),
        (10, 8, 2),
        (20, 8, 12),
        (21, 8, -11),
        (23, 8, -9),
        (0, 23, 1),
        (23, 0, -1),
        (12, 0, 12),
    ],
)
def test_the_utc_offset_comes_from_the_local_hour(
    local_hour: int, utc_hour: int, offset: int
) -> None:
    assert utc_offset_for(local_hour, MORNING.replace(hour=utc_hour, minute=47)) == offset


@pytest.mark.parametrize("local_hour", range(24))
def test_an_offset_found_from_the_local_hour_gives_that_hour_back(local_hour: int) -> None:
    now = MORNING.replace(minute=47)
    offset = utc_offset_for(local_hour, now)
    assert -11 <= offset <= 12
    assert (now + timedelta(hours=offset)).hour == local_hour
