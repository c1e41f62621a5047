"""Events as a reader may see them: in the event feed, the archive and on websockets."""

from eventstore.base import RecordedEvent
from projections.game import GameState
from projections.visibility import Viewer, shown
from schema.api import FeedEvent
from schema.game_events import GameEvent, Settings
from server.accounts import Identity


def viewer_of(state: GameState, who: Identity | None) -> Viewer:
    if who is None:
        return Viewer.spectator()
    players = frozenset(p.id for p in state.players.values() if who.account_id in p.accounts)
    return Viewer(admin=who.operator or state.is_admin(who.account_id), players=players)


def feed_event(
    viewer: Viewer, settings: Settings, recorded: RecordedEvent, event: GameEvent
) -> FeedEvent | None:
    """One event as `viewer` may read it (who acted only for admins), or None."""
    data = shown(viewer, event, settings)
    if data is None:
        return None
    return FeedEvent(
        position=recorded.position,
        version=recorded.version,
        type=recorded.type,
        at=recorded.occurred_at,
        data=data,
        actor=recorded.actor if viewer.admin else None,
    )
