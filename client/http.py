"""The HTTP side: one pool of keep-alive connections, the credentials a call carries, and
msgspec in and out (the bodies and answers of schema/api.py)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx
import msgspec

from client.connections import ConnectionFailed, Connections
from client.errors import Unreachable, error_from_answer

T = TypeVar("T")
_encode = msgspec.json.Encoder().encode
_JSON = {b"Content-Type": b"application/json"}


@dataclass(frozen=True)
class ActingUser:
    """The user a trusted client acts for (docs/api.md, "Identity"): `X-Acting-User`, and
    optionally `X-Acting-User-Name` and `X-Acting-User-Admin: true`."""

    id: str
    name: str | None = None
    # The client vouches that its user is an admin (of every game set up through it).
    admin: bool = False


def credential_headers(token: str | None, acting_user: ActingUser | None) -> dict[str, str]:
    """The headers that say who calls: the bearer token, and a trusted client's user."""
    headers: dict[str, str] = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if acting_user is not None:
        headers["X-Acting-User"] = _utf8(acting_user.id)
        if acting_user.name is not None:
            headers["X-Acting-User-Name"] = _utf8(acting_user.name)
        if acting_user.admin:
            headers["X-Acting-User-Admin"] = "true"
    return headers


def _utf8(text: str) -> str:
    """UTF-8 on the wire, which the server expects, as the Latin-1 text headers are (ISO
    8859-1 is how websockets writes them, and how `http_headers` turns them back)."""
    return text.encode().decode("latin-1")


def http_headers(headers: Mapping[str, str]) -> dict[bytes, bytes]:
    """The headers as bytes: httpx would encode text as ASCII, and refuse a non-ASCII name."""
    return {name.encode(): value.encode("latin-1") for name, value in headers.items()}


_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


def _decoder(type_: Any) -> msgspec.json.Decoder[Any]:
    decoder = _decoders.get(type_)
    if decoder is None:
        decoder = _decoders[type_] = msgspec.json.Decoder(type_)
    return decoder


class Http:
    """Calls on one pool of connections, which every client made from the same one shares:
    the client's own (client/connections.py), or an httpx.AsyncClient given to it."""

    def __init__(self, base_url: str, http: httpx.AsyncClient | None, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self._httpx = http
        self._connections = Connections(self.base_url, timeout) if http is None else None

    async def call(
        self,
        method: str,
        path: str,
        answer: type[T],
        headers: Mapping[bytes, bytes],
        body: object = None,
        params: dict[str, Any] | None = None,
    ) -> T:
        """The answer decoded as `answer`; an ApiError of the status's kind otherwise."""
        content = await self.send(method, path, headers, body, params)
        result: T = _decoder(answer).decode(content)
        return result

    async def send(
        self,
        method: str,
        path: str,
        headers: Mapping[bytes, bytes],
        body: object = None,
        params: dict[str, Any] | None = None,
    ) -> bytes:
        """The answer's body, once its status says it succeeded."""
        content = b"" if body is None else _encode(body)
        if body is not None:
            headers = {**headers, **_JSON}
        target = f"{path}?{urlencode(params)}" if params else path
        if self._connections is not None:
            try:
                answer = await self._connections.request(method, target, headers, content)
            except ConnectionFailed as error:
                raise Unreachable(f"{method} {path}: {error}") from error
            status, content = answer.status, answer.body
            retry_after = answer.headers.get(b"retry-after", b"").decode("latin-1") or None
        else:
            assert self._httpx is not None
            try:
                response = await self._httpx.request(
                    method, target, content=content or None, headers=headers
                )
            except httpx.TransportError as error:
                raise Unreachable(f"{method} {path}: {error!r}") from error
            status, content = response.status_code, response.content
            retry_after = response.headers.get("retry-after")
        if status >= 300:
            raise error_from_answer(status, content, retry_after)
        return content

    async def aclose(self) -> None:
        """Closes the client's own connections (an httpx client given is its giver's)."""
        if self._connections is not None:
            await self._connections.aclose()


class Caller:
    """What every call goes through: the connections, and the caller's credentials."""

    _http: Http
    _headers: dict[bytes, bytes]

    async def _call(
        self,
        method: str,
        path: str,
        answer: type[T],
        body: object = None,
        params: dict[str, Any] | None = None,
    ) -> T:
        return await self._http.call(method, path, answer, self._headers, body, params)
