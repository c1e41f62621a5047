"""Accounts (trusted clients: server/http/routes/clients.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.accounts import AccountCreated, NewAccount
from schema.bounds import check_name
from server.accounts.throttle import client_address
from server.http.api import documented, json_response, read_body
from server.http.identity import caller
from server.services import services

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
