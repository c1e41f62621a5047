"""`GET /v1/games/{game}/verify`: anyone who may read a game may check its history (its hash
chain and its resolutions, server/ops/verify.py), without trusting the server's admins. A heavy
read (server/http/heavy.py); the answer is kept for events exactly as they were read."""

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.errors import Refusal
from schema.verification import Verification
from server.game.application import readable
from server.http.api import documented, json_response
from server.http.heavy import caller
from server.http.lru import Lru
from server.http.routes.games import GameId
from server.ops.verify import KeptMoving, head_hash, read_stored, verify_read
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
_RETRY_AFTER = 5
ExpectedHead = Annotated[
    str | None,
    Query(
        pattern="^[0-9a-fA-F]{64}$",
        description="A head seen before (a verification's `head`, or an event's `hash` in "
        "the feed): the answer is not ok unless the history still holds it",
    ),
]
# By the fingerprint of everything a verification read (server/ops/verify.py's Stored) and the
# head it was anchored on: a new event, a rewind or a row changed by hand is another key.
_verified: Lru[tuple[bytes, bytes | None], Verification] = Lru(256)


@router.get(
    "/verify",
    **documented(
        responses={200: Verification},
        errors=(404, 429),
        summary="Recompute the game's hash chain and replay its resolutions",
    ),
)
async def get_verify(
    request: Request, game: GameId, expected_head: ExpectedHead = None
) -> Response:
    found = services(request)
    await readable(found, game)
    anchor = None if expected_head is None else head_hash(expected_head)
    async with found.heavy.admitted("verify", caller(request)) as worker:
        try:
            stored = await read_stored(found.games.store, game)
        except KeptMoving as error:
            raise Refusal(codes.BUSY, str(error), retry_after=_RETRY_AFTER) from None
        key = (stored.fingerprint(), anchor)
        verification = _verified.get(key)
        if verification is None:
            verification = await worker.run(verify_read, stored, anchor)
            _verified.put(key, verification)
    return json_response(verification)
