"""Webhook deliveries: claimed, POSTed with no transaction open, and recorded.

Every server process runs a sender. It claims due deliveries in one short statement that
gives each a lease (`claimed_until`); POSTs each one outside any transaction, within a total
deadline (resolving the host, connecting, sending, and the answer's status line and
headers); and records the outcome in a statement of its own, only while its claim stands,
so that a delivery is recorded delivered once. A sender that stops mid-way lets its claims
run out and another takes them up: the receiver may then see a delivery twice
(`X-Skirmish-Delivery` names it). The lease runs on the database's clock, shared by every
process, and not on the game clock: a fake clock moved by an hour must not end a lease
while its POST is under way. A failure is retried with exponential backoff on the game
clock; after `MAX_ATTEMPTS` the delivery is given up.

A process sends at most `per_game` deliveries of one game at a time and `overall` in all,
so a slow or dead receiver holds up only its own game's deliveries.
"""

import asyncio
import contextlib
import hashlib
import hmac
import logging
from collections import Counter
from datetime import datetime, timedelta

import asyncpg
import httpx
import msgspec

from eventstore.outages import Backoff
from server.clock import Clock
from server.webhooks.targets import TargetRefused, host_and_port, target_address

MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(seconds=5)
LONGEST_RETRY = timedelta(hours=1)
DEADLINE_SECONDS = 10.0
# Well past the deadline: a claim must outlive its POST and the recording of its outcome.
LEASE = timedelta(minutes=1)
PER_GAME = 4
OVERALL = 64
_log = logging.getLogger(__name__)

# $1 the game clock's now, $2 how many, $3/$4 the games this process is sending and how
# many of each, $5 the cap per game, $6 the lease. A game at its cap is left out before the
# limit, so that its backlog does not crowd out the others.
_CLAIM = """
WITH sending (game_id, count) AS (SELECT * FROM unnest($3::text[], $4::integer[])),
candidates AS (
    SELECT d.game_id, d.position, d.next_attempt_at, w.url, w.secret
    FROM webhook_deliveries d JOIN webhooks w USING (game_id)
    WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_at <= $1
      AND (d.claimed_until IS NULL OR d.claimed_until <= now())
      AND (w.trusted OR NOT d.private)
      AND d.game_id NOT IN (SELECT game_id FROM sending WHERE count >= $5)
    ORDER BY d.next_attempt_at LIMIT $2
    FOR UPDATE OF d SKIP LOCKED
),
chosen AS (
    SELECT c.*, row_number() OVER (
        PARTITION BY c.game_id ORDER BY c.next_attempt_at, c.position
    ) + coalesce(s.count, 0) AS nth
    FROM candidates c LEFT JOIN sending s USING (game_id)
)
UPDATE webhook_deliveries d SET claimed_until = now() + $6::interval
FROM chosen c
WHERE d.game_id = c.game_id AND d.position = c.position AND c.nth <= $5
RETURNING d.game_id, d.position, d.payload, d.attempts, c.url, c.secret, d.claimed_until"""
# The claim's lease tells it from any later claim of the same delivery.
_DELIVERED = """
UPDATE webhook_deliveries SET delivered_at = $4, attempts = attempts + 1, last_error = NULL,
    claimed_until = NULL
WHERE game_id = $1 AND position = $2 AND claimed_until = $3"""
_FAILED = """
UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $4, next_attempt_at = $5,
    failed_at = $6, claimed_until = NULL
WHERE game_id = $1 AND position = $2 AND claimed_until = $3"""


class Claim(msgspec.Struct, frozen=True):
    """A delivery this process has in hand, until `claimed_until`."""

    game_id: str
    position: int
    payload: bytes
    attempts: int
    url: str
    secret: str
    claimed_until: datetime


