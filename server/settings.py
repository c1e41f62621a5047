"""Settings from the environment, read once at start. docs/operations.md lists them."""

from collections.abc import Mapping
from pathlib import Path

import msgspec
import platformdirs

from server.accounts.ratelimit import Rate, RateLimits
from server.http.cors import ANY, parse_origins
from server.ops.logs import LOG_FORMATS, LogFormat
from server.plugins import GameNotFound, parse_games

# How many websockets one process holds open at most: per account, per client address, in all.
SOCKETS_PER_ACCOUNT = 20
SOCKETS_PER_ADDRESS = 200
SOCKETS_TOTAL = 10_000
# Heavy reads (server/http/heavy.py): of each kind at once in a process, and per caller.
HEAVY_AT_ONCE = 2
HEAVY_PER_CALLER = 1


class SettingsError(Exception):
    """An environment variable holds something unusable."""


def default_data_dir() -> Path:
    """Where the embedded PostgreSQL lives unless told otherwise."""
    return platformdirs.user_data_path("skirmish-server") / "postgres"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    # None: start the embedded PostgreSQL in data_dir.
    database_url: str | None = None
    data_dir: Path = msgspec.field(default_factory=default_data_dir)
    pool_size: int = 10
    # Acts as admin on every game (SKIRMISH_OPERATOR_TOKEN); unset: no operator.
    operator_token: str | None = None
    # Webhooks may go to loopback and private addresses (SKIRMISH_WEBHOOK_ALLOW_PRIVATE=1):
    # for local bots and tests, never on a public server.
    webhook_allow_private: bool = False
    # None: no rate limits at all (SKIRMISH_RATE_LIMITS=off, for the operator's load tests).
    rate_limits: RateLimits | None = msgspec.field(default_factory=RateLimits)
    sockets_per_account: int = SOCKETS_PER_ACCOUNT
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    sockets_total: int = SOCKETS_TOTAL
    heavy_at_once: int = HEAVY_AT_ONCE
    heavy_per_caller: int = HEAVY_PER_CALLER
    # Which pages may call the API from a browser (SKIRMISH_CORS_ORIGINS, server/http/cors.py):
    # ("*",) any, () none but the server's own.
    cors_origins: tuple[str, ...] = (ANY,)
    # How `skirmish serve` writes its log (SKIRMISH_LOG_FORMAT, or --log-format).
    log_format: LogFormat = "text"
    # Games from outside the project, as `module:NAME` (SKIRMISH_GAMES, server/plugins.py).
    games: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> "Settings":
        pool_size = environ.get("SKIRMISH_POOL_SIZE", "10")
        if not pool_size.isdigit() or not 2 <= int(pool_size) <= 1000:
            raise SettingsError(f"SKIRMISH_POOL_SIZE must be 2 to 1000, not {pool_size!r}")
        data_dir = environ.get("SKIRMISH_DATA_DIR")
        operator = environ.get("SKIRMISH_OPERATOR_TOKEN", "")
        if operator and len(operator) < 16:
            raise SettingsError("SKIRMISH_OPERATOR_TOKEN must be at least 16 characters")
        allow_private = environ.get("SKIRMISH_WEBHOOK_ALLOW_PRIVATE", "0") or "0"
        if allow_private not in ("0", "1"):
            raise SettingsError(
                f"SKIRMISH_WEBHOOK_ALLOW_PRIVATE must be 0 or 1, not {allow_private!r}"
            )
        log_format = environ.get("SKIRMISH_LOG_FORMAT") or "text"
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"SKIRMISH_LOG_FORMAT must be text or json, not {log_format!r}")
        return cls(
            database_url=environ.get("DATABASE_URL") or None,
            data_dir=Path(data_dir) if data_dir else default_data_dir(),
            pool_size=int(pool_size),
            operator_token=environ.get("SKIRMISH_OPERATOR_TOKEN") or None,
            webhook_allow_private=allow_private == "1",
            rate_limits=_rate_limits(environ),
            sockets_per_account=_count(
                environ, "SKIRMISH_SOCKETS_PER_ACCOUNT", SOCKETS_PER_ACCOUNT
            ),
            sockets_per_address=_count(environ, "SKIRMISH_SOCKETS_PER_IP", SOCKETS_PER_ADDRESS),
            sockets_total=_count(environ, "SKIRMISH_SOCKETS_TOTAL", SOCKETS_TOTAL),
            heavy_at_once=_count(environ, "SKIRMISH_HEAVY_AT_ONCE", HEAVY_AT_ONCE),
            heavy_per_caller=_count(environ, "SKIRMISH_HEAVY_PER_CALLER", HEAVY_PER_CALLER),
            cors_origins=_cors_origins(environ),
            log_format=log_format,
            games=_games(environ),
        )


_LIMITS = {
    "accounts": "SKIRMISH_LIMIT_ACCOUNTS",
    "games": "SKIRMISH_LIMIT_GAMES",
    "writes": "SKIRMISH_LIMIT_WRITES",
}


def _rate_limits(environ: Mapping[str, str]) -> RateLimits | None:
    rates: dict[str, Rate] = {}
    for field, variable in _LIMITS.items():
        if text := environ.get(variable):
            try:
                rates[field] = Rate.parse(text)
            except ValueError as error:
                raise SettingsError(f"{variable}: {error}") from None
    switch = environ.get("SKIRMISH_RATE_LIMITS", "on")
    if switch not in ("on", "off"):
        raise SettingsError(f"SKIRMISH_RATE_LIMITS must be on or off, not {switch!r}")
    return RateLimits(**rates) if switch == "on" else None


def _cors_origins(environ: Mapping[str, str]) -> tuple[str, ...]:
    try:
        return parse_origins(environ.get("SKIRMISH_CORS_ORIGINS") or ANY)
    except ValueError as error:
        raise SettingsError(f"SKIRMISH_CORS_ORIGINS: {error}") from None


def _count(environ: Mapping[str, str], name: str, default: int) -> int:
    """A positive whole number of at most a million, or the default when unset."""
    value = environ.get(name, "")
    if not value:
        return default
    if not value.isdigit() or not 1 <= int(value) <= 1_000_000:
        raise SettingsError(f"{name} must be 1 to 1000000, not {value!r}")
    return int(value)


def _games(environ: Mapping[str, str]) -> tuple[str, ...]:
    try:
        return parse_games(environ.get("SKIRMISH_GAMES", ""))
    except GameNotFound as error:
        raise SettingsError(str(error)) from error
