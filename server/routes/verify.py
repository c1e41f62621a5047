"""`GET /v1/games/{game}/verify`: anyone who may read a game may check its history (its hash
chain and its resolutions, server/verify.py), without trusting the server's admins. A heavy
read (server/heavy.py); the answer is kept for events exactly as they were read."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.verification import Verification
from server.api import documented, json_response
from server.application import readable
from server.decide.errors import DomainError
from server.heavy import caller
from server.lru import Lru
from server.routes.games import GameId
from server.services import services
from server.verify import KeptMoving, read_stored, verify_read

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
_RETRY_AFTER = 5
# By the fingerprint of everything a verification read (server/verify.py's Stored): a new
# event, a rewind or a row changed by hand is another key.
_verified: Lru[bytes, Verification] = Lru(256)


@router.get(
    "/verify",
    **documented(
        responses={200: Verification},
        errors=(404, 410, 429),
        summary="Recompute the game's hash chain and replay its resolutions",
    ),
)
async def get_verify(request: Request, game: GameId) -> Response:
    found = services(request)
    await readable(found, game)
    async with found.heavy.admitted("verify", caller(request)) as worker:
        try:
            stored = await read_stored(found.games.store, game)
        except KeptMoving as error:
            raise DomainError(codes.BUSY, str(error), retry_after=_RETRY_AFTER) from None
        fingerprint = stored.fingerprint()
        verification = _verified.get(fingerprint)
        if verification is None:
            verification = await worker.run(verify_read, stored)
            _verified.put(fingerprint, verification)
    return json_response(verification)
