"""POST /v1/adjudicate: the stateless what-if of docs/adjudicate.md."""

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rules.contract import Request as AdjudicationRequest
from rules.contract import RequestError, adjudicate_json
from rules.contract import Response as Adjudication
from schema import errors as codes
from server.api import MAX_BODY, documented, refuse_duplicate_keys
from server.errors import ApiError

router = APIRouter(prefix="/v1", tags=["rules"])


@router.post(
    "/adjudicate",
    **documented(
        body=AdjudicationRequest,
        responses={200: Adjudication},
        summary="Adjudicate one turn: a position and orders in, the outcome out; stores nothing",
    ),
)
async def adjudicate(request: Request) -> Response:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(codes.BODY_TOO_LARGE, f"the body is larger than {MAX_BODY} bytes")
    try:
        # Large inline maps take a few milliseconds; keep the event loop free meanwhile.
        answer = await asyncio.to_thread(_adjudicate, body)
    except RequestError as error:
        raise ApiError(codes.INVALID_REQUEST, str(error)) from error
    return Response(answer, media_type="application/json")


def _adjudicate(body: bytes) -> bytes:
    refuse_duplicate_keys(body)
    return adjudicate_json(body)