def signature(secret: str, body: bytes) -> str:
    """The `X-Skirmish-Signature` header: `sha256=` and the HMAC of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def backoff(attempts: int) -> timedelta:
    """5 s after the first failure, doubling, at most an hour (2**10 * 5 s is past that)."""
    return min(FIRST_RETRY * (1 << min(max(attempts - 1, 0), 10)), LONGEST_RETRY)


def webhook_client(deadline_seconds: float = DEADLINE_SECONDS) -> httpx.AsyncClient:
    """The HTTP client deliveries go through. No connection is kept for another delivery: each
    is made to an address checked for its host (and a TLS one is good for that host only).
    No proxy from the environment, which would connect elsewhere; no redirects."""
    return httpx.AsyncClient(
        timeout=deadline_seconds,
        trust_env=False,
        follow_redirects=False,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


class WebhookSender:
    def __init__(
        self,
        pool: asyncpg.Pool,
        clock: Clock,
        *,
        allow_private: bool = False,
        deadline_seconds: float = DEADLINE_SECONDS,
        per_game: int = PER_GAME,
        overall: int = OVERALL,
        poll_seconds: float = 1.0,
        lease: timedelta = LEASE,
    ) -> None:
        if not 0 < deadline_seconds <= lease.total_seconds() / 2:
            raise ValueError("a delivery's deadline must be well within its claim's lease")
        if not 1 <= per_game <= overall:
            raise ValueError("the caps must be at least 1, and the overall one the larger")
        self._pool = pool
        self._clock = clock
        self._allow_private = allow_private
        self._deadline = deadline_seconds
        self._per_game = per_game
        self._overall = overall
        self._poll = poll_seconds
        self._lease = lease
        self._sending: Counter[str] = Counter()
        self._freed = asyncio.Event()

    async def send_forever(self) -> None:
        sending: set[asyncio.Task[None]] = set()
        backoff = Backoff("webhook sender", _log)
        async with webhook_client(self._deadline) as http:
            try:
                while True:
                    self._freed.clear()
                    try:
                        claims = await self.claim()
                    except Exception as error:
                        await backoff.failed(error)
                        continue
                    backoff.succeeded()
                    for claim in claims:
                        task = asyncio.create_task(self.deliver(http, claim))
                        sending.add(task)
                        task.add_done_callback(sending.discard)
                    if not claims:
                        # Until the next poll, or until a delivery frees its room.
                        with contextlib.suppress(TimeoutError):
                            async with asyncio.timeout(self._poll):
                                await self._freed.wait()
            finally:
                for task in sending:
                    task.cancel()
                await asyncio.gather(*sending, return_exceptions=True)

    async def claim(self) -> list[Claim]:
        """Claim the due deliveries this process has room for. Each must then go to
        `deliver`, which frees its room. (One caller at a time: the room is counted here.)"""
        room = self._overall - self._sending.total()
        if room <= 0:
            return []
        games = list(self._sending)
        rows = await self._pool.fetch(
            _CLAIM,
            self._clock.now(),
            room,
            games,
            [self._sending[game] for game in games],
            self._per_game,
            self._lease,
        )
        claims = [Claim(*row) for row in rows]
        self._sending.update(claim.game_id for claim in claims)
        return claims

    async def deliver(self, http: httpx.AsyncClient, claim: Claim) -> None:
        """Send a claimed delivery and record the outcome."""
        try:
            error = await self.send(http, claim)
            await self.record(claim, error)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as failure:
            _log.warning(
                "webhook %s/%s: outcome not recorded (%s); tried again when the claim runs out",
                claim.game_id,
                claim.position,
                failure,
            )
        finally:
            self._sending[claim.game_id] -= 1
            if not self._sending[claim.game_id]:
                del self._sending[claim.game_id]
            self._freed.set()

    async def send(self, http: httpx.AsyncClient, claim: Claim) -> str | None:
        """POST a claimed delivery to the address its host was checked at; None once the
        receiver answers 2xx, else what went wrong. The body of the answer is not read."""
        headers = {
            "content-type": "application/json",
            "x-skirmish-signature": signature(claim.secret, claim.payload),
            "x-skirmish-delivery": f"{claim.game_id}/{claim.position}",
        }
        try:
            async with asyncio.timeout(self._deadline):
                url = httpx.URL(claim.url)
                host, port = host_and_port(url)
                address = await target_address(host, port, allow_private=self._allow_private)
                headers["host"] = url.netloc.decode("ascii")
                # TLS names the host, and checks its certificate, as if connecting by name.
                extensions = {"sni_hostname": host} if url.scheme == "https" else {}
                pinned = url.copy_with(host=str(address))
                async with http.stream(
                    "POST", pinned, content=claim.payload, headers=headers, extensions=extensions
                ) as response:
                    status = response.status_code
        except TargetRefused as refused:
            return f"not sent: {refused}"[:500]
        except TimeoutError:
            return f"no complete answer within {self._deadline:g} s"
        except (httpx.HTTPError, httpx.InvalidURL) as error:
            return f"{type(error).__name__}: {error}"[:500]
        return None if 200 <= status < 300 else f"HTTP {status}"

    async def record(self, claim: Claim, error: str | None) -> None:
        """Record how a delivery went, unless it was claimed again meanwhile (its lease ran
        out): then the later claim records it."""
        now = self._clock.now()
        where = (claim.game_id, claim.position, claim.claimed_until)
        if error is None:
            status = await self._pool.execute(_DELIVERED, *where, now)
        else:
            tried = claim.attempts + 1
            given_up = now if tried >= MAX_ATTEMPTS else None
            retry = now + backoff(tried)
            status = await self._pool.execute(_FAILED, *where, error, retry, given_up)
        if status == "UPDATE 0":
            _log.info("webhook %s/%s: claimed again meanwhile", claim.game_id, claim.position)
