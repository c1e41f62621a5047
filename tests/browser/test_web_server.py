"""What the pages need from the server, over HTTP: the pages and their static files, maps
with outlines (built-in and generated), and the effects; and the outlines themselves."""

import msgspec
import pytest

from rules.skirmish.board import GameMap
from rules.skirmish.effects import DESCRIPTIONS
from rules.skirmish.mapgen import generate
from rules.skirmish.maps import builtin_map, builtin_names
from server.http.routes.web import static_files
from server.pictures.outlines import drawable, drawable_builtin
from tests.browser.support import Server


def borders(game_map: GameMap) -> set[frozenset[str]]:
    """The pairs of territories whose outlines share a segment."""
    segments: dict[frozenset[tuple[float, float]], set[str]] = {}
    for t in game_map.territories:
        for k, point in enumerate(t.outline):
            segment = frozenset((point, t.outline[(k + 1) % len(t.outline)]))
            segments.setdefault(segment, set()).add(t.id)
    return {frozenset(ids) for ids in segments.values() if len(ids) == 2}


def contains(outline: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("name", builtin_names())
def test_built_in_maps_get_outlines_whose_borders_are_the_edges(name: str) -> None:
    plain = builtin_map(name)
    drawn = drawable_builtin(name)
    assert [t.id for t in drawn.territories] == [t.id for t in plain.territories]
    assert (drawn.edges, drawn.overseas, drawn.homes) == (plain.edges, plain.overseas, plain.homes)
    for territory in drawn.territories:
        assert len(set(territory.outline)) >= 3, territory.id
        assert contains(territory.outline, territory.x, territory.y), territory.id
    assert borders(drawn) == {frozenset(edge) for edge in plain.edges}
    # Deterministic: the same outlines every time, not only from the cache.
    assert drawable(plain) == drawn


def test_a_map_without_coordinates_gets_a_layout_of_its_own() -> None:
    plain = builtin_map("diplomacy-land")
    unknown = msgspec.structs.replace(plain, name="somewhere-else")
    drawn = drawable(unknown)
    assert all(len(t.outline) >= 3 for t in drawn.territories)
    assert drawn == drawable(unknown)
    # The spring layout is rougher than the known sites, but mostly right.
    wanted = {frozenset(edge) for edge in plain.edges}
    assert len(borders(drawn) & wanted) >= 0.8 * len(wanted)


def test_a_map_with_outlines_is_left_as_it_is() -> None:
    generated = generate(5, "normal", 11)
    assert drawable(generated) is generated


async def test_the_maps_and_effects_endpoints(server: Server) -> None:
    client = server.client
    listed = (await client.get("/v1/maps")).json()["maps"]
    # Skirmish Society's maps, as ever; then other games' (tests/api/test_builtin_maps.py).
    shown = [m["name"] for m in listed if m["game"] == "skirmish-society"]
    assert shown == list(builtin_names())
    assert shown == [m["name"] for m in listed[: len(shown)]]
    assert {m["name"]: m["territories"] for m in listed}["rulebook"] == 16

    rulebook = await client.get("/v1/maps/rulebook")
    assert rulebook.status_code == 200
    assert rulebook.content == msgspec.json.encode(drawable_builtin("rulebook"))
    missing = await client.get("/v1/maps/atlantis")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "map_not_found"

    generated = await client.post("/v1/maps/generate", json={"players": 4, "seed": 3})
    assert generated.status_code == 200
    assert generated.content == msgspec.json.encode(generate(4, "normal", 3))
    spacious = await client.post(
        "/v1/maps/generate", json={"players": 3, "type": "spacious", "seed": 1}
    )
    assert spacious.json()["name"] == "generated-spacious-3p-s1"
    for body, code in (
        ({"players": 2, "seed": 1}, "invalid_body"),
        ({"players": 4, "seed": -1}, "invalid_body"),
        ({"players": 4, "type": "huge"}, "invalid_body"),
        ({"players": 4, "colour": "red"}, "invalid_body"),
    ):
        refused = await client.post("/v1/maps/generate", json=body)
        assert refused.status_code == 422, body
        assert refused.json()["error"]["code"] == code, body

    effects = (await client.get("/v1/effects")).json()["effects"]
    assert {e["name"]: e["description"] for e in effects} == {
        effect.value: text for effect, text in DESCRIPTIONS.items()
    }

    schema = (await client.get("/openapi.json")).json()
    assert {"/v1/maps", "/v1/maps/{name}", "/v1/maps/generate", "/v1/effects"} <= set(
        schema["paths"]
    )
    assert "GameMap" in schema["components"]["schemas"]
    assert not any(path.startswith(("/games", "/static", "/sandbox")) for path in schema["paths"])


async def test_the_pages_and_their_static_files(server: Server) -> None:
    client = server.client
    for path in ("/", "/games/abc123", "/sandbox", "/sandbox/skor", "/games/abc123?turn=2"):
        page = await client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html")
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy
        assert "connect-src 'self'" in policy
    assert (await client.get("/games/not%20an%20id")).status_code == 422

    for name, kind in (
        ("js/game.js", "text/javascript"),
        ("js/sandbox.js", "text/javascript"),
        ("css/style.css", "text/css"),
        ("examples.json", "application/json"),
        ("favicon.svg", "image/svg+xml"),
    ):
        found = await client.get(f"/static/{name}")
        assert found.status_code == 200, name
        assert found.headers["content-type"].startswith(kind), name
        again = await client.get(
            f"/static/{name}", headers={"If-None-Match": found.headers["etag"]}
        )
        assert again.status_code == 304, name
    for wrong in ("/static/../pyproject.toml", "/static/%2e%2e/app.py", "/static/nope.js"):
        assert (await client.get(wrong)).status_code == 404, wrong
    assert (await client.get("/static/game.html")).status_code == 404


def test_the_static_files_name_no_other_host() -> None:
    """No CDN, no web font, no third party: every address in the pages is this server's."""
    for path, found in static_files().items():
        if path.endswith(".png"):
            continue
        text = found.body.decode()
        for scheme in ("http://", "https://", "//cdn", "@import", "url(http"):
            offending = [
                line
                for line in text.splitlines()
                if scheme in line and "http://www.w3.org/2000/svg" not in line
            ]
            assert not offending, f"{path}: {offending}"
