"""`GET /v1/games/{game}/verify`: anyone who may read a game may check its history (its hash
chain and its resolutions, server/verify.py), without trusting the server's admins."""

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.verification import Verification
from server.api import documented, json_response
from server.application import readable
from server.decide.errors import DomainError
from server.routes.games import GameId
from server.services import services
from server.verify import KeptMoving, head_hash, verify_stored

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
# Verifications at once in this process: each reads a whole game and replays it (up to a
# few seconds of CPU for the longest), so more wait their turn outside, not in memory.
MAX_AT_ONCE = 2
_RETRY_AFTER = 5
_running = 0
ExpectedHead = Annotated[
    str | None,
    Query(
        pattern="^[0-9a-fA-F]{64}$",
        description="A head seen before (a verification's `head`, or an event's `hash` in "
        "the feed): the answer is not ok unless the history still holds it",
    ),
]


@router.get(
    "/verify",
    **documented(
        responses={200: Verification},
        errors=(404,),
        summary="Recompute the game's hash chain and replay its resolutions",
    ),
)
async def get_verify(
    request: Request, game: GameId, expected_head: ExpectedHead = None
) -> Response:
    global _running
    found = services(request)
    await readable(found, game)
    if _running >= MAX_AT_ONCE:
        raise DomainError(
            codes.BUSY, "other verifications are running; try again", retry_after=_RETRY_AFTER
        )
    _running += 1
    try:
        anchor = None if expected_head is None else head_hash(expected_head)
        verification = await verify_stored(found.games.store, game, anchor)
    except KeptMoving as error:
        raise DomainError(codes.BUSY, str(error), retry_after=_RETRY_AFTER) from None
    finally:
        _running -= 1
    return json_response(verification)
