"""Generated maps (rules.md, "Generated maps"): invariants for every player count and type."""

import hashlib
import re
from collections import deque
from functools import lru_cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.kit.prng import SeededRandom
from rules.skirmish.board import ORDER_KEYWORDS, GameMap, decode_map, encode_map
from rules.skirmish.mapgen import MapGenerationError, MapType, generate
from rules.skirmish.mapnames import territory_ids, territory_names
from server.ops.cli import main

MAP_TYPES: tuple[MapType, ...] = ("normal", "spacious")
TERRITORIES_PER_PLAYER = {"normal": 6, "spacious": 9}
BARRACKS_PER_PLAYER = {"normal": 2.5, "spacious": 3.0}
# The generator hits the territory target exactly; barracks round 2.5 per player up.
BARRACKS_TOLERANCE = 0.5

ID_PATTERN = re.compile(r"[A-Z]{2}")
NAME_PATTERN = re.compile(r"[A-Z][a-z]+( [A-Z][a-z]+)?")

players_counts = st.integers(min_value=3, max_value=20)
map_types = st.sampled_from(MAP_TYPES)
seeds = st.integers(min_value=-(2**63), max_value=2**64)
property_settings = settings(max_examples=40, deadline=None)


@lru_cache(maxsize=64)
def generated(players: int, map_type: MapType, seed: int) -> GameMap:
    return generate(players, map_type, seed)


def land_neighbours(game_map: GameMap) -> dict[str, set[str]]:
    neighbours: dict[str, set[str]] = {t.id: set() for t in game_map.territories}
    for a, b in game_map.edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return neighbours


