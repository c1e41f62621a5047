"""Who is calling, from the request's headers (docs/api.md, "Identity"). server/http/gate.py
finds it once for every HTTP request; the routes read it with `caller` and
`required_caller`."""

import msgspec
from starlette.requests import HTTPConnection

from schema import errors as codes
from schema.bounds import MAX_NAME, check_name
from schema.errors import Refusal
from schema.refusals import InvalidCommand
from server.accounts.store import Identity
from server.services import services

MAX_EXTERNAL_ID = 200


def bearer_token(connection: HTTPConnection) -> str | None:
    """The token of the Authorization header, if any; a header that is not `Bearer <token>`
    is refused."""
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal(codes.BAD_AUTHORIZATION, "use the header Authorization: Bearer <token>")
    return token.strip()


async def authenticate(connection: HTTPConnection) -> Identity | None:
    """The identity the request's token stands for, or None without a token. A token that
    is present but wrong, or a header that is not `Bearer <token>`, is a 401: never
    silently anonymous."""
    token = bearer_token(connection)
    if token is None:
        return None
    return await identify(connection, token)


async def identify(connection: HTTPConnection, token: str) -> Identity:
    found = services(connection)
    accounts = found.accounts
    identity = await accounts.identify(token, found.clock.now())
    if identity is not None:
        return identity
    client_id = await found.clients.client_of(token)
    if client_id is None:
        raise Refusal(codes.BAD_TOKEN, "this token is not known")
    try:
        external_id = utf8_header(connection, "x-acting-user").strip()
    except UnicodeDecodeError:
        external_id = ""
    if not external_id or len(external_id) > MAX_EXTERNAL_ID or not external_id.isprintable():
        raise Refusal(
            codes.ACTING_USER_REQUIRED, "a client token acts for a user: send X-Acting-User"
        )
    name = acting_user_name(connection) or external_id[:MAX_NAME]
    vouched = connection.headers.get("x-acting-user-admin", "false").strip().lower()
    if vouched not in ("true", "false"):
        raise Refusal(codes.BAD_ACTING_USER_ADMIN, "X-Acting-User-Admin is true or false")
    identity = await accounts.acting_user(client_id, external_id, name, found.clock.now())
    return msgspec.structs.replace(identity, vouched_admin=vouched == "true")


def utf8_header(connection: HTTPConnection, name: str) -> str:
    """A header's value as the UTF-8 text clients send ("" when absent): Starlette decodes
    headers as Latin-1, which would make "é" "Ã©"."""
    return connection.headers.get(name, "").encode("latin-1").decode("utf-8")


def acting_user_name(connection: HTTPConnection) -> str | None:
    """The name a trusted client gives its user (X-Acting-User-Name, UTF-8), if any: one
    line of printable text of at most MAX_NAME characters, refused otherwise (never cut)."""
    try:
        name = utf8_header(connection, "x-acting-user-name")
        return check_name("X-Acting-User-Name", name) if name else None
    except (UnicodeDecodeError, InvalidCommand):
        raise Refusal(
            codes.INVALID_ACTING_USER_NAME,
            f"X-Acting-User-Name must be one line of printable UTF-8 text of at most "
            f"{MAX_NAME} characters",
        ) from None


async def caller(connection: HTTPConnection) -> Identity | None:
    """The caller's identity as the gate found it, or None for an anonymous reader."""
    identity: Identity | None = connection.state.identity
    return identity


async def required_caller(connection: HTTPConnection) -> Identity:
    identity = await caller(connection)
    if identity is None:
        raise Refusal(codes.TOKEN_REQUIRED, "this call needs Authorization: Bearer <token>")
    return identity
