"""Every HTTP route of the app, with its path parameters filled in, for the tests that
must reach them all (cross-origin preflights, reads checked for secrets)."""

import re
from collections.abc import Mapping, Sequence

from starlette.routing import BaseRoute, Route

from tests.api.support import Server


def every_route(
    server: Server, game: str, values: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """(method, path) of every HTTP route, with made-up path parameters (`values` first)."""
    filled = {"game": game, "turn": "1", "name": "rulebook", "action": "pause", **(values or {})}
    calls = []
    for route in _flat(server.app.routes):
        path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: filled.get(m[1], "x"), route.path)
        calls += [(method, path) for method in sorted(route.methods or ()) if method != "HEAD"]
    return calls


def _flat(routes: Sequence[BaseRoute]) -> list[Route]:
    found: list[Route] = []
    for route in routes:
        # Newer FastAPI keeps an included router whole, older copies its routes.
        included = getattr(route, "original_router", None)
        if included is not None:
            found += _flat(included.routes)
        elif isinstance(route, Route):
            found.append(route)
    return found
