"""Trusted clients, for the operator: made, listed, rotated and revoked (docs/api.md,
"Trusted clients")."""

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.accounts import ClientCreated, ClientList, NewClient
from schema.errors import Refusal
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.accounts import checked_name
from server.services import services

router = APIRouter(prefix="/v1/clients", tags=["accounts"])
ClientId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


async def _operator(request: Request) -> None:
    who = await required_caller(request)
    if not who.operator:
        raise Refusal(codes.OPERATOR_ONLY, "only the server's operator manages trusted clients")


def _not_found(client_id: str) -> Refusal:
    return Refusal(codes.CLIENT_NOT_FOUND, f"there is no trusted client {client_id!r}")


@router.post(
    "",
    status_code=201,
    **documented(
        body=NewClient,
        responses={201: ClientCreated},
        errors=(401, 403),
        summary="Create a trusted client token, for a bot acting for its users (operator)",
    ),
)
async def create_client(request: Request) -> Response:
    await _operator(request)
    body = await read_body(request, NewClient)
    found = services(request)
    client_id, token = await found.clients.create(checked_name(body.name), found.clock.now())
    return json_response(ClientCreated(client_id, token), 201)


@router.get(
    "",
    **documented(
        responses={200: ClientList},
        errors=(401, 403),
        summary="The trusted clients, revoked ones included (operator; never their tokens)",
    ),
)
async def list_clients(request: Request) -> Response:
    await _operator(request)
    return json_response(ClientList(await services(request).clients.listed()))


@router.post(
    "/{client_id}/rotate",
    **documented(
        responses={200: ClientCreated},
        errors=(401, 403, 404),
        summary="A new token for the same client, its users' accounts kept; the old token "
        "stops working (operator)",
    ),
)
async def rotate_client(request: Request, client_id: ClientId) -> Response:
    await _operator(request)
    found = services(request)
    token = await found.clients.rotate(client_id, found.clock.now())
    if token is None:
        raise _not_found(client_id)
    return json_response(ClientCreated(client_id, token))


@router.delete(
    "/{client_id}",
    status_code=204,
    **documented(
        responses={204: None},
        errors=(401, 403, 404),
        summary="Revoke a trusted client's token; the client and its users' accounts are "
        "kept (operator)",
    ),
)
async def revoke_client(request: Request, client_id: ClientId) -> Response:
    await _operator(request)
    found = services(request)
    if not await found.clients.revoke(client_id, found.clock.now()):
        raise _not_found(client_id)
    return Response(status_code=204)
