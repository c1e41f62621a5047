"""The edges of the HTTP API: errors, msgspec bodies in and out, and their OpenAPI schemas.

Bodies are decoded by msgspec into frozen Structs that refuse unknown fields, and refused if
an object holds a key twice; responses are encoded once by msgspec. FastAPI does not know
msgspec types, so every route declares its body and responses through `documented(...)`,
and `openapi_components()` adds their JSON schemas to /openapi.json. A route whose types are
the games' (`ByGame`: each game's what-if, its maps) has them asked when /openapi.json is
made, once every game, built in or from outside, is registered.
"""

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import msgspec
from fastapi import Request
from fastapi.responses import Response

from schema import errors as codes
from schema.errors import Refusal
from server.accounts.throttle import WRITES

T = TypeVar("T")
MAX_BODY = 64 * 1024
NESTED_TOO_DEEPLY = "the body is not valid JSON: it is nested too deeply"
_encoder = msgspec.json.Encoder()
_registered: set[Any] = set()
# The schemas of `ByGame` types, each filled in by `document_games`, and what they ask.
_by_game: list[tuple[dict[str, Any], "ByGame"]] = []
# The mark `documented` leaves on an operation that answers refusals as replies, for
# `document_shared`, which takes it off.
_REPLIES = "x-refusals-as-replies"


class ErrorDetail(msgspec.Struct, frozen=True):
    """`code` is one of docs/errors.md; some codes add fields of their own."""

    code: str
    message: str
    # With `orders_locked`: when orders open again; null while a turn that is due resolves
    # (they open a few minutes after it).
    orders_open_at: datetime | msgspec.UnsetType | None = msgspec.UNSET


class Error(msgspec.Struct, frozen=True):
    error: ErrorDetail


class ByGame:
    """Types that `documented` asks for only when /openapi.json is made: those of the games
    registered then (`types`, any one of them), which a game from outside joins."""

    def __init__(self, types: Callable[[], tuple[Any, ...]]) -> None:
        self.types = types


def json_response(value: object, status: int = 200) -> Response:
    return Response(_encoder.encode(value), status_code=status, media_type="application/json")


async def read_body(request: Request, type_: type[T], *, required: bool = True) -> T:
    """The request's JSON body as `type_`, or a 4xx that says what is wrong. A body that is
    not `required` (every field of `type_` has a default) may be left out. (The body's size
    is bounded before it is read: see server.http.limits.)"""
    body = await request.body()
    if not body.strip():
        if not required:
            return type_()
        raise Refusal(codes.EMPTY_BODY, "a JSON body is required")
    refuse_duplicate_keys(body)
    try:
        return msgspec.json.decode(body, type=type_)
    # ValidationError is a DecodeError too: it must be caught first.
    except msgspec.ValidationError as error:
        raise Refusal(codes.INVALID_BODY, str(error)) from error
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        raise Refusal(codes.INVALID_JSON, f"the body is not valid JSON: {error}") from error


def refuse_duplicate_keys(body: bytes) -> None:
    """A 400 if an object anywhere in `body` holds a key twice. JSON parsers keep the last
    one silently, so that the server and a client (or a proxy that checked the body) could
    read different things. A body that is not JSON passes: its decoder says what is wrong.

    A 400 too for a body nested too deeply for Python's parser, which gives up a few levels
    before msgspec's does (both at the interpreter's recursion limit): so msgspec, which
    raises RecursionError rather than a DecodeError, never meets one."""
    try:
        text = body.decode()
        json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_int=_ignore,
            parse_float=_ignore,
            parse_constant=_ignore,
        )
    except RecursionError:
        raise Refusal(codes.INVALID_JSON, NESTED_TOO_DEEPLY) from None
    except ValueError:
        return


def _unique_keys(pairs: list[tuple[str, object]]) -> None:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            shown = key if len(key) <= 40 else key[:40] + "..."
            raise Refusal(codes.DUPLICATE_KEY, f"the key {shown!r} appears twice in one object")
        seen.add(key)


def _ignore(_: str) -> None:
    """Numbers are not looked at: only the keys are."""


