"""Events as a reader may see them: in the event feed, the archive and on websockets."""

from eventstore.records import RecordedEvent
from projections.game import GameState
from projections.visibility import Viewer, shown
from schema.api import FEED_EVENTS, FeedEvent
from schema.game_events import GameEvent, MessageBroadcast
from server.accounts.store import Identity


def viewer_of(state: GameState, who: Identity | None) -> Viewer:
    """How `who` sees the game: the private events of the seats they play, and in a
    sandbox, its admin plays every seat. Being an admin, or the operator, opens no other
    player's private event (rules.md, "Decisions added after the second release")."""
    if who is None:
        return Viewer.spectator()
    if state.settings.sandbox and state.is_admin(who.actor):
        return Viewer(players=frozenset(state.players), sees_actors=True, operator=who.operator)
    players = frozenset(p.id for p in state.players.values() if who.account_id in p.accounts)
    sees_actors = state.moderates(who.actor)
    return Viewer(players=players, sees_actors=sees_actors, operator=who.operator)


def feed_event(
    viewer: Viewer, state: GameState, recorded: RecordedEvent, event: GameEvent
) -> FeedEvent | None:
    """One event as `viewer` may read it, or None. Moderators see who acted on what they
    see, except who sent an anonymous broadcast, which only the operator sees."""
    data = shown(viewer, event, state)
    if data is None:
        return None
    sees_actor = viewer.operator or (viewer.sees_actors and not isinstance(event, MessageBroadcast))
    return FEED_EVENTS[recorded.type](
        position=recorded.position,
        version=recorded.version,
        at=recorded.occurred_at,
        data=data,
        actor=recorded.actor if sees_actor else None,
        hash=recorded.hash.hex(),
    )
