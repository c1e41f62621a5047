"""Who may see each event: decided here and nowhere else (rules.md, "Who sees what").

- In a real game, a player's submitted orders and notifications are theirs alone until the
  turn resolves, and in same-day voting so is their ballot; a request to join forces is
  its sender's and the player asked's (who must be able to accept). Nobody else reads
  them: not an admin who plays, not an admin who plays no seat, not the operator.
- `turn_resolved` then shows everyone's orders and the tally, and every submission and
  join-forces request of the turn is shown to all, submissions with their receipt's nonce
  (rules.md, "Receipts"). Not in the archive: what a rewind removed never resolved; nor on
  sockets, which send each event as it was when it happened (`Viewer.own_seats_only`).
  Notifications and same-day ballots stay their owner's.
- A step of a game run by its definition that the game made private (a private message, the
  game's `Private`: `play_recorded`'s `audience`) is its audience's alone, for ever: never
  revealed, to no admin and not to the operator.
- In a sandbox, its admin plays every seat and so sees everything.
- The game's secret, from which every draw after the map comes, is shown to nobody while it
  is in use and the game goes on; its commitment is public. A sandbox hides nothing.
- Everything else is public, `private_events_read` too (a moderator's read that older
  servers recorded: the record of a read, not private data). Who sent an anonymous
  broadcast is in the store's metadata, which only the operator reads (server.live.feed).
"""

from typing import Any

import msgspec

from projections.game import GameState
from projections.owned import Hidden, own_events
from schema.events import event_values
from schema.game_events import (
    GameEvent,
    GameForked,
    GameStarted,
    MoveSealed,
    PlayerNotified,
    PlayRecorded,
    PlayStarted,
    TurnRewound,
)


class Viewer(msgspec.Struct, frozen=True):
    """Someone reading a game: the seats they play, what they see of who acted, or nobody in
    particular (a spectator)."""

    # The seats the viewer plays: their own, or in a sandbox, its admin's, every seat.
    players: frozenset[str] = frozenset()
    # An admin who plays no seat, or the operator: sees who acted (the store's `actor`) on
    # the events they see, never a player's private event.
    sees_actors: bool = False
    # The server's operator, the only one who learns who sent an anonymous broadcast.
    operator: bool = False
    # Whether what a resolution reveals is shown (every submission and join-forces request
    # of the turn): not in the archive, whose turns a rewind removed before they resolved,
    # nor on a websocket, which shows each event as it was when it happened.
    reveals: bool = True

    @classmethod
    def spectator(cls) -> "Viewer":
        return cls()

    def own_seats_only(self) -> "Viewer":
        """The same reader, shown no private event but their own seats': in the archive, and
        on a websocket. There an event is sent as it was when it happened, the same to a
        client that follows the game and to one that catches up later (the event feed
        reveals the rest)."""
        return Viewer(players=self.players, reveals=False)


def owners_of(event: GameEvent, state: GameState) -> frozenset[str] | None:
    """The players who may see a private event before its turn resolves, or None for a
    public one: the owner of a notice or a sealed move; for a private step, its audience
    (never revealed after); for an event of a game whose events are the room's own, whom
    the game says (`OwnEvents.hidden`)."""
    hidden = _hidden(event, state)
    return None if hidden is None else hidden.seats


def _hidden(event: GameEvent, state: GameState) -> Hidden | None:
    """Who sees `event` before everyone does, and from when everyone does; None: public."""
    if isinstance(event, PlayRecorded):
        return None if event.audience is None else Hidden(frozenset(event.audience))
    if isinstance(event, PlayerNotified):
        return Hidden(frozenset({event.player_id}))
    if isinstance(event, MoveSealed):
        # A sealed move is public once its wait is resolved.
        return Hidden(frozenset({event.player_id}), revealed_after=event.turn)
    own = own_events(state.definition)
    return None if own is None else own.hidden(event, state.settings)


def can_see(viewer: Viewer, event: GameEvent, state: GameState) -> bool:
    hidden = _hidden(event, state)
    return (
        hidden is None
        or bool(hidden.seats & viewer.players)
        or (
            viewer.reveals
            and hidden.revealed_after is not None
            and hidden.revealed_after < state.turn
        )
    )


def shown(viewer: Viewer, event: GameEvent, state: GameState) -> dict[str, Any] | None:
    """The event as `viewer` may read it, or None when it is hidden from them."""
    if not can_see(viewer, event, state):
        return None
    data = event_values(event)
    if isinstance(
        event, GameStarted | PlayStarted | GameForked | TurnRewound
    ) and not secret_revealed(event.secret, state):
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
