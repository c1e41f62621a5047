"""GET /metrics: the Prometheus text exposition (server/http/metrics.py), for the operator only:
the figures hold no secret, but they tell how busy games are and when they resolve."""

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST

from schema import errors as codes
from schema.errors import Refusal
from server.http.identity import required_caller
from server.http.metrics import Metrics
from server.services import services

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    who = await required_caller(request)
    if not who.operator:
        raise Refusal(codes.OPERATOR_ONLY, "only the operator reads the metrics")
    found: Metrics = request.app.state.metrics
    body = await found.scrape(request.app.state.pool, services(request).clock.now())
    return Response(body, media_type=CONTENT_TYPE_LATEST)
