"""The API's browsable documents, Swagger UI at `/docs` and ReDoc at `/redoc`, with their
scripts and styles served from the package fastapi-offline (`/docs/assets/...`) rather than
from a CDN: they work offline, and the pages make no request beyond the server."""

from functools import cache
from importlib import resources
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

from schema import errors as codes
from schema.errors import Refusal
from server.http.routes.web import StaticFile, send_file

router = APIRouter(include_in_schema=False)

ASSETS = "/docs/assets"
_TYPES = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "redoc.standalone.js": "text/javascript; charset=utf-8",
    "favicon.png": "image/png",
}


# ReDoc shows Redocly's logo from Redocly's CDN whatever its options: the page would tell a
# third party of every reader. Without it, the image fails at once and ReDoc leaves it out.
_THIRD_PARTY = {"redoc.standalone.js": (b"https://cdn.redoc.ly/redoc/logo-mini.svg", b"data:,")}


@cache
def assets() -> dict[str, StaticFile]:
    """The four files the pages load, read once from the installed package."""
    folder = resources.files("fastapi_offline") / "static"
    found = {}
    for name, kind in _TYPES.items():
        body = (folder / name).read_bytes()
        if name in _THIRD_PARTY:
            body = body.replace(*_THIRD_PARTY[name])
        found[name] = StaticFile(body, kind)
    return found


def _root(request: Request) -> str:
    # Behind a proxy that serves the server under a path (uvicorn's --root-path).
    return str(request.scope.get("root_path", "")).rstrip("/")


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    root = _root(request)
    return get_swagger_ui_html(
        openapi_url=f"{root}/openapi.json",
        title=f"{request.app.title} - Swagger UI",
        swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
        # Swagger UI would otherwise send the whole document to an online validator.
        swagger_ui_parameters={"validatorUrl": None},
    )


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    root = _root(request)
    return get_redoc_html(
        openapi_url=f"{root}/openapi.json",
        title=f"{request.app.title} - ReDoc",
        redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
        redoc_favicon_url=f"{root}{ASSETS}/favicon.png",
        with_google_fonts=False,
    )


@router.get(ASSETS + "/{name}")
async def asset(request: Request, name: Annotated[str, Path(max_length=100)]) -> Response:
    found = assets().get(name)
    if found is None:
        raise Refusal(codes.NOT_FOUND, f"no such file: {name}")
    return send_file(request, found)
