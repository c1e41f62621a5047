"""Who may see each event: decided here and nowhere else (rules.md, "Who sees what").

- A player's submitted orders and notifications are theirs alone; in same-day voting so is
  their ballot. `turn_resolved` then shows everyone's orders and the tally, and every
  submission of the turn is shown to all, with its receipt's nonce (rules.md, "Receipts").
  Not in the archive: what a rewind removed never resolved; nor on sockets, which send each
  event as it was when it happened (`Viewer.own_seats_only`).
- An admin who plays a seat sees exactly what any player sees. A moderator (an admin who
  plays no seat, or the operator) may read every private event; a read of a turn that has
  not resolved yet is recorded in the log first (`private_events_read`), and that record is
  shown to everyone once the turn resolves. In a sandbox, its admin plays every seat.
- The game's secret, from which every draw after the map comes, is shown to nobody while it
  is in use and the game goes on; its commitment is public. A sandbox hides nothing.
- Everything else is public. Who sent an anonymous broadcast is in the store's metadata,
  which only the operator reads (server.feed).
"""

from typing import Any

import msgspec

from projections.game import GameState
from schema.game_events import (
    GameEvent,
    GameForked,
    GameStarted,
    OrdersSubmitted,
    PlayerNotified,
    PrivateEventsRead,
    TurnRewound,
    VoteCast,
)


class Viewer(msgspec.Struct, frozen=True):
    """Someone reading a game: the seats they play, whether they moderate, or nobody in
    particular (a spectator)."""

    # The seats the viewer plays: their own, or in a sandbox, its admin's, every seat.
    players: frozenset[str] = frozenset()
    # An admin who plays no seat, or the operator: may read players' private events.
    moderator: bool = False
    # The server's operator, the only one who learns who sent an anonymous broadcast.
    operator: bool = False
    # Whether what a resolution reveals is shown (every submission of the turn, moderators'
    # reads of it): not in the archive, whose turns a rewind removed before they resolved,
    # nor on a websocket, which shows each event as it was when it happened.
    reveals: bool = True

    @classmethod
    def spectator(cls) -> "Viewer":
        return cls()

    def own_seats_only(self) -> "Viewer":
        """The same reader, shown no private event but their own seats': in the archive, and
        on a websocket. There a moderator's read could not be recorded before it happens,
        and an event is sent as it was when it happened, the same to a client that follows
        the game and to one that catches up later (the event feed reveals the rest)."""
        return Viewer(players=self.players, reveals=False)


def owner_of(event: GameEvent, state: GameState) -> str | None:
    """The one player who may see a private event, or None for a public one."""
    if isinstance(event, OrdersSubmitted | PlayerNotified):
        return event.player_id
    if isinstance(event, VoteCast) and state.settings.voting_mode == "same_day":
        return event.player_id
    return None


def is_pending_secret(event: GameEvent, state: GameState) -> bool:
    """A player's private event of a turn that has not resolved yet: reading it is what a
    moderator's read records."""
    if owner_of(event, state) is None:
        return False
    assert isinstance(event, OrdersSubmitted | PlayerNotified | VoteCast)
    return event.turn >= state.turn


def can_see(viewer: Viewer, event: GameEvent, state: GameState) -> bool:
    if isinstance(event, PrivateEventsRead):
        return viewer.moderator or (viewer.reveals and event.turn < state.turn)
    owner = owner_of(event, state)
    return (
        owner is None
        or viewer.moderator
        or owner in viewer.players
        or (viewer.reveals and _revealed(event, state))
    )


def _revealed(event: GameEvent, state: GameState) -> bool:
    """A submission of a turn that has resolved: public, so that every receipt is checked."""
    return isinstance(event, OrdersSubmitted) and event.turn < state.turn


def shown(viewer: Viewer, event: GameEvent, state: GameState) -> dict[str, Any] | None:
    """The event as `viewer` may read it, or None when it is hidden from them."""
    if not can_see(viewer, event, state):
        return None
    data: dict[str, Any] = msgspec.to_builtins(event)
    if isinstance(event, GameStarted | GameForked | TurnRewound) and not secret_revealed(
        event.secret, state
    ):
        data.pop("secret", None)
    return data


def secret_revealed(secret: str | None, state: GameState) -> bool:
    """A secret is shown once the game is over, in a sandbox, or when it is no longer the
    one the game draws from (a rewind of a finished game replaced it)."""
    return (
        secret is None
        or state.phase == "finished"
        or state.settings.sandbox
        or secret != state.secret
    )
