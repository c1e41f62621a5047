"""POST /v1/adjudicate: the stateless what-if of docs/adjudicate.md. A heavy read
(server/http/heavy.py); the answer to a body is kept, since it cannot change."""

import hashlib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rules.adjudication import RequestError, adjudicate_json, what_ifs
from rules.skirmish.contract import Request as AdjudicationRequest
from rules.skirmish.contract import Response as Adjudication
from schema import errors as codes
from schema.errors import Refusal
from server.http.api import MAX_BODY, ByGame, documented, refuse_duplicate_keys
from server.http.heavy import caller
from server.http.lru import Lru
from server.services import services

router = APIRouter(prefix="/v1", tags=["rules"])
# Answers by their body's SHA-256: a bot asks the same what-if for every player it serves.
_answers: Lru[bytes, bytes] = Lru(256)


def _requests() -> tuple[Any, ...]:
    return (AdjudicationRequest, *(game.what_if_types[0] for game in what_ifs().values()))


def _responses() -> tuple[Any, ...]:
    return (Adjudication, *(game.what_if_types[1] for game in what_ifs().values()))


@router.post(
    "/adjudicate",
    **documented(
        # Every game's request and answer, as any of them; `ruleset` says which.
        body=ByGame(_requests),
        responses={200: ByGame(_responses)},
        errors=(429,),
        summary="Adjudicate one turn: a position and orders in, the outcome out; stores nothing",
    ),
)
async def adjudicate(request: Request) -> Response:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise Refusal(codes.BODY_TOO_LARGE, f"the body is larger than {MAX_BODY} bytes")
    key = hashlib.sha256(body).digest()
    answer = _answers.get(key)
    if answer is None:
        heavy = services(request).heavy
        async with heavy.admitted("adjudicate", caller(request)) as worker:
            try:
                answer = await worker.run(adjudicated, body)
            except RequestError as error:
                raise Refusal(codes.INVALID_REQUEST, str(error)) from error
        _answers.put(key, answer)
    return Response(answer, media_type="application/json")


def adjudicated(body: bytes) -> bytes:
    """The answer, in a worker process of server/http/heavy.py (large inline maps take a few
    milliseconds)."""
    refuse_duplicate_keys(body)
    return adjudicate_json(body)
