"""Who is calling, from the request's headers (docs/api.md, "Identity")."""

import msgspec
from starlette.requests import HTTPConnection

from server.accounts import Identity
from server.errors import ApiError
from server.services import services

MAX_EXTERNAL_ID = 200


def _bearer(request: HTTPConnection) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_authorization", "use the header Authorization: Bearer <token>")
    return token.strip()


async def caller(request: HTTPConnection) -> Identity | None:
    """The caller's identity, or None for an anonymous reader. A wrong token is a 401,
    never silently anonymous."""
    token = _bearer(request)
    if token is None:
        return None
    return await identify(request, token)


async def identify(request: HTTPConnection, token: str) -> Identity:
    found = services(request)
    accounts = found.accounts
    identity = await accounts.identify(token)
    if identity is not None:
        return identity
    client_id = await accounts.client_of(token)
    if client_id is None:
        raise ApiError(401, "bad_token", "this token is not known")
    external_id = request.headers.get("x-acting-user", "").strip()
    if not external_id or len(external_id) > MAX_EXTERNAL_ID or not external_id.isprintable():
        raise ApiError(
            401, "acting_user_required", "a client token acts for a user: send X-Acting-User"
        )
    name = request.headers.get("x-acting-user-name", "").strip()[:32] or external_id[:32]
    vouched = request.headers.get("x-acting-user-admin", "false").strip().lower()
    if vouched not in ("true", "false"):
        raise ApiError(400, "bad_acting_user_admin", "X-Acting-User-Admin is true or false")
    identity = await accounts.acting_user(client_id, external_id, name, found.clock.now())
    return msgspec.structs.replace(identity, vouched_admin=vouched == "true")


async def required_caller(request: HTTPConnection) -> Identity:
    identity = await caller(request)
    if identity is None:
        raise ApiError(401, "token_required", "this call needs Authorization: Bearer <token>")
    return identity
