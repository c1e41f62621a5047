"""What players do: orders, votes, join forces, broadcasts, resigning, their look."""

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from projections.views import my_orders
from schema import errors as codes
from schema.api import (
    BroadcastBody,
    Done,
    JoinForcesBody,
    OrdersAccepted,
    OrdersBody,
    PlayerPatch,
    VoteBody,
)
from schema.commands import (
    Broadcast,
    CastVote,
    ChangeLook,
    RequestJoinForces,
    Resign,
    SetNotifications,
    SubmitOrders,
)
from schema.errors import Refusal
from schema.game_events import OrdersSubmitted
from schema.views import MyOrders
from server.game.application import done, readable, require_own_turns
from server.game.decide.acting import acting_player
from server.http.acting import writer_and_body, writer_of
from server.http.api import documented, json_response
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["play"])
_ERRORS = (401, 403, 404, 409)


@router.put(
    "/orders",
    **documented(
        body=OrdersBody,
        responses={200: OrdersAccepted},
        errors=_ERRORS,
        summary="Submit orders; each is checked now",
    ),
)
async def submit_orders(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, OrdersBody)
    command = SubmitOrders(
        actor=writer.actor,
        now=writer.now(),
        text=body.orders,
        turn=body.turn,
        as_player=body.player,
        nonce=writer.found.nonces(),
    )
    outcome = await writer.act(game, command)
    (submitted,) = outcome.events
    assert isinstance(submitted, OrdersSubmitted)
    return json_response(OrdersAccepted.of(submitted, outcome.position))


@router.get(
    "/orders",
    **documented(
        responses={200: MyOrders},
        errors=_ERRORS,
        summary="My orders this turn and my valid orders of last turn",
    ),
)
async def list_orders(
    request: Request, game: GameId, player: str | None = Query(None, max_length=64)
) -> Response:
    who = await required_caller(request)
    found = services(request)
    state = (await readable(found, game)).state
    require_own_turns(
        state, f"it takes moves, and a seat's own sealed ones are `sealed` in GET /v1/games/{game}"
    )
    # The same rule as for acting: one's own player, or anyone's in one's sandbox.
    me = acting_player(state, who.actor, player)
    return json_response(my_orders(state, me.id))


@router.post(
    "/votes",
    **documented(
        body=VoteBody,
        responses={200: Done},
        errors=_ERRORS,
        summary="Vote in the current voting event",
    ),
)
async def vote(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, VoteBody)
    command = CastVote(
        actor=writer.actor, now=writer.now(), effect=body.effect, as_player=body.player
    )
    return await writer.done(game, command)


@router.post(
    "/join-forces",
    **documented(
        body=JoinForcesBody,
        responses={200: Done},
        errors=_ERRORS,
        summary="Ask to join forces with another player",
    ),
)
async def join_forces(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, JoinForcesBody)
    command = RequestJoinForces(actor=writer.actor, now=writer.now(), with_player=body.with_player)
    return await writer.done(game, command)


@router.post(
    "/broadcast",
    **documented(
        body=BroadcastBody,
        responses={200: Done},
        errors=_ERRORS,
        summary="Post an anonymous public message",
    ),
)
async def broadcast(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, BroadcastBody)
    command = Broadcast(actor=writer.actor, now=writer.now(), message=body.message)
    return await writer.done(game, command)


@router.post(
    "/resign",
    **documented(
        responses={200: Done}, errors=_ERRORS, summary="Resign (for good once the game has started)"
    ),
)
async def resign(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    return await writer.done(game, Resign(actor=writer.actor, now=writer.now()))


@router.patch(
    "/players/me",
    **documented(
        body=PlayerPatch,
        responses={200: Done},
        errors=_ERRORS,
        summary="Change my colour, pattern, name or notifications",
    ),
)
async def change_me(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, PlayerPatch)
    if body == PlayerPatch(player=body.player):
        raise Refusal(
            codes.NOTHING_TO_CHANGE, "give at least one of color, pattern, name, notifications"
        )
    appended: list[Done] = []
    if (body.color, body.pattern, body.name) != (None, None, None):
        look = ChangeLook(
            actor=writer.actor,
            now=writer.now(),
            color=body.color,
            pattern=body.pattern,
            name=body.name,
            as_player=body.player,
        )
        appended.append(done(await writer.act(game, look)))
    if body.notifications is not None:
        notifications = SetNotifications(
            actor=writer.actor, now=writer.now(), enabled=body.notifications
        )
        appended.append(done(await writer.act(game, notifications)))
    # At least one of the two ran: a patch with neither is refused above.
    return json_response(Done([e for d in appended for e in d.events], appended[-1].position))
