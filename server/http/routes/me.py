"""Who am I: the caller's account and games, and the account's tokens (one per device)."""

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from projections import queries
from schema import errors as codes
from schema.accounts import ClientUser, Me, MyGame, NewToken, TokenCreated, TokenList
from schema.errors import Refusal
from server.accounts.store import MAX_TOKENS, Identity, LastToken, TooManyTokens
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.accounts import checked_name
from server.services import services

router = APIRouter(prefix="/v1/me", tags=["accounts"])


@router.get(
    "",
    **documented(
        responses={200: Me}, errors=(401,), summary="The caller's account, and their games"
    ),
)
async def me(
    request: Request,
    after: Annotated[str, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
) -> Response:
    who = await required_caller(request)
    client = None
    if who.client_id is not None and who.external_id is not None:
        client = ClientUser(who.client_id, who.external_id, who.vouched_admin)
    page = queries.Page[MyGame]([], None)
    if not who.operator:
        read_models = services(request).read_models
        page = await read_models.games_of(who.account_id, who.actor.vouched_by, after, limit)
    return json_response(Me(who.account_id, who.name, who.operator, client, page.items, page.next))


@router.get(
    "/tokens",
    **documented(
        responses={200: TokenList},
        errors=(401, 403),
        summary="The caller's tokens (never the tokens themselves)",
    ),
)
async def list_tokens(request: Request) -> Response:
    who = _token_holder(await required_caller(request))
    return json_response(TokenList(await services(request).accounts.tokens(who.account_id)))


@router.post(
    "/tokens",
    status_code=201,
    **documented(
        body=NewToken,
        responses={201: TokenCreated},
        errors=(401, 403, 409),
        summary="A new token, for another device: shown once",
    ),
)
async def add_token(request: Request) -> Response:
    who = _token_holder(await required_caller(request))
    body = await read_body(request, NewToken)
    name = checked_name(body.name)
    found = services(request)
    try:
        info, token = await found.accounts.add_token(who.account_id, name, found.clock.now())
    except TooManyTokens:
        raise Refusal(
            codes.TOO_MANY_TOKENS,
            f"an account holds at most {MAX_TOKENS} tokens: revoke one you no longer use",
        ) from None
    return json_response(TokenCreated(info.id, info.name, info.created_at, token), 201)


@router.delete(
    "/tokens/{token_id}",
    status_code=204,
    **documented(
        responses={204: None},
        errors=(401, 403, 404, 409),
        summary="Revoke a token (the one calling too); never the last one",
    ),
)
async def revoke_token(
    request: Request,
    token_id: Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")],
) -> Response:
    who = _token_holder(await required_caller(request))
    try:
        revoked = await services(request).accounts.revoke_token(who.account_id, token_id)
    except LastToken:
        raise Refusal(
            codes.LAST_TOKEN,
            "this is the account's only token: without it the account could never be used "
            "again; add another first",
        ) from None
    if not revoked:
        raise Refusal(codes.TOKEN_NOT_FOUND, f"you have no token {token_id!r}")
    return Response(status_code=204)


def _token_holder(who: Identity) -> Identity:
    """The caller, if their account has tokens of its own: a trusted client's users act
    through the client's token, and the operator's is the server's own."""
    if who.operator:
        raise Refusal(
            codes.NO_TOKENS_OF_ITS_OWN,
            "the operator's token is the server's: SKIRMISH_OPERATOR_TOKEN, or the one "
            "`skirmish serve` keeps in its data directory",
        )
    if who.client_id is not None:
        raise Refusal(
            codes.NO_TOKENS_OF_ITS_OWN,
            "a trusted client's user acts through the client's token and has none of their own",
        )
    return who
