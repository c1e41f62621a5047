"""`skirmish serve --workers N`: N server processes sharing one listening socket.

The parent binds the socket, starts the workers (spawned: a fresh interpreter each, no
state forked from the parent) and watches them. Each worker is a whole server: its own
pool, live feeds, scheduler and background leaders, as when several `skirmish serve` run
on one database (the advisory locks and LISTEN/NOTIFY make them agree). The kernel hands
each new connection to whichever worker accepts it first.

A worker that dies is started again, at most RESTARTS times in RESTART_WINDOW seconds for
all of them together; past that, or if a worker of the first start cannot start at all
(the database unreachable, a migration that fails), the whole server stops with a message
and status 1. SIGTERM or Ctrl-C to the parent stops every worker at once (SIGTERM each, so
that each shuts down gracefully within server.serve's bound), kills any still there after
STOP_SECONDS, and returns, so that the caller stops the embedded PostgreSQL last.
"""

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections import deque
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from server.logs import configure
from server.serve import Stop, run_server, stop_on_signals
from server.settings import Settings

logger = logging.getLogger("skirmish.serve")

RESTARTS = 5
RESTART_WINDOW = 60.0
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
    # Each worker sends its pid down this pipe once it serves.
    ready, announce = _spawn.Pipe(duplex=False)
    with listening, ready, announce:
        start = _Starter(settings, host, listening, announce)
        running: list[BaseProcess] = []
        try:
            running.extend(start() for _ in range(workers))
            return _watch(start, running, ready)
        finally:
            _stop(running)


class _Starter:
    """Starts one more worker."""

    def __init__(
        self, settings: Settings, host: str, listening: socket.socket, announce: Connection
    ) -> None:
        self.settings = settings
        self.host = host
        self.listening = listening
        self.announce = announce

    def __call__(self) -> BaseProcess:
        process = _spawn.Process(
            target=_work,
            args=(self.settings, self.host, self.listening, self.announce),
            name="skirmish worker",
        )
        process.start()
        return process


def _watch(start: _Starter, running: list[BaseProcess], ready: Connection) -> int:
    """Start workers again as they die, within the bound; the status to stop with. Says
    where the server runs once every worker of the first start serves."""
    first = {process.pid for process in running}
    starting = set(first)
    restarts: deque[float] = deque()
    while True:
        if ready in wait([ready, *(process.sentinel for process in running)]):
            pid = ready.recv()
            if pid in starting:
                starting.remove(pid)
                if not starting:
                    _say_running(start, running)
            continue
        for slot, process in enumerate(running):
            if process.is_alive():
                continue
            process.join()
            status = process.exitcode
            if process.pid in first and status == NOT_STARTED:
                logger.error("a worker could not start (above); stopping the server")
                return 1
            now = time.monotonic()
            while restarts and restarts[0] < now - RESTART_WINDOW:
                restarts.popleft()
            if len(restarts) >= RESTARTS:
                logger.error(
                    "worker %d exited (status %s), and workers were started again %d times "
                    "in the last %g s; stopping the server",
                    process.pid,
                    status,
                    RESTARTS,
                    RESTART_WINDOW,
                )
                return 1
            restarts.append(now)
            running[slot] = start()
            logger.warning(
                "worker %d exited (status %s); started worker %d in its place",
                process.pid,
                status,
                running[slot].pid,
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


def _work(settings: Settings, host: str, listening: socket.socket, announce: Connection) -> None:
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
