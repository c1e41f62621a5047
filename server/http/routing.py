"""The routes a request's path leads to, for the answers given outside a route: the route
label of an answer that server/http/gate.py gave before routing (server/http/metrics.py), and the
`Allow` header of a 405 (server/http/errors.py), which names every method of the path, not only
those of the first route that matched it as Starlette's own does."""

from fastapi.routing import RouteContext, iter_route_contexts
from starlette.routing import Match
from starlette.types import Scope


def _matching(scope: Scope) -> list[tuple[Match, RouteContext]]:
    """The app's routes whose path matches the request's: FULL if the method fits too."""
    found = []
    for route in iter_route_contexts(scope["app"].routes):
        # A copy: matching may leave keys of its own in the scope it is given.
        match, _ = route.matches(dict(scope))
        if match != Match.NONE:
            found.append((match, route))
    return found


def template(scope: Scope) -> str | None:
    """The template (`/v1/games/{game}/orders`) of the route that would have answered, or
    of one serving the path with another method; None if no route serves the path."""
    routes = sorted(_matching(scope), key=lambda found: found[0] != Match.FULL)
    return routes[0][1].path_format if routes else None


def allowed_methods(scope: Scope) -> list[str]:
    """Every method that some route serves at the request's path."""
    return sorted({method for _, route in _matching(scope) for method in route.methods or ()})
