"""How many websockets one server process holds open: per account, per client address and
in all, each within its limit (docs/operations.md). Every process counts its own."""

import contextlib
from collections import Counter
from collections.abc import Iterator

from schema import errors as codes
from schema.errors import Refusal
from server.accounts.store import Identity
from server.settings import Settings

_TOTAL = "total"


class Seat:
    """One socket's place in the counts, taken step by step as the socket says who it is."""

    def __init__(self, sockets: "OpenSockets") -> None:
        self._sockets = sockets
        self._taken: list[str] = []

    def take_address(self, address: str) -> None:
        """Count the socket in the process's total and against its client's address; a 429
        `Refusal` if either is full."""
        limits = self._sockets.limits
        self._take(_TOTAL, limits.sockets_total, "this server holds too many open sockets")
        self._take(
            f"address {address}", limits.sockets_per_address, "too many open sockets from here"
        )

    def take_account(self, who: Identity | None) -> None:
        """Count the socket against its account too. The operator is one trusted account
        that may follow every game, so only its address and the total count its sockets."""
        if who is None or who.operator:
            return
        limit = self._sockets.limits.sockets_per_account
        self._take(f"account {who.account_id}", limit, "too many open sockets for this account")

    def _take(self, key: str, limit: int, reason: str) -> None:
        counts = self._sockets.counts
        if counts[key] >= limit:
            raise Refusal(codes.TOO_MANY_SOCKETS, f"{reason} (at most {limit}); close some")
        counts[key] += 1
        self._taken.append(key)

    def release(self) -> None:
        counts = self._sockets.counts
        for key in self._taken:
            counts[key] -= 1
            if not counts[key]:
                del counts[key]
        self._taken.clear()


class OpenSockets:
    def __init__(self, limits: Settings) -> None:
        self.limits = limits
        # Only what is open: a key leaves when its count falls to zero.
        self.counts: Counter[str] = Counter()

    @contextlib.contextmanager
    def seat(self) -> Iterator[Seat]:
        """A seat for one socket, given back with everything it took when the block ends."""
        seat = Seat(self)
        try:
            yield seat
        finally:
            seat.release()

    @property
    def total(self) -> int:
        return self.counts[_TOTAL]
