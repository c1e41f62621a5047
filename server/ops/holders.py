"""Who holds an embedded PostgreSQL, so that no process stops it under another.

Every process that uses the embedded server of a data directory (`skirmish serve`, a tool, a
test) holds it: a shared flock on HOLDERS in that directory, for as long as it uses it. One
that is done lets go, and stops the server only if it can then lock HOLDERS exclusively,
that is if nobody else holds it: the last one out stops it, whoever started it. Taking hold
(with the start or adoption before it) and that last look happen behind the gate, an
exclusive flock on the data directory itself, so that none of them interleave: nobody takes
hold of a server that another process is deciding to stop, and no two start it at once. The
gate is the directory, not a file in it, because initdb wants the directory empty; HOLDERS
is made once PostgreSQL's files are there.

The kernel drops a process's locks when it dies, kill -9 included: a killed holder holds
nothing, and the server it left running is adopted by the next start. The descriptors are
not inherited (Python opens them close-on-exec), so PostgreSQL, started from a holder, holds
nothing itself.
"""

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

HOLDERS = "skirmish-holders"
# How often a process waiting at the gate tries again.
_POLL_SECONDS = 0.05


class GateClosed(Exception):
    """Another process kept the gate for longer than the wait allowed."""


@contextlib.contextmanager
def gate(data_dir: Path, seconds: float) -> Iterator[None]:
    """Behind the gate of `data_dir` (which must exist), waiting `seconds` at most."""
    descriptor = os.open(data_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        deadline = time.monotonic() + seconds
        while not _locked(descriptor, fcntl.LOCK_EX):
            if time.monotonic() > deadline:
                raise GateClosed(
                    f"another process has been starting or stopping the embedded PostgreSQL "
                    f"in {data_dir} for over {seconds:g} s"
                )
            time.sleep(_POLL_SECONDS)
        yield
    finally:
        os.close(descriptor)  # which opens the gate


def hold(data_dir: Path) -> int:
    """Take hold of the server of `data_dir`, behind its gate; the descriptor to let go by
    closing it."""
    descriptor = os.open(data_dir / HOLDERS, os.O_RDWR | os.O_CREAT, 0o600)
    # Only a process behind the gate locks HOLDERS exclusively, and only for a look: this
    # one is there, so the lock is free.
    if not _locked(descriptor, fcntl.LOCK_SH):
        os.close(descriptor)
        raise AssertionError(f"{data_dir / HOLDERS} locked exclusively outside the gate")
    return descriptor


def held_by_others(data_dir: Path) -> bool:
    """Whether any process holds the server of `data_dir`; asked behind its gate, once the
    asker has let go."""
    try:
        descriptor = os.open(data_dir / HOLDERS, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        return not _locked(descriptor, fcntl.LOCK_EX)
    finally:
        os.close(descriptor)


def _locked(descriptor: int, operation: int) -> bool:
    try:
        fcntl.flock(descriptor, operation | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
