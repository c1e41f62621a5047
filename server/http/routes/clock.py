"""POST /v1/admin/clock: move a fake clock (`skirmish serve --fake-clock`), operator only."""

from datetime import timedelta

from fastapi import APIRouter, Request
from fastapi.responses import Response

from projections.queries import ReadModelsBehind
from schema import errors as codes
from schema.api import LONGEST_CLOCK_STEP, ClockBody, ClockNow
from schema.errors import Refusal
from server.clock import FakeClock
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.ops.clock_steps import (
    CATCH_UP_SECONDS,
    CLAIMS_SECONDS,
    ClaimsHeldElsewhere,
    advance_clock,
)
from server.services import services

router = APIRouter(prefix="/v1/admin", tags=["operator"])
LONGEST_STEP = timedelta(seconds=LONGEST_CLOCK_STEP)
RETRY_AFTER_SECONDS = 5


@router.post(
    "/clock",
    **documented(
        body=ClockBody,
        responses={200: ClockNow},
        errors=(401, 403, 404),
        summary="Move the fake clock; answers once every resolution that fell due is done",
    ),
)
async def move_clock(request: Request) -> Response:
    who = await required_caller(request)
    if not who.operator:
        raise Refusal(codes.OPERATOR_ONLY, "only the server operator moves the clock")
    found = services(request)
    clock = found.clock
    if not isinstance(clock, FakeClock):
        raise Refusal(codes.NO_FAKE_CLOCK, "this server runs on the real clock")
    body = await read_body(request, ClockBody)
    if (body.advance_seconds is None) == (body.set is None):
        raise Refusal(codes.EXACTLY_ONE_FIELD, 'give exactly one of "advance_seconds" and "set"')
    now = clock.now()
    if body.set is not None:
        if body.set.utcoffset() is None:
            raise Refusal(codes.TIME_ZONE_REQUIRED, "the time must carry a time zone, e.g. Z")
        target = body.set
    else:
        assert body.advance_seconds is not None
        target = now + timedelta(seconds=body.advance_seconds)
    if target < now:
        raise Refusal(codes.CLOCK_BACKWARDS, f"the clock does not go back: it is {now.isoformat()}")
    if target - now > LONGEST_STEP:
        raise Refusal(codes.OUT_OF_RANGE, "move the clock by at most 7 days at a time")
    try:
        await advance_clock(clock, target, found.scheduler, found.pool, found.store)
    except ReadModelsBehind:
        raise Refusal(
            codes.READ_MODELS_BEHIND,
            f"the clock is at {clock.now().isoformat()}, but the read models did not catch up "
            f"within {CATCH_UP_SECONDS:g} s (GET /v1/health shows their lag): move it again, "
            'by {"advance_seconds": 0} to wait for them',
            retry_after=RETRY_AFTER_SECONDS,
        ) from None
    except ClaimsHeldElsewhere:
        raise Refusal(
            codes.SCHEDULER_BUSY,
            f"the clock stopped at {clock.now().isoformat()} on its way to "
            f"{target.isoformat()}: another server's scheduler still holds games that fell "
            f"due then, {CLAIMS_SECONDS:g} s past its lease; move it again, by "
            f'{{"set": "{target.isoformat()}"}}',
            retry_after=RETRY_AFTER_SECONDS,
        ) from None
    return json_response(ClockNow(clock.now()))