def reachable(neighbours: dict[str, set[str]], start: str, within: set[str]) -> set[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        for there in neighbours[queue.popleft()] & within:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def contains(outline: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    """Ray casting: whether (x, y) lies inside the polygon."""
    inside = False
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def check_land_is_connected(game_map: GameMap) -> None:
    ids = {t.id for t in game_map.territories}
    assert reachable(land_neighbours(game_map), min(ids), ids) == ids


def check_homes(game_map: GameMap, players: int) -> None:
    board = game_map.board
    assert len(game_map.homes) == players
    claimed: dict[str, int] = {}
    for player, home in enumerate(game_map.homes):
        assert len(set(home)) == 3
        assert reachable(land_neighbours(game_map), home[0], set(home)) == set(home)
        assert sum(tid in board.barracks for tid in home) == 2
        for tid in home:
            assert tid not in claimed, f"{tid} is in two homes"
            claimed[tid] = player
    for tid, player in claimed.items():
        for neighbour in board.neighbours[tid]:  # overseas links included
            assert claimed.get(neighbour, player) == player, f"homes touch at {tid}-{neighbour}"


def check_counts(game_map: GameMap, players: int, map_type: MapType) -> None:
    assert len(game_map.territories) == TERRITORIES_PER_PLAYER[map_type] * players
    barracks = game_map.board.barracks
    assert abs(len(barracks) - BARRACKS_PER_PLAYER[map_type] * players) <= BARRACKS_TOLERANCE
    # Every barracks beyond the homes' two each starts unclaimed, and they are spread out.
    in_homes = {tid for home in game_map.homes for tid in home}
    extra = barracks - in_homes
    assert len(extra) == len(barracks) - 2 * players
    for tid in extra:
        assert not game_map.board.neighbours[tid] & extra, f"extra barracks {tid} has company"


def check_ids_and_names(game_map: GameMap) -> None:
    ids = [t.id for t in game_map.territories]
    names = [t.name for t in game_map.territories]
    assert len(set(ids)) == len(ids)
    assert all(ID_PATTERN.fullmatch(tid) and tid not in ORDER_KEYWORDS for tid in ids)
    labels = [label.lower() for label in ids + names]
    assert len(set(labels)) == len(labels), "a name clashes with another name or an id"
    for name in names:
        assert NAME_PATTERN.fullmatch(name), name
        assert not any(word.upper() in ORDER_KEYWORDS for word in name.split()), name


def check_overseas(game_map: GameMap) -> None:
    points = [p for t in game_map.territories for p in t.outline]
    left, right = min(x for x, _ in points), max(x for x, _ in points)
    top, bottom = min(y for _, y in points), max(y for _, y in points)
    outline = {t.id: t.outline for t in game_map.territories}

    def touches(tid: str, axis: int, edge: float) -> bool:
        return any(point[axis] == edge for point in outline[tid])

    assert game_map.overseas, "a few overseas links, not none"
    edges = {frozenset(edge) for edge in game_map.edges}
    for a, b in game_map.overseas:
        assert frozenset((a, b)) not in edges
        across = [(0, left, right), (0, right, left), (1, top, bottom), (1, bottom, top)]
        assert any(touches(a, axis, one) and touches(b, axis, other) for axis, one, other in across)


def check_outlines(game_map: GameMap) -> None:
    segments: dict[frozenset[tuple[float, float]], list[str]] = {}
    for t in game_map.territories:
        assert len(set(t.outline)) >= 3
        assert contains(t.outline, t.x, t.y), f"{t.id} does not contain its own x/y"
        for start, end in pairwise((*t.outline, t.outline[0])):
            segments.setdefault(frozenset((start, end)), []).append(t.id)
    shared = {frozenset(ids) for ids in segments.values() if len(ids) == 2}
    assert all(len(ids) <= 2 for ids in segments.values())
    # Adjacent exactly when the outlines share a border segment, drawn with equal points.
    assert shared == {frozenset(edge) for edge in game_map.edges}


@pytest.mark.parametrize("map_type", MAP_TYPES)
@pytest.mark.parametrize("players", range(3, 21))
def test_every_player_count_gives_a_valid_map(players: int, map_type: MapType) -> None:
    game_map = generated(players, map_type, 2024)
    check_land_is_connected(game_map)
    check_homes(game_map, players)
    check_counts(game_map, players, map_type)
    check_ids_and_names(game_map)
    check_overseas(game_map)
    check_outlines(game_map)
    assert game_map.name == f"generated-{map_type}-{players}p-s2024"
    assert game_map.description


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_land_is_connected(players: int, map_type: MapType, seed: int) -> None:
    check_land_is_connected(generated(players, map_type, seed))


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_homes_are_three_connected_territories_with_two_barracks_apart(
    players: int, map_type: MapType, seed: int
) -> None:
    check_homes(generated(players, map_type, seed), players)


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_territory_and_barracks_counts_follow_the_map_type(
    players: int, map_type: MapType, seed: int
) -> None:
    check_counts(generated(players, map_type, seed), players, map_type)


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_ids_and_names_are_unique_and_never_keywords(
    players: int, map_type: MapType, seed: int
) -> None:
    check_ids_and_names(generated(players, map_type, seed))


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_overseas_links_join_opposite_edges(players: int, map_type: MapType, seed: int) -> None:
    check_overseas(generated(players, map_type, seed))


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_outlines_contain_their_territory_and_share_borders(
    players: int, map_type: MapType, seed: int
) -> None:
    check_outlines(generated(players, map_type, seed))


@property_settings
@given(players=players_counts, map_type=map_types, seed=seeds)
def test_map_round_trips_through_json(players: int, map_type: MapType, seed: int) -> None:
    game_map = generated(players, map_type, seed)
    assert decode_map(encode_map(game_map)) == game_map


@settings(max_examples=10, deadline=None)
@given(players=players_counts, map_type=map_types, seed=seeds, other=seeds)
def test_same_seed_same_bytes_other_seed_other_map(
    players: int, map_type: MapType, seed: int, other: int
) -> None:
    first = encode_map(generate(players, map_type, seed))
    assert encode_map(generate(players, map_type, seed)) == first
    if other != seed:
        # Not the name, which holds the seed: the territories themselves differ.
        assert generated(players, map_type, other).territories != decode_map(first).territories


def test_a_stored_seed_still_gives_the_same_map() -> None:
    """Games store only the seed; a generator change that alters this digest breaks the
    replay of every game already played on a generated map."""
    digest = hashlib.sha256(encode_map(generate(5, "normal", 7))).hexdigest()
    assert digest == "06c8b90f2bea2c1048eb844392f1226c8974a715906cc7fb25afc4d00c35b24f"


@pytest.mark.parametrize("players", [-1, 0, 2, 21, 100])
def test_player_count_outside_3_to_20_is_refused(players: int) -> None:
    with pytest.raises(MapGenerationError, match="3 to 20 players"):
        generate(players, "normal", 1)


def test_unknown_map_type_is_refused() -> None:
    with pytest.raises(MapGenerationError, match="unknown map type 'huge'"):
        generate(5, "huge", 1)  # type: ignore[arg-type]


def test_ids_come_from_initials_then_later_letters() -> None:
    names = ["Betts Frond", "Simm", "Sirk", "Simmon", "Tomo", "Bern Fadd"]
    # "TO" is an order keyword; "BF" is Betts Frond's, so Bern Fadd takes a later letter.
    assert territory_ids(names) == ["BF", "SI", "SR", "SM", "TM", "BE"]


def test_names_never_repeat_a_word() -> None:
    names = territory_names(400, SeededRandom(3))
    words = [word.lower() for name in names for word in name.split()]
    assert len(set(words)) == len(words)
    assert any(" " in name for name in names)
    assert any(" " not in name for name in names)


def test_cli_prints_the_generated_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "generate", "--players", "5", "--type", "normal", "--seed", "7"]) == 0
    printed = decode_map(capsys.readouterr().out)
    assert printed == generate(5, "normal", 7)
    assert len(printed.homes) == 5


def test_cli_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "generate", "--players", "2", "--seed", "7"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "3 to 20 players" in captured.err
