"""Accounts and trusted clients."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.accounts import AccountCreated, ClientCreated, NewAccount, NewClient
from server.api import documented, json_response, read_body
from server.decide.acting import check_name
from server.errors import ApiError
from server.identity import caller, required_caller
from server.services import services
from server.throttle import client_address

router = APIRouter(prefix="/v1", tags=["accounts"])


def checked_name(text: str) -> str:
    """A name for an account, a client or a token: one line of at most 32 characters."""
    return check_name("the name", text)


@router.post(
    "/accounts",
    status_code=201,
    **documented(body=NewAccount, responses={201: AccountCreated}, summary="Create an account"),
)
async def create_account(request: Request) -> Response:
    body = await read_body(request, NewAccount)
    name = checked_name(body.name)
    found = services(request)
    found.throttle.account_created(await caller(request), client_address(request))
    account_id, token = await found.accounts.create(name, found.clock.now())
    return json_response(AccountCreated(account_id, token), 201)


@router.post(
    "/clients",
    status_code=201,
    **documented(
        body=NewClient,
        responses={201: ClientCreated},
        errors=(401, 403),
        summary="Create a trusted client token, for a bot acting for its users (operator)",
    ),
)
async def create_client(request: Request) -> Response:
    who = await required_caller(request)
    if not who.operator:
        raise ApiError(codes.OPERATOR_ONLY, "only the server operator creates client tokens")
    body = await read_body(request, NewClient)
    found = services(request)
    client_id, token = await found.accounts.create_client(
        checked_name(body.name), found.clock.now()
    )
    return json_response(ClientCreated(client_id, token), 201)
