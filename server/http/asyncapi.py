"""/asyncapi.json: the websocket of a live game (docs/api.md, "Live") as an AsyncAPI 3
document. Its schemas are generated from the Structs of schema/live.py, as
/openapi.json's are from the HTTP bodies; nothing in it is written twice."""

import functools
import inspect
from typing import Any, get_args

import msgspec

from schema.live import LiveQuery, ServerMessage, TokenMessage
from server.http.api import json_schemas

ADDRESS = "/v1/games/{game}/live"
_CHANNEL = "#/channels/live"
# The handshake's headers: the token as over HTTP, for clients that can send headers.
_HEADERS = {
    "type": "object",
    "properties": {
        "Authorization": {
            "type": "string",
            "pattern": "^[Bb][Ee][Aa][Rr][Ee][Rr] .+",
            "description": (
                "Bearer <token>: the socket is also that player's private channel, as with "
                "?token= or a first message, but known from the handshake. Not with ?token=."
            ),
        }
    },
}


@functools.cache
def asyncapi_document() -> dict[str, Any]:
    server_messages: tuple[type[msgspec.Struct], ...] = get_args(ServerMessage)
    _, schemas = json_schemas([LiveQuery, TokenMessage, *server_messages])
    # A binding's query is a schema of its own: a reference there is ambiguous.
    query = schemas.pop(LiveQuery.__name__)
    messages = {"token": _message("token", TokenMessage)}
    messages |= {_tag(cls): _message(_tag(cls), cls) for cls in server_messages}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Skirmish server: live games",
            "version": "1",
            "description": (
                "A game followed live over a websocket, catching up from `after` and then as "
                'it happens, exactly once and in order; docs/api.md, "Live", says how.'
            ),
        },
        "defaultContentType": "application/json",
        "channels": {
            "live": {
                "address": ADDRESS,
                "title": "A live game",
                "parameters": {"game": {"description": "The game's id."}},
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "query": draft_07(query),
                        "headers": _HEADERS,
                        "bindingVersion": "0.1.0",
                    }
                },
            }
        },
        "operations": {
            "receiveToken": {
                "action": "receive",
                "channel": {"$ref": _CHANNEL},
                "summary": _summary(TokenMessage),
                "messages": [{"$ref": f"{_CHANNEL}/messages/token"}],
            },
            "sendMessages": {
                "action": "send",
                "channel": {"$ref": _CHANNEL},
                "summary": "What the server says: every message has `type` and `position`.",
                "messages": [
                    {"$ref": f"{_CHANNEL}/messages/{_tag(cls)}"} for cls in server_messages
                ],
            },
        },
        "components": {
            "messages": messages,
            "schemas": {n: draft_07(s) for n, s in schemas.items()},
        },
    }


def _tag(cls: type[msgspec.Struct]) -> str:
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def _summary(cls: type[msgspec.Struct]) -> str:
    return (inspect.getdoc(cls) or cls.__name__).split("\n\n")[0].replace("\n", " ")


def _message(name: str, cls: type[msgspec.Struct]) -> dict[str, Any]:
    return {
        "name": name,
        "summary": _summary(cls),
        "payload": {"$ref": f"#/components/schemas/{cls.__name__}"},
    }


def draft_07(schema: Any) -> Any:
    """A JSON schema of msgspec (draft 2020-12, with OpenAPI's discriminator) in the AsyncAPI
    schema format, a superset of draft 07: a tuple's items are a list, and a discriminator
    names the property only."""
    if isinstance(schema, list):
        return [draft_07(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: draft_07(value) for key, value in schema.items()}
    if "prefixItems" in converted:
        converted["additionalItems"] = converted.pop("items", True)
        converted["items"] = converted.pop("prefixItems")
    if isinstance(converted.get("discriminator"), dict):
        converted["discriminator"] = converted["discriminator"]["propertyName"]
    return converted