def documented(
    *,
    body: Any = None,
    body_required: bool = True,
    responses: dict[int, Any] | None = None,
    errors: Sequence[int] = (),
    summary: str | None = None,
    refusals_as_replies: bool = False,
) -> dict[str, Any]:
    """Route arguments that document a msgspec body and msgspec responses in OpenAPI. A
    route on a game (a `game` path parameter) may answer 410 without saying so here (see
    `document_shared`), unless it answers the game's refusals as replies (the text commands)."""
    extra: dict[str, Any] = {}
    if refusals_as_replies:
        extra[_REPLIES] = True
    if body is not None:
        extra["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": _schema_of(body)}},
        }
    documented_responses: dict[int | str, Any] = {}
    for status, type_ in (responses or {}).items():
        documented_responses[status] = _response(type_, _reason(status))
    # Any call may meet a database that is down, or a game too busy to take it: 503.
    for status in (400, 413, 422, 503, *errors):
        documented_responses.setdefault(status, _response(Error, _reason(status)))
    arguments: dict[str, Any] = {"openapi_extra": extra, "responses": documented_responses}
    if summary:
        arguments["summary"] = summary
    return arguments


def _response(type_: Any, description: str) -> dict[str, Any]:
    if type_ is None:
        return {"description": description}
    return {
        "description": description,
        "content": {"application/json": {"schema": _schema_of(type_)}},
    }


def _schema_of(type_: Any, registered: set[Any] = _registered) -> dict[str, Any]:
    # A tuple is any one of its types: msgspec cannot make a union of untagged Structs, and
    # each game's adjudication request is one (its `ruleset` has a default).
    if isinstance(type_, tuple):
        return {"anyOf": [_schema_of(one, registered) for one in type_]}
    if isinstance(type_, ByGame):
        later: dict[str, Any] = {}
        _by_game.append((later, type_))
        return later
    registered.add(type_)
    (schema,), _ = json_schemas([type_])
    return schema


def document_games() -> set[Any]:
    """Fill in the schemas of the `ByGame` types with the games registered now (before the
    routes are read for /openapi.json): the types they name, for `openapi_components`."""
    named: set[Any] = set()
    for schema, by_game in _by_game:
        schema.clear()
        schema.update(_schema_of(by_game.types(), named))
    return named


def openapi_components(by_game: set[Any]) -> dict[str, Any]:
    """JSON schemas of every msgspec type a route documented, and of the games' (`by_game`,
    from `document_games`)."""
    _, components = json_schemas(sorted(_registered | by_game, key=repr))
    return components


def json_schemas(types: Sequence[Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """msgspec's JSON schemas of `types`, and of the types they refer to (its components,
    referred to as `#/components/schemas/<name>`). A tagged union is written as a oneOf:
    msgspec writes anyOf, but its members exclude one another, each having a tag of its own."""
    schemas, components = msgspec.json.schema_components(
        types, ref_template="#/components/schemas/{name}"
    )
    return [_one_of(s) for s in schemas], {n: _one_of(s) for n, s in components.items()}


def _one_of(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_one_of(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    tagged = "discriminator" in schema and "anyOf" in schema
    return {
        ("oneOf" if tagged and key == "anyOf" else key): _one_of(value)
        for key, value in schema.items()
    }


def _reason(status: int) -> str:
    return {
        200: "OK",
        201: "Created",
        204: "No content",
        400: "The body is not valid JSON",
        401: "No valid token",
        403: "Not allowed",
        404: "Not found",
        409: "Refused in the game's current state",
        410: "Gone: the game was killed (`game_killed`)",
        413: "The body is too large",
        422: "The body does not fit the schema, or a value is out of range",
        429: "Too many requests: a rate limit; try again after Retry-After seconds",
        503: "Busy or unavailable; try again",
    }.get(status, "Error")


def document_shared(schema: dict[str, Any]) -> None:
    """Add the answers that many operations share to every operation of an OpenAPI document
    that may give them: what server/http/gate.py may answer to any (401 for a token that is
    present but wrong, 429 with Retry-After for a write over a limit), and 410 to every
    operation on a game (a killed game's answer, from whichever step meets it first)."""
    error = _response(Error, _reason(401))
    limited = {
        **_response(Error, _reason(429)),
        "headers": {
            "Retry-After": {
                "description": "Whole seconds to wait before trying again",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    }
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.setdefault("401", error)
            if method.upper() in WRITES:
                responses.setdefault("429", limited)
            replies = operation.pop(_REPLIES, False)
            if _on_a_game(operation) and not replies:
                responses.setdefault("410", _response(Error, _reason(410)))


def _on_a_game(operation: dict[str, Any]) -> bool:
    return any(
        parameter.get("in") == "path" and parameter.get("name") == "game"
        for parameter in operation.get("parameters", ())
    )
