"""The published contracts as validators: /openapi.json's schema of every answer, and
/asyncapi.json's of every websocket message, with their references resolved; and a recorder
of every HTTP exchange a test's client makes, to be checked against them."""

import re
from dataclasses import dataclass, field
from typing import Any

import httpx
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.protocols import Validator
from referencing import Registry, Resource, Specification
from referencing.jsonschema import DRAFT7, DRAFT202012

Json = dict[str, Any]


class Contract:
    """A published document, whose schemas validate instances by their JSON pointer."""

    def __init__(
        self,
        document: Json,
        uri: str,
        specification: Specification[Any],
        validator: type[Validator],
    ) -> None:
        self.document = document
        self._uri = uri
        resource: Resource[Any] = specification.create_resource(document)
        self._registry: Registry[Any] = Registry().with_resource(uri, resource)
        self._validator = validator

    def errors(self, instance: Any, *pointer: str) -> list[str]:
        """What is wrong with `instance` under the schema at `pointer` (its parts, unescaped)."""
        escaped = "/".join(part.replace("~", "~0").replace("/", "~1") for part in pointer)
        validator = self._validator({"$ref": f"{self._uri}#/{escaped}"}, registry=self._registry)
        return [
            f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}"
            for error in validator.iter_errors(instance)
        ]


def openapi(document: Json) -> Contract:
    return Contract(document, "urn:skirmish:openapi", DRAFT202012, Draft202012Validator)


def asyncapi(document: Json) -> Contract:
    # AsyncAPI's schema format is a superset of draft 07.
    return Contract(document, "urn:skirmish:asyncapi", DRAFT7, Draft7Validator)


@dataclass(frozen=True)
class Exchange:
    method: str
    path: str
    status: int
    body: object


@dataclass
class Recorder:
    """Every request a client sends and the answer it gets (install with `follow`)."""

    exchanges: list[Exchange] = field(default_factory=list)

    def follow(self, client: httpx.AsyncClient) -> None:
        client.event_hooks["response"].append(self._record)

    async def _record(self, response: httpx.Response) -> None:
        await response.aread()
        body = response.json() if response.content else None
        request = response.request
        self.exchanges.append(
            Exchange(request.method, request.url.path, response.status_code, body)
        )


def answer_errors(contract: Contract, exchange: Exchange) -> list[str]:
    """What is wrong with an answer: an operation or a status the document does not have,
    or a body that does not fit the documented schema."""
    paths = contract.document["paths"]
    template = _template(paths, exchange.path)
    said = f"{exchange.method} {exchange.path} {exchange.status}"
    if template is None:
        return [f"{said}: no such path in /openapi.json"]
    operation = paths[template].get(exchange.method.lower())
    if operation is None:
        return [f"{said}: no such operation in /openapi.json"]
    status = str(exchange.status)
    response = operation["responses"].get(status)
    if response is None:
        return [f"{said}: the status is not documented"]
    if "content" not in response:
        return [] if exchange.body is None else [f"{said}: a body where none is documented"]
    pointer = ("paths", template, exchange.method.lower(), "responses", status, "content")
    errors = contract.errors(exchange.body, *pointer, "application/json", "schema")
    return [f"{said}: {error}" for error in errors]


def _template(paths: Json, path: str) -> str | None:
    """The path template of /openapi.json that a request's path falls under; a fixed
    segment wins over a parameter (`/admin/pause` over `/{action}`)."""
    matching = [
        template
        for template in paths
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path) is not None
    ]
    return min(matching, key=lambda t: t.count("{"), default=None)


def message_errors(contract: Contract, messages: list[Json]) -> list[str]:
    """What in websocket messages does not fit the AsyncAPI document's messages."""
    channel = contract.document["channels"]["live"]["messages"]
    errors = []
    for message in messages:
        kind = str(message.get("type"))
        if kind not in channel or kind == "token":
            errors.append(f"a message of no documented type: {message}")
            continue
        found = contract.errors(message, "components", "messages", kind, "payload")
        errors += [f"{kind} at {message['position']}: {error}" for error in found]
    return errors
