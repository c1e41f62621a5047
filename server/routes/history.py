"""A game's past: turns, the event feed (as each reader may see it), the archive."""

from typing import Annotated

import msgspec
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from eventstore.base import RecordedEvent
from projections.game import GameState
from projections.loading import stream_of
from projections.visibility import Viewer, is_pending_secret
from schema.api import Archive, ArchivedTruncation, EventPage, FeedEvent, TurnView
from schema.commands import RecordPrivateRead
from schema.game_events import RecordedPosition, TurnResolved, game_codec
from server.api import documented, json_response
from server.application import administered, readable
from server.errors import ApiError
from server.feed import feed_event, viewer_of
from server.identity import caller, required_caller
from server.routes.games import GameId
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
_decode_board = msgspec.json.Decoder(RecordedPosition).decode
_decode_resolution = msgspec.json.Decoder(TurnResolved).decode


def _feed_event(viewer: Viewer, state: GameState, recorded: RecordedEvent) -> FeedEvent | None:
    return feed_event(viewer, state, recorded, game_codec.decode_recorded(recorded))


@router.get(
    "/turns/{turn}",
    **documented(
        responses={200: TurnView}, errors=(404, 410), summary="A turn: its start and results"
    ),
)
async def get_turn(
    request: Request, game: GameId, turn: Annotated[int, Path(ge=1, le=1_000_000)]
) -> Response:
    found = services(request)
    await readable(found, game)
    row = await found.pool.fetchrow(
        "SELECT start_board::text, effect, resolution::text FROM read_turns "
        "WHERE game_id = $1 AND turn = $2",
        game,
        turn,
    )
    if row is None:
        raise ApiError(404, "turn_not_found", f"turn {turn} has not been reached")
    start_board, effect, resolution = row
    return json_response(
        TurnView(
            turn=turn,
            start_board=_decode_board(start_board),
            effect=effect,
            resolution=None if resolution is None else _decode_resolution(resolution),
        )
    )


@router.get(
    "/events",
    **documented(responses={200: EventPage}, errors=(401, 404, 410), summary="The event feed"),
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
    who = await caller(request)
    viewer = viewer_of(state, who)
    recorded = await found.store.read_stream_after_position(stream_of(game), after, limit=limit)
    decoded = [(r, game_codec.decode_recorded(r)) for r in recorded]
    if (
        who is not None
        and viewer.moderator
        and not state.settings.sandbox
        and any(is_pending_secret(event, state) for _, event in decoded)
    ):
        # rules.md: a moderator's read of secrets before resolution is in the log, for every
        # player to see after the turn; it is written before anything is read.
        await found.games.execute(game, RecordPrivateRead(actor=who.actor, now=found.clock.now()))
    events = [e for r, event in decoded if (e := feed_event(viewer, state, r, event)) is not None]
    # Hidden events advance the position too, so that a reader never asks for them again.
    return json_response(EventPage(events, recorded[-1].position if recorded else after))


@router.get(
    "/archive",
    **documented(
        responses={200: Archive},
        errors=(401, 403, 404, 410),
        summary="What rewinds removed (admin)",
    ),
)
async def get_archive(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    state = await administered(found, who, game)
    # What a rewind removed is never resolved: nobody reads another player's secrets there.
    viewer = viewer_of(state, who).without_moderation()
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
