"""The API's documents, Swagger UI at /docs and ReDoc at /redoc, work offline: their pages
name no other host, and in a Chromium that cannot reach any host but loopback they show
every operation of /openapi.json."""

import re
from typing import TYPE_CHECKING

from tests.browser.support import WAIT_MS, Server

if TYPE_CHECKING:
    from playwright.async_api import Page, Route

# A URL with a host of its own: scheme-relative ones included.
_ELSEWHERE = re.compile(r"(?:https?:)?//[^/\"'\s]", re.IGNORECASE)


async def only_loopback(page: "Page") -> None:
    """Abort every request to a host other than this machine's loopback."""

    async def route(found: "Route") -> None:
        host = re.match(r"^[a-z]+://([^/:]+)", found.request.url)
        if host is None or host[1] in ("127.0.0.1", "localhost", "[::1]"):
            await found.continue_()
        else:
            await found.abort()

    await page.context.route("**/*", route)


async def operations(server: Server) -> int:
    document = (await server.client.get("/openapi.json")).json()
    verbs = {"get", "put", "post", "delete", "patch", "head", "options"}
    return sum(1 for path in document["paths"].values() for verb in path if verb in verbs)


async def test_the_document_pages_name_no_other_host(server: Server) -> None:
    for path in ("/docs", "/redoc"):
        page = await server.client.get(path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert not _ELSEWHERE.findall(page.text), path
        for asset in re.findall(r'(?:src|href)="([^"]+)"', page.text):
            if asset.startswith("/docs/assets/"):
                assert (await server.client.get(asset)).status_code == 200, asset


async def test_swagger_ui_shows_every_operation_offline(server: Server, page: "Page") -> None:
    await only_loopback(page)
    await page.goto(f"{server.base}/docs")
    shown = page.locator(".opblock")
    await shown.first.wait_for(timeout=WAIT_MS)
    assert await shown.count() == await operations(server)
    orders = page.locator(
        ".opblock-summary-path", has_text=re.compile(r"^/v1/games/\{game\}/orders$")
    )
    assert await orders.count() == 2  # PUT and GET


async def test_redoc_shows_every_operation_offline(server: Server, page: "Page") -> None:
    await only_loopback(page)
    await page.goto(f"{server.base}/redoc")
    shown = page.locator("[data-section-id^='operation/']")
    await shown.first.wait_for(state="attached", timeout=WAIT_MS)
    ids = await shown.evaluate_all("found => found.map(section => section.dataset.sectionId)")
    assert len(set(ids)) == await operations(server)
    assert "operation/submit_orders_v1_games__game__orders_put" in ids
