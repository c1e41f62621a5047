"""`skirmish serve`: uvicorn over create_app, with an embedded PostgreSQL unless
DATABASE_URL names one, in this process or in several (server/ops/workers.py). The embedded
server is let go on every way out (a normal exit, Ctrl-C, SIGTERM, or a failed start), and
stopped unless another process still uses it (server/ops/holders.py)."""

import gc
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import msgspec
import uvicorn

from server.accounts.operator_token import TokenFileError, kept_token, where_to_read
from server.app import create_app
from server.clock import Clock, FakeClock, SystemClock
from server.game.homes import Places
from server.ops.database import EmbeddedPostgres, EmbeddedPostgresError
from server.ops.logs import LogFormat, configure
from server.ops.worker_budget import TooManyWorkers, workers_for
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

# Chosen rather than left to uvicorn's "auto", which would fall back on the pure-Python
# h11 and asyncio if they went missing: they are dependencies. The websocket protocol is
# websockets' sans-I/O one (uvicorn's "websockets-sansio") with shared frames for the live
# feeds (server/live/frames.py). The tests' servers (tests/server/running.py) speak the same.
PROTOCOLS: dict[str, Any] = {"http": "httptools", "ws": "server.live.frames:FrameProtocol"}

# Python's cyclic garbage collector looks at its young objects every 700 allocations by
# default, and at everything now and then: with thousands of open websockets that cost a
# fifth to a quarter of the server's CPU and doubled the tail of every request beside them
# (`python -m benchmarks api`, third table). Fewer, larger collections.
GC_THRESHOLDS = (20_000, 20, 20)

# How long a stop waits for requests under way; websockets are closed at once (1012). With
# the application's own shutdown (server.app.STOP_SECONDS) and the embedded PostgreSQL's,
# SIGTERM ends the server within 10 s.
GRACEFUL_SECONDS = 2


class Stop(BaseException):
    """A signal asked us to stop before (or after) uvicorn had its own handlers."""


@contextmanager
def stop_on_signals() -> Iterator[list[bool]]:
    """SIGINT and SIGTERM raise Stop, once: while cleaning up, further ones are ignored.
    uvicorn installs its own handlers while it serves and re-raises the signal after its
    graceful shutdown, which lands here."""
    cleaning = [False]

    def stop(signum: int, _frame: FrameType | None) -> None:
        if not cleaning[0]:
            raise Stop(signum)

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
    workers: int | None = 1,
    log_format: LogFormat | None = None,
) -> int:
    """Run until stopped, in this process or in `workers` processes (None: as many as the
    database's connections fit, server/ops/worker_budget.py); the exit status. `log_format`
    wins over SKIRMISH_LOG_FORMAT."""
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    # In the settings, so that workers log alike.
    settings = msgspec.structs.replace(settings, log_format=log_format or settings.log_format)
    configure(settings.log_format)
    if data_dir is not None:
        settings = msgspec.structs.replace(settings, data_dir=data_dir)

    embedded: EmbeddedPostgres | None = None
    with stop_on_signals() as cleaning:
        try:
            url = settings.database_url
            if url is None:
                embedded = EmbeddedPostgres(settings.data_dir)
                logger.info("starting the embedded PostgreSQL in %s", embedded.data_dir)
                url = embedded.start()
                settings = msgspec.structs.replace(settings, database_url=url)
            workers = workers_for(workers, url, settings.pool_size)
            if settings.operator_token is None:
                # In the data directory, DATABASE_URL or not: the server's own.
                token = kept_token(settings.data_dir)
                logger.info("%s", where_to_read(settings.data_dir))
                settings = msgspec.structs.replace(settings, operator_token=token)
            if workers > 1:
                from server.ops.workers import supervise

                return supervise(settings, host, port, workers)
            # A fake clock starts at the real time the first time, where it stood after
            # (server/ops/clock_store.py), and moves only when the operator says so (POST
            # /v1/admin/clock).
            clock = FakeClock(SystemClock().now()) if fake_clock else None
            return run_server(settings, host, port, clock=clock)
        except Stop:
            return 0
        except EmbeddedPostgresError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        except (TokenFileError, TooManyWorkers) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        finally:
            cleaning[0] = True
            if embedded is not None:
                if embedded.stop():
                    logger.info("stopped the embedded PostgreSQL")
                else:
                    logger.info("left the embedded PostgreSQL running: another process uses it")


def run_server(
    settings: Settings,
    host: str,
    port: int,
    *,
    clock: Clock | None = None,
    sockets: list[socket.socket] | None = None,
    places: Places | None = None,
    started: Callable[[], None] | None = None,
) -> int:
    """One process's uvicorn over create_app, on `sockets` if given (a worker's share of
    the parent's) or else listening itself; 0 once it has served and stopped, 1 if the
    application could not start. `started` is called once it serves."""
    app = create_app(settings, clock=clock, places=places)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="on",
        loop="uvloop",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        # JSON: uvicorn's lines go through the root logger's (server/ops/logs.py).
        log_config=None if settings.log_format == "json" else uvicorn.config.LOGGING_CONFIG,
        **PROTOCOLS,
        **WEBSOCKET_OPTIONS,
    )
    server = _Server(config, started)
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        server.run(sockets)
    except SystemExit as exit:  # uvicorn exits 3 when the application fails to start
        return exit.code if isinstance(exit.code, int) else 1
    return 0 if server.started else 1


class _Server(uvicorn.Server):
    """uvicorn's, saying when it has started (it says so itself only when it listens on a
    socket of its own)."""

    def __init__(self, config: uvicorn.Config, started: Callable[[], None] | None) -> None:
        super().__init__(config)
        self._on_started = started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self._on_started is not None:
            self._on_started()
