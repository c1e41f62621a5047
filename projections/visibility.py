"""Who may see each event: decided here and nowhere else.

- A player's submitted orders are theirs alone until the turn resolves; `turn_resolved`
  then shows everyone's. A player's notifications are theirs alone.
- In same-day voting a ballot is secret until resolution; the tally comes with it.
- The game's seed predicts every future vote draw, so only admins see it.
- Everything else is public. Who sent an anonymous broadcast is in the store's metadata,
  which only admins read.
"""

from typing import Any, Literal

import msgspec

from schema.game_events import (
    GameCreated,
    GameEvent,
    OrdersSubmitted,
    PlayerNotified,
    Settings,
    VoteCast,
)

Audience = Literal["public", "owner", "admin"]


class Viewer(msgspec.Struct, frozen=True):
    """Someone reading a game: an admin, the players they act for, or nobody in particular."""

    admin: bool = False
    players: frozenset[str] = frozenset()

    @classmethod
    def spectator(cls) -> "Viewer":
        return cls()


def audience(event: GameEvent, settings: Settings) -> tuple[Audience, str | None]:
    """Who sees the event before resolution: everyone, its owner (a player id), or admins."""
    if isinstance(event, OrdersSubmitted | PlayerNotified):
        return "owner", event.player_id
    if isinstance(event, VoteCast) and settings.voting_mode == "same_day":
        return "owner", event.player_id
    return "public", None


def can_see(viewer: Viewer, event: GameEvent, settings: Settings) -> bool:
    if viewer.admin:
        return True
    who, owner = audience(event, settings)
    return who == "public" or owner in viewer.players


def shown(viewer: Viewer, event: GameEvent, settings: Settings) -> dict[str, Any] | None:
    """The event as `viewer` may read it, or None when it is hidden from them."""
    if not can_see(viewer, event, settings):
        return None
    data: dict[str, Any] = msgspec.to_builtins(event)
    if isinstance(event, GameCreated) and not viewer.admin:
        del data["seed"]
    return data
