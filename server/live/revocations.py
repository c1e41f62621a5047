"""A socket ends when its token does (docs/api.md, "Live"), in whichever process it is open.

Whatever ends a token (an account's token revoked, a trusted client's rotated or revoked)
announces its digest with NOTIFY in the transaction that ends it, so that it is sent on
commit only. Each server process listens on the connection its event store listens on
(eventstore.notifications) and ends every socket opened with that token there: nothing
more is written to it, and it is closed with 4401 (server/http/routes/live.py). A socket
watches its token from before the token is checked, so that a revocation between the check
and the socket's serving is not missed; when the listening connection was lost
(notifications sent meanwhile are gone), every watched token is checked again once it is
back.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator

import asyncpg

from eventstore.migrations import Connection
from eventstore.notifications import retrying
from eventstore.postgres import PostgresEventStore, channel_for_schema

_TOPIC = "revoked"
_log = logging.getLogger(__name__)


async def announce(connection: Connection, digests: Iterable[bytes]) -> None:
    """Tell every server process that these tokens (by digest) no longer stand for anyone:
    in the transaction that ends them, so that the word goes out if it commits, and then."""
    payload = ",".join(d.hex() for d in digests)
    await connection.execute("SELECT pg_notify($1, $2)", await _channel(connection), payload)


async def _channel(database: asyncpg.Pool | Connection) -> str:
    """The channel of the schema the database's connections work in (tests use many)."""
    return channel_for_schema(await database.fetchval("SELECT current_schema()"), _TOPIC)


class Watch:
    """One socket's token, watched for as long as the socket is open."""

    def __init__(self, revocations: "Revocations") -> None:
        self._revocations = revocations
        self.digest: bytes | None = None
        self.revoked = False
        self._on_revoked: Callable[[], object] | None = None

    def follow(self, token_digest: bytes) -> None:
        """Watch this token (by its digest): before it is checked, so that no revocation
        slips between the check and the socket's serving."""
        self.digest = token_digest
        self._revocations.add(self)

    def on_revoked(self, end: Callable[[], object]) -> None:
        """Call `end` when the token is revoked: at once if it already was."""
        self._on_revoked = end
        if self.revoked:
            end()

    def revoke(self) -> None:
        if self.revoked:
            return
        self.revoked = True
        if self._on_revoked is not None:
            self._on_revoked()


class Revocations:
    """The watched tokens of one server process, by digest. `known` tells which of some
    digests still stand for someone (server.accounts.store)."""

    def __init__(self, known: Callable[[list[bytes]], Awaitable[set[bytes]]]) -> None:
        self._known = known
        self._watches: dict[bytes, set[Watch]] = {}
        self._rechecks: set[asyncio.Task[None]] = set()

    async def start(self, store: PostgresEventStore, pool: asyncpg.Pool) -> None:
        """Listening when this returns (or, with the database away, once it is back)."""
        await store.listen(await _channel(pool), self.on_notification)

    @contextlib.contextmanager
    def watching(self) -> Iterator[Watch]:
        """A socket's watch, which `Watch.follow` gives its token; forgotten on leaving."""
        watch = Watch(self)
        try:
            yield watch
        finally:
            if watch.digest is not None:
                alike = self._watches.get(watch.digest)
                if alike is not None:
                    alike.discard(watch)
                    if not alike:
                        del self._watches[watch.digest]

    def add(self, watch: Watch) -> None:
        assert watch.digest is not None
        self._watches.setdefault(watch.digest, set()).add(watch)

    def on_notification(self, payload: str | None) -> None:
        """The digests a notification names, revoked; None: any may have been."""
        if payload is None:
            task = asyncio.create_task(self._recheck(), name="the revocations' recheck")
            self._rechecks.add(task)
            task.add_done_callback(self._rechecks.discard)
            return
        for text in payload.split(","):
            with contextlib.suppress(ValueError):
                self._revoke(bytes.fromhex(text))

    def _revoke(self, revoked: bytes) -> None:
        for watch in list(self._watches.get(revoked, ())):
            watch.revoke()

    async def _recheck(self) -> None:
        """Check every watched token again, after notifications may have been lost."""
        watched = list(self._watches)
        if not watched:
            return
        try:
            known = await retrying(lambda: self._known(watched))
        except Exception:
            _log.exception("could not check the open sockets' tokens again")
            return
        for revoked in set(watched) - known:
            self._revoke(revoked)

    async def close(self) -> None:
        for task in list(self._rechecks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
