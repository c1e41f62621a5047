"""The web pages, served by the server itself: a game's live page (`/games/{game}`, with
`?turn=n` for a turn of its history: Skirmish Society's own, or for a game run by its
definition the shell that mounts the game's renderer, docs/games.md "A game's page"), the
sandboxes (Skirmish Society's `/sandbox`; `/sandbox/<game>` of each game whose definition has
one, `Sandboxed`: `server/pages/sandbox/<game>.html`, linked from the home page), and their
static files (`/static/...`, from `server/pages/`). The pages are plain ES modules with no
build step; they call the public API (with a token the reader types in, to fork or to move)
and make no request anywhere else, which the Content-Security-Policy below holds them to."""

import hashlib
import html
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from projections.owned import own_events
from rules.house import Sandboxed
from rules.registry import definitions
from schema import errors as codes
from schema.errors import Refusal
from server.http.routes.games import GameId
from server.services import services

router = APIRouter(include_in_schema=False)

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
# Only this server: no CDN, no web font, no third party; ws: for the live websocket.
_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": _POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # Files are revalidated on every load (cheaply, by ETag), so a new version is never stale.
    "Cache-Control": "no-cache",
}


class StaticFile:
    __slots__ = ("body", "etag", "media_type")

    def __init__(self, body: bytes, media_type: str) -> None:
        self.body = body
        self.media_type = media_type
        self.etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@cache
def static_files() -> dict[str, StaticFile]:
    """Every file under server/pages, by its path there; read once. Only these are served, so
    no request can reach any other file."""
    found: dict[str, StaticFile] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
                continue
            suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
            if suffix in _TYPES:
                found[prefix + entry.name] = StaticFile(entry.read_bytes(), _TYPES[suffix])

    walk(resources.files("server") / "pages", "")
    return found


def _serve(request: Request, path: str) -> Response:
    found = static_files().get(path)
    if found is None:
        raise Refusal(codes.NOT_FOUND, f"no such file: {path}")
    return send_file(request, found)


def send_file(request: Request, found: StaticFile) -> Response:
    """The file, or a 304 when the browser has this version (its ETag) already."""
    headers = {**_HEADERS, "ETag": found.etag}
    if request.headers.get("if-none-match") == found.etag:
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type=found.media_type, headers=headers)


# Where the home page links to each game's sandbox.
_SANDBOXES = "<!-- sandboxes -->"


def _sandboxed() -> dict[str, Sandboxed]:
    return {name: game for name, game in definitions().items() if isinstance(game, Sandboxed)}


@cache
def _sandbox_page(name: str, page: str | None) -> StaticFile | None:
    """A game's sandbox page: its own (`Sandbox.page`), or the built-in one of its name."""
    if page is not None:
        return StaticFile(page.encode(), _TYPES[".html"])
    return static_files().get(f"sandbox/{name}.html")


@cache
def _home(games: tuple[str, ...]) -> StaticFile:
    """The home page, with a link to the sandbox of each of `games`, in its definition's
    words, all in one sentence."""
    sandboxed = _sandboxed()
    links: list[str] = []
    for name in games:
        said = sandboxed[name].sandbox
        text = said.link if links else said.link[:1].upper() + said.link[1:]
        link = f'<a href="/sandbox/{html.escape(name)}">{html.escape(text, quote=False)}</a>'
        links.append(f"{link} {html.escape(said.does, quote=False)}")
    sentence = f"<p>{'; '.join(links)}.</p>" if links else ""
    page = static_files()["index.html"].body.decode().replace(_SANDBOXES, sentence)
    return StaticFile(page.encode(), _TYPES[".html"])


@router.get("/")
async def index(request: Request) -> Response:
    return send_file(request, _home(tuple(_sandboxed())))


@router.get("/games/{game}")
async def game_page(request: Request, game: GameId) -> Response:
    # A game run by its definition has the shell of every such game (play.html, which mounts
    # the game's own renderer); a game whose events are the room's own its own page
    # (`OwnEvents.page`: Skirmish Society's also tells of a game that does not exist or is
    # gone). Either reads the game's id from its own address.
    own = own_events((await services(request).games.load(game)).state.definition)
    return _serve(request, "play.html" if own is None else own.page())


@router.get("/sandbox")
async def sandbox_page(request: Request) -> Response:
    return _serve(request, "sandbox.html")


@router.get("/sandbox/{game}")
async def game_sandbox_page(
    request: Request, game: Annotated[str, Path(max_length=64)]
) -> Response:
    sandboxed = _sandboxed().get(game)
    page = None if sandboxed is None else _sandbox_page(game, sandboxed.sandbox.page)
    if page is None:
        raise Refusal(codes.NOT_FOUND, f"no game here has a sandbox named {game!r}")
    return send_file(request, page)


@router.get("/static/{path:path}")
async def static(request: Request, path: Annotated[str, Path(max_length=200)]) -> Response:
    if path.endswith(".html"):
        raise Refusal(codes.NOT_FOUND, f"no such file: {path}")
    return _serve(request, path)
