"""A game's past: turns, the event feed (as each reader may see it), the archive."""

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from eventstore.base import EventStore
from eventstore.records import RecordedEvent
from projections.game import GameState
from projections.loading import stream_of
from projections.visibility import Viewer
from schema.api import Archive, ArchivedTruncation, EventPage, FeedEvent, PlayTurn, TurnView
from schema.game_events import game_codec
from server.game.application import (
    administered,
    past_play,
    past_turn,
    readable,
    require_own_turns,
)
from server.http.api import documented, json_response
from server.http.identity import caller, required_caller
from server.http.routes.games import GameId
from server.live.feed import feed_event, viewer_of
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
# A page of the event feed reads on past the events hidden from its reader, up to this many
# stored events in all: then it ends short, with `has_more`.
MAX_SCANNED = 5000
# Stored events read at a time once the first read (`limit` + 1) was not enough.
_READ = 1000


def _feed_event(viewer: Viewer, state: GameState, recorded: RecordedEvent) -> FeedEvent | None:
    return feed_event(viewer, state, recorded, game_codec.decode_recorded(recorded))


@router.get(
    "/turns/{turn}",
    **documented(
        responses={200: TurnView}, errors=(404, 409), summary="A turn: its start and results"
    ),
)
async def get_turn(
    request: Request, game: GameId, turn: Annotated[int, Path(ge=1, le=1_000_000)]
) -> Response:
    found = services(request)
    loaded = await readable(found, game)
    require_own_turns(loaded.state, f"its turns are read at /v1/games/{game}/turns/{turn}/play")
    return json_response(await past_turn(found, game, turn, position=loaded.position))


@router.get(
    "/turns/{turn}/play",
    **documented(
        responses={200: PlayTurn},
        errors=(401, 404, 409),
        summary="A turn of a game run by its definition: its start as the caller sees it",
    ),
)
async def get_play_turn(
    request: Request, game: GameId, turn: Annotated[int, Path(ge=1, le=1_000_000)]
) -> Response:
    found = services(request)
    state = (await readable(found, game)).state
    seats = viewer_of(state, await caller(request)).players
    return json_response(await past_play(found, state, turn, seats))


@router.get(
    "/events",
    **documented(responses={200: EventPage}, errors=(401, 404), summary="The event feed"),
)
async def get_events(
    request: Request,
    game: GameId,
    # Positions are PostgreSQL bigints.
    after: Annotated[int, Query(ge=0, le=2**63 - 1)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> Response:
    found = services(request)
    state = (await readable(found, game)).state
    viewer = viewer_of(state, await caller(request))
    return json_response(await _visible_page(found.store, game, viewer, state, after, limit))


async def _visible_page(
    store: EventStore, game: str, viewer: Viewer, state: GameState, after: int, limit: int
) -> EventPage:
    """Up to `limit` events that `viewer` may see after `after`, reading on past hidden
    ones (up to MAX_SCANNED stored events); `has_more` if stored events follow the page.
    `position` is the last stored event read: hidden ones advance it too, so that a reader
    never asks for them again."""
    stream = stream_of(game)
    events: list[FeedEvent] = []
    position, scanned = after, 0
    # One more than a page: a page of visible events then knows whether more follow.
    read = limit + 1
    while True:
        batch = await store.read_stream_after_position(stream, position, limit=read)
        for recorded in batch:
            if len(events) == limit or scanned == MAX_SCANNED:
                return EventPage(events, position, True)
            scanned += 1
            position = recorded.position
            event = game_codec.decode_recorded(recorded)
            shown = feed_event(viewer, state, recorded, event)
            if shown is not None:
                events.append(shown)
        if len(batch) < read:
            return EventPage(events, position, False)
        read = _READ


@router.get(
    "/archive",
    **documented(
        responses={200: Archive},
        errors=(401, 403, 404),
        summary="What rewinds removed (admin)",
    ),
)
async def get_archive(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    state = await administered(found, who, game)
    # What a rewind removed is never resolved: nobody reads another player's secrets there.
    viewer = viewer_of(state, who).own_seats_only()
    truncations = await found.store.read_archive(stream_of(game))
    return json_response(
        Archive(
            [
                ArchivedTruncation(
                    truncation_id=t.truncation_id,
                    after_version=t.after_version,
                    truncated_by=t.truncated_by,
                    reason=t.reason,
                    truncated_at=t.truncated_at,
                    events=[e for r in t.events if (e := _feed_event(viewer, state, r))],
                )
                for t in truncations
            ]
        )
    )
