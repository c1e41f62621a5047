"""`skirmish serve --workers N`: N server processes sharing one listening socket.

The parent binds the socket, starts the workers (spawned: a fresh interpreter each, no
state forked from the parent) and watches them. Each worker is a whole server: its own
pool, live feeds, scheduler and background leaders, as when several `skirmish serve` run
on one database (the advisory locks and LISTEN/NOTIFY make them agree), and the home of a
share of the games, whose commands the others send it over Unix sockets in a directory the
parent makes and removes (server/game/homes.py). The kernel hands each new connection to
whichever worker accepts it first.

A worker that dies is started again: at once if it had served a while, else after a delay
that grows with each such quick death in a row (Restarts); after too many in a row, or if a
worker of the first start cannot start at all (the database unreachable, a migration that
fails), the whole server stops with a message and status 1. The workers share their metrics
through a directory the parent makes and removes (server/http/metrics.py). SIGTERM or Ctrl-C to
the parent stops every worker at once (SIGTERM each, so that each shuts down gracefully
within server.ops.serve's bound), kills any still there after STOP_SECONDS, and returns, so that
the caller stops the embedded PostgreSQL last.
"""

import logging
import multiprocessing
import os
import signal
import socket
import tempfile
import threading
import time
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from prometheus_client.multiprocess import mark_process_dead

from server.game.homes import Places, sockets_directory
from server.http.metrics import SHARED_DIRECTORY
from server.ops.logs import configure
from server.ops.serve import Stop, run_server, stop_on_signals
from server.settings import Settings

logger = logging.getLogger("skirmish.serve")

# A worker that dies within STEADY_SECONDS of its start died at once: its place waits
# FIRST_DELAY before the next start, doubling with each such death in a row up to MAX_DELAY;
# the GIVE_UP-th in a row stops the server (after about two minutes of trying). A worker
# that served longer is replaced at once, and its place counts afresh.
STEADY_SECONDS = 60.0
FIRST_DELAY = 0.5
MAX_DELAY = 30.0
GIVE_UP = 10
# A worker shuts down within 8 s (uvicorn's 2 s, then at most 4 times 1.5 s of the
# application's): SIGTERM still ends the whole server within 10 s with the database's stop.
STOP_SECONDS = 8.5
# A worker's status when its application did not start (as uvicorn's own command's).
NOT_STARTED = 3
_BACKLOG = 2048
_spawn = multiprocessing.get_context("spawn")


