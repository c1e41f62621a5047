"""A game's admins: an admin adds and removes others; at least one always remains."""

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.api import Done, NewAdmin
from schema.commands import AddAdmin, RemoveAdmin
from schema.errors import Refusal
from server.game.application import done, readable
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["games"])
_ERRORS = (401, 403, 404, 409)
AccountId = Annotated[str, Path(min_length=1, max_length=64)]


@router.post(
    "/admins",
    **documented(
        body=NewAdmin,
        responses={200: Done},
        errors=_ERRORS,
        summary="Make a player or an account an admin of the game (admin)",
    ),
)
async def add_admin(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, NewAdmin)
    found = services(request)
    if (body.player is None) == (body.account is None):
        raise Refusal(codes.EXACTLY_ONE_FIELD, 'give exactly one of "player" and "account"')
    if body.player is not None:
        state = (await readable(found, game)).state
        player = state.players.get(body.player)
        if player is None:
            raise Refusal(codes.PLAYER_NOT_FOUND, f"no such player: {body.player}")
        accounts = player.accounts
    else:
        assert body.account is not None
        if await found.accounts.name_of(body.account) is None:
            raise Refusal(codes.ACCOUNT_NOT_FOUND, f"no such account: {body.account}")
        accounts = (body.account,)
    command = AddAdmin(actor=who.actor, now=found.clock.now(), accounts=accounts)
    return json_response(done(await found.games.act(game, command)))


@router.delete(
    "/admins/{account}",
    **documented(
        responses={200: Done},
        errors=_ERRORS,
        summary="Remove an admin (admin); the last one stays",
    ),
)
async def remove_admin(request: Request, game: GameId, account: AccountId) -> Response:
    who = await required_caller(request)
    found = services(request)
    command = RemoveAdmin(actor=who.actor, now=found.clock.now(), accounts=(account,))
    return json_response(done(await found.games.act(game, command)))
