"""The server's rate limits (docs/api.md, "Limits"): accounts created, games created and
writes, each counted per account and per client address, refused with 429 and Retry-After.

Who is counted: an account, and the address it calls from; an anonymous caller by its
address. A trusted client's user by its own account only: the client serves many users
from one address, which must not be throttled for all of them together. The operator is
never limited. Each server process counts on its own, in memory.
"""

import ipaddress
import math

from starlette.requests import HTTPConnection

from schema import errors as codes
from schema.errors import Refusal
from server.accounts.ratelimit import RateLimits, TokenBuckets
from server.accounts.store import Identity
from server.clock import Clock

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class RateLimited(Refusal):
    def __init__(self, what: str, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(
            codes.RATE_LIMITED,
            f"too many {what}; try again in {seconds} s",
            retry_after=seconds,
        )


class Throttle:
    """The limits of one server process; `None` limits: none at all (load tests)."""

    def __init__(self, limits: RateLimits | None, clock: Clock) -> None:
        self._accounts = self._games = self._writes = None
        if limits is not None:
            self._accounts = TokenBuckets(limits.accounts, clock)
            self._games = TokenBuckets(limits.games, clock)
            self._writes = TokenBuckets(limits.writes, clock)

    def account_created(self, who: Identity | None, address: str) -> None:
        _charge(self._accounts, "accounts created", who, address)

    def game_created(self, who: Identity, address: str) -> None:
        _charge(self._games, "games created", who, address)

    def wrote(self, who: Identity | None, address: str) -> None:
        _charge(self._writes, "requests", who, address)


def _charge(buckets: TokenBuckets | None, what: str, who: Identity | None, address: str) -> None:
    if buckets is None:
        return
    wait = buckets.take(_counted(who, address))
    if wait > 0:
        raise RateLimited(what, wait)


def _counted(who: Identity | None, address: str) -> list[str]:
    if who is None:
        return [f"address {address}"]
    if who.operator:
        return []
    if who.client_id is not None:
        return [f"account {who.account_id}"]
    return [f"account {who.account_id}", f"address {address}"]


def client_address(connection: HTTPConnection) -> str:
    """The caller's address as the limits count it, as uvicorn reports it (behind a proxy
    that uvicorn trusts, from X-Forwarded-For). An IPv6 address counts by its /64, the
    share of one site: anyone has a great many addresses within it."""
    host = connection.client.host if connection.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)
