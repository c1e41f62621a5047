"""A game's admins: an admin adds and removes others; at least one always remains."""

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.api import Done, NewAdmin
from schema.commands import AddAdmin, RemoveAdmin
from schema.errors import Refusal
from server.game.application import readable
from server.http.acting import writer_and_body, writer_of
from server.http.api import documented
from server.http.routes.games import GameId

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
    writer, body = await writer_and_body(request, NewAdmin)
    found = writer.found
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
    command = AddAdmin(actor=writer.actor, now=writer.now(), accounts=accounts)
    return await writer.done(game, command)


@router.delete(
    "/admins/{account}",
    **documented(
        responses={200: Done},
        errors=_ERRORS,
        summary="Remove an admin (admin); the last one stays",
    ),
)
async def remove_admin(request: Request, game: GameId, account: AccountId) -> Response:
    writer = await writer_of(request)
    command = RemoveAdmin(actor=writer.actor, now=writer.now(), accounts=(account,))
    return await writer.done(game, command)
