"""The last head of each game's hash chain that a client saw, to anchor its verifications on
(docs/client.md, "Verifying"): a server that cut a game's tail and rewrote its head to
match passes a plain verification, not one that expects a head it showed before."""

from schema.api import FeedEvent
from schema.verification import Verification


class Heads:
    """The hash of the latest event seen of each game, by position: reading an older page
    of the feed afterwards does not take it back."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, str]] = {}

    def last(self, game: str) -> str | None:
        seen = self._seen.get(game)
        return None if seen is None else seen[1]

    def read(self, game: str, events: list[FeedEvent]) -> None:
        """Events of the feed, in order (one from a server without hashes is passed by)."""
        for event in reversed(events):
            if event.hash is not None:
                self._saw(game, event.position, event.hash)
                return

    def verified(self, game: str, verification: Verification) -> None:
        """A verification: its head counts only if the game verified."""
        if verification.ok and verification.head is not None:
            self._saw(game, verification.head_position or 0, verification.head)

    def _saw(self, game: str, position: int, hash_: str) -> None:
        seen = self._seen.get(game)
        if seen is None or position >= seen[0]:
            self._seen[game] = (position, hash_)