def listen(host: str, port: int) -> socket.socket:
    """The socket every worker accepts on, listening already: connections made while the
    workers start wait in its backlog. Named TCP so that asyncio sets TCP_NODELAY on what
    it accepts (see tests/server/running.py)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(_BACKLOG)
    except OSError:
        listening.close()
        raise
    listening.set_inheritable(True)
    return listening


def supervise(settings: Settings, host: str, port: int, workers: int) -> int:
    """Serve with `workers` processes until stopped; the exit status. Stop (a signal)
    passes through, once every worker has gone."""
    try:
        listening = listen(host, port)
    except OSError as error:
        logger.error("cannot listen on %s:%d: %s", host, port, error.strerror)
        return 1
    try:
        homes = sockets_directory()
    except OSError as error:
        listening.close()
        logger.error("cannot make a directory for the workers' sockets: %s", error)
        return 1
    # Each worker sends its pid down this pipe once it serves.
    ready, announce = _spawn.Pipe(duplex=False)
    # Fresh for each start, so no figure of an earlier run is counted; inherited by the
    # workers through the environment (read when they import prometheus_client).
    shared = tempfile.TemporaryDirectory(prefix="skirmish-metrics-")
    previous = os.environ.get(SHARED_DIRECTORY)
    os.environ[SHARED_DIRECTORY] = shared.name
    with listening, ready, announce, shared, homes:
        start = _Starter(settings, host, listening, announce, homes.name, workers)
        running: list[BaseProcess] = []
        try:
            running.extend(start(place) for place in range(workers))
            return _watch(start, running, ready, shared.name)
        finally:
            _stop(running)
            if previous is None:
                del os.environ[SHARED_DIRECTORY]
            else:
                os.environ[SHARED_DIRECTORY] = previous


class Restarts:
    """How long each place waits before its worker is started again, from how long the one
    that died had lived; None: give up."""

    def __init__(self) -> None:
        # Per place: its workers that died at once, in a row.
        self._quick: dict[int, int] = {}

    def delay(self, place: int, lived: float) -> float | None:
        if lived >= STEADY_SECONDS:
            self._quick[place] = 0
            return 0.0
        quick = self._quick.get(place, 0) + 1
        self._quick[place] = quick
        if quick >= GIVE_UP:
            return None
        return min(MAX_DELAY, FIRST_DELAY * 2.0 ** (quick - 1))

    def in_a_row(self, place: int) -> int:
        return self._quick.get(place, 0)


class _Starter:
    """Starts one more worker."""

    def __init__(
        self,
        settings: Settings,
        host: str,
        listening: socket.socket,
        announce: Connection,
        homes: str,
        workers: int,
    ) -> None:
        self.settings = settings
        self.host = host
        self.listening = listening
        self.announce = announce
        self.homes = homes
        self.workers = workers

    def __call__(self, place: int) -> BaseProcess:
        process = _spawn.Process(
            target=_work,
            args=(
                self.settings,
                self.host,
                self.listening,
                self.announce,
                Places(self.homes, place, self.workers),
            ),
            name="skirmish worker",
        )
        process.start()
        return process


def _watch(start: _Starter, running: list[BaseProcess], ready: Connection, shared: str) -> int:
    """Start workers again as they die, within the bounds; the status to stop with. Says
    where the server runs once every worker of the first start serves."""
    first = {process.pid for process in running}
    starting = set(first)
    born = [time.monotonic()] * len(running)
    restarts = Restarts()
    # Places whose worker died, and when to start the next.
    waiting: dict[int, float] = {}

    def replace(place: int, now: float) -> int:
        """Start a worker in the place; the pid of the one that died there."""
        dead = running[place].pid
        assert dead is not None  # it was started
        running[place], born[place] = start(place), now
        # One of the first start that died before it served: its replacement is awaited.
        if dead in starting:
            starting.remove(dead)
            starting.add(running[place].pid)
        return dead

    while True:
        soonest = min(waiting.values(), default=None)
        timeout = None if soonest is None else max(0.0, soonest - time.monotonic())
        watched = [p.sentinel for place, p in enumerate(running) if place not in waiting]
        if ready in wait([ready, *watched], timeout):
            pid = ready.recv()
            if pid in starting:
                starting.remove(pid)
                if not starting:
                    _say_running(start, running)
            continue
        now = time.monotonic()
        for place, due in list(waiting.items()):
            if due <= now:
                del waiting[place]
                dead = replace(place, now)
                logger.warning(
                    "started worker %d in the place of worker %d", running[place].pid, dead
                )
        for place, process in enumerate(running):
            if place in waiting or process.is_alive():
                continue
            process.join()
            status = process.exitcode
            if process.pid in first and status == NOT_STARTED:
                logger.error("a worker could not start (above); stopping the server")
                return 1
            # Its gauges go from the sums; its counts stay.
            mark_process_dead(process.pid, shared)  # type: ignore[no-untyped-call]
            lived = now - born[place]
            delay = restarts.delay(place, lived)
            if delay is None:
                logger.error(
                    "worker %d exited (status %s) %.1f s after it started, the %dth in a row "
                    "to die within %g s; stopping the server",
                    process.pid,
                    status,
                    lived,
                    GIVE_UP,
                    STEADY_SECONDS,
                )
                return 1
            if delay == 0:
                replace(place, now)
                logger.warning(
                    "worker %d exited (status %s); started worker %d in its place",
                    process.pid,
                    status,
                    running[place].pid,
                )
                continue
            waiting[place] = now + delay
            logger.warning(
                "worker %d exited (status %s) %.1f s after it started, %d in a row; starting "
                "another in its place in %g s",
                process.pid,
                status,
                lived,
                restarts.in_a_row(place),
                delay,
            )


def _stop(running: list[BaseProcess]) -> None:
    """SIGTERM to every worker; SIGKILL to those still there after STOP_SECONDS. Further
    signals to the parent meanwhile change nothing (the caller restores its handlers)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    for process in running:
        process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in running:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            logger.warning("worker %d did not stop within %g s; killed", process.pid, STOP_SECONDS)
            process.kill()
            process.join()


def _say_running(start: _Starter, running: list[BaseProcess]) -> None:
    host, port = start.listening.getsockname()[:2]
    address = f"[{host}]" if ":" in host else host
    # In uvicorn's words, which tools and tests wait for.
    logger.info(
        "Uvicorn running on http://%s:%d (Press CTRL+C to quit), %d workers: %s",
        address,
        port,
        len(running),
        " ".join(str(process.pid) for process in running),
    )


def _work(
    settings: Settings, host: str, listening: socket.socket, announce: Connection, places: Places
) -> None:
    """A worker's life: serve on the parent's socket until SIGTERM, or until the parent
    goes away without a word (killed with SIGKILL): then it stops as if told to."""
    configure(settings.log_format)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    status = NOT_STARTED
    with stop_on_signals():
        try:
            port = listening.getsockname()[1]
            served = run_server(
                settings,
                host,
                port,
                sockets=[listening],
                places=places,
                started=lambda: announce.send(os.getpid()),
            )
            if served == 0:
                status = 0
        except Stop:
            status = 0
    raise SystemExit(status)


def _orphaned(parent: BaseProcess) -> None:
    parent.join()
    os.kill(os.getpid(), signal.SIGTERM)
