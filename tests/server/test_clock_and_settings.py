"""The clock and the settings: small, and everything depends on them."""

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from server.accounts.ratelimit import Rate, RateLimits
from server.clock import FakeClock, SystemClock
from server.settings import Settings, SettingsError, default_data_dir

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def test_a_fake_clock_moves_only_when_told() -> None:
    clock = FakeClock(START)
    assert clock.now() == START
    assert clock.advance(90) == START + timedelta(seconds=90)
    assert clock.now() == START + timedelta(seconds=90)
    later = datetime(2030, 5, 2, 9, 0, tzinfo=timezone(timedelta(hours=2)))
    assert clock.set(later) == datetime(2030, 5, 2, 7, 0, tzinfo=UTC)


def test_a_fake_clock_refuses_naive_times_and_going_back() -> None:
    with pytest.raises(ValueError, match="aware"):
        FakeClock(datetime(2030, 1, 1))
    with pytest.raises(ValueError, match="back"):
        FakeClock(START).advance(-1)


def test_the_system_clock_is_aware_utc() -> None:
    assert SystemClock().now().utcoffset() == timedelta(0)


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://db/x",
            "SKIRMISH_DATA_DIR": "/srv/skirmish",
            "SKIRMISH_POOL_SIZE": "20",
        }
    )
    assert settings == Settings(
        database_url="postgresql://db/x", data_dir=Path("/srv/skirmish"), pool_size=20
    )
    defaults = Settings.from_env({"DATABASE_URL": ""})
    assert defaults.database_url is None
    assert defaults.data_dir == default_data_dir()


@pytest.mark.parametrize("size", ["0", "many", "-3", "100000"])
def test_a_bad_pool_size_is_refused(size: str) -> None:
    with pytest.raises(SettingsError, match="SKIRMISH_POOL_SIZE"):
        Settings.from_env({"SKIRMISH_POOL_SIZE": size})


def test_rate_limits_from_the_environment() -> None:
    assert Settings.from_env({}).rate_limits == RateLimits()
    assert RateLimits() == RateLimits(
        accounts=Rate(20, 3600), games=Rate(30, 3600), writes=Rate(60, 6)
    )
    tuned = Settings.from_env(
        {"SKIRMISH_LIMIT_ACCOUNTS": "5/60", "SKIRMISH_LIMIT_WRITES": "100/5"}
    ).rate_limits
    assert tuned == RateLimits(accounts=Rate(5, 60), writes=Rate(100, 5))
    assert Settings.from_env({"SKIRMISH_RATE_LIMITS": "off"}).rate_limits is None
    assert Settings.from_env({"SKIRMISH_RATE_LIMITS": "on"}).rate_limits == RateLimits()


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SKIRMISH_RATE_LIMITS", "no"),
        ("SKIRMISH_LIMIT_ACCOUNTS", "20"),
        ("SKIRMISH_LIMIT_GAMES", "0/3600"),
        ("SKIRMISH_LIMIT_WRITES", "10/s"),
    ],
)
def test_a_bad_rate_limit_is_refused(variable: str, value: str) -> None:
    with pytest.raises(SettingsError, match=variable):
        Settings.from_env({variable: value})
    # Even with the limits off: a typo would bite when they are switched on again.
    if variable != "SKIRMISH_RATE_LIMITS":
        with pytest.raises(SettingsError, match=variable):
            Settings.from_env({variable: value, "SKIRMISH_RATE_LIMITS": "off"})


def test_heavy_read_limits_from_the_environment() -> None:
    defaults = Settings.from_env({})
    assert (defaults.heavy_at_once, defaults.heavy_per_caller) == (2, 1)
    tuned = Settings.from_env({"SKIRMISH_HEAVY_AT_ONCE": "8", "SKIRMISH_HEAVY_PER_CALLER": "2"})
    assert (tuned.heavy_at_once, tuned.heavy_per_caller) == (8, 2)
    for variable in ("SKIRMISH_HEAVY_AT_ONCE", "SKIRMISH_HEAVY_PER_CALLER"):
        with pytest.raises(SettingsError, match=variable):
            Settings.from_env({variable: "0"})


def test_cors_origins_from_the_environment() -> None:
    def origins(value: str) -> tuple[str, ...]:
        return Settings.from_env({"SKIRMISH_CORS_ORIGINS": value}).cors_origins

    assert Settings.from_env({}).cors_origins == ("*",)
    assert origins("") == origins(" * ") == ("*",)
    assert origins("off") == ()
    # As a browser writes them in Origin: lower case, without a default port.
    listed = "https://Play.Example.org, http://127.0.0.1:8001,https://play.example.org:443,"
    assert origins(listed) == ("https://play.example.org", "http://127.0.0.1:8001")
    assert origins("http://[::1]:8080,http://localhost:80") == (
        "http://[::1]:8080",
        "http://localhost",
    )


@pytest.mark.parametrize(
    "value",
    [
        ",",
        "example.org",
        "*, https://example.org",
        "ftp://example.org",
        "https://example.org/",
        "https://example.org/app",
        "https://example.org?x=1",
        "https://user@example.org",
        "https://example.org:99999",
        "null",
    ],
)
def test_a_bad_cors_origin_is_refused(value: str) -> None:
    with pytest.raises(SettingsError, match="SKIRMISH_CORS_ORIGINS"):
        Settings.from_env({"SKIRMISH_CORS_ORIGINS": value})
