"""Properties of one adjudicated turn on random positions with random orders (issue 3,
"Tests"): on the rulebook map, the land map of standard Diplomacy and generated maps;
with holds, moves, supports of holds and moves, builds, farms and reinforcements, some of
them invalid (another player's army, not adjacent, outside a barracks...), some replaced
by a later order, and now and then a voting effect.

Hypothesis runs derandomized and without its example database, so that CI sees the same
examples every time.
"""

import copy
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.skirmish import adjudicate
from rules.skirmish.board import GameMap
from rules.skirmish.effects import Effect
from rules.skirmish.mapgen import generate
from rules.skirmish.maps import builtin_map

PLAYERS = ("red", "blue", "green", "gold", "teal")

turn_settings = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


class Board(msgspec.Struct, frozen=True):
    """A map as the request names it, with what drawing orders needs."""

    label: str
    spec: str | dict[str, Any]
    ids: tuple[str, ...]
    neighbours: dict[str, tuple[str, ...]]
    barracks: tuple[str, ...]


def _board(label: str, game_map: GameMap, spec: str | dict[str, Any]) -> Board:
    board = game_map.board
    return Board(
        label=label,
        spec=spec,
        ids=tuple(sorted(board.ids)),
        neighbours={t: tuple(sorted(n)) for t, n in board.neighbours.items()},
        barracks=tuple(sorted(board.barracks)),
    )


@cache
def boards() -> tuple[Board, ...]:
    generated = [generate(3, "normal", 11), generate(6, "spacious", 12), generate(20, "normal", 13)]
    return (
        _board("rulebook", builtin_map("rulebook"), "rulebook"),
        _board("diplomacy-land", builtin_map("diplomacy-land"), "diplomacy-land"),
        *(_board(f"generated-{m.name}", m, msgspec.to_builtins(m)) for m in generated),
    )


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A whole request: a position, every player's orders and maybe an effect.

    Hypothesis draws the map and the effect; a seeded Random that it hands over makes
    the many small choices. Left to itself, hypothesis leans towards simple values (two
    players, few armies, the first neighbour), which would make fights rare."""
    board = draw(st.sampled_from(boards()))
    effect = draw(st.sampled_from([None, None, None, *(e.value for e in Effect)]))
    rng = draw(st.randoms(use_true_random=True))
    players = PLAYERS[: rng.randint(2, len(PLAYERS))]
    size = rng.randint(1, min(24, len(board.ids)))
    cluster = _cluster(rng, board, size)
    armies = {t: rng.choice(players) for t in cluster}
    free_barracks = [b for b in board.barracks if b not in armies]
    control = {t: rng.choice(players) for t in _some(rng, free_barracks, 8)}
    barracks_in_cluster = [t for t in cluster if t in board.barracks] or list(board.barracks)
    farms = _some(rng, barracks_in_cluster, 3)
    refs = {}
    for player in players:
        if rng.random() < 0.5:
            own = [b for b, p in control.items() if p == player and b not in farms]
            refs[player] = rng.choice(own if own and rng.random() < 0.75 else board.barracks)
    supporters = [t for t in cluster if rng.random() < 0.4]
    last = {t: _plain_order(rng, board, armies, t) for t in cluster if t not in supporters}
    moves = {t: text.split()[-1] for t, text in last.items() if len(text.split()) == 3}
    for territory in supporters:
        last[territory] = _support_order(rng, board, armies, territory, moves, refs)
    for territory in cluster:
        # Armies on farms and barracks farm and build more often than elsewhere.
        if territory not in supporters and rng.random() < 0.5:
            if territory in farms:
                last[territory] = f"{territory} {rng.choice(('F', 'farm'))}"
            elif territory in board.barracks:
                last[territory] = f"{territory} {rng.choice(('B', 'build'))}"
    orders: dict[str, list[str]] = {p: [] for p in players}
    for territory, owner in armies.items():
        texts = [last[territory]]
        if rng.random() < 0.2:  # an earlier order, which the last one replaces
            texts.insert(0, _plain_order(rng, board, armies, territory))
        for text in texts:
            # Now and then a player orders someone else's army.
            orders[owner if rng.random() < 0.95 else rng.choice(players)].append(text)
    for player, target in refs.items():
        orders[player].append(rng.choice((f"REF to {target}", f"REF {target}")))
    return {
        "map": board.spec,
        "players": {p: {"vp": rng.randint(0, 9)} for p in players},
        "armies": armies,
        "control": control,
        "farms": farms,
        "orders": {p: _joined(rng, texts) for p, texts in orders.items()},
        "effect": effect,
    }


def _some(rng: random.Random, items: list[str], most: int) -> list[str]:
    return rng.sample(items, rng.randint(0, min(most, len(items))))


def _cluster(rng: random.Random, board: Board, size: int) -> list[str]:
    """Connected territories (mostly), so that the armies on them fight each other."""
    cluster = [rng.choice(board.ids)]
    while len(cluster) < size:
        frontier = sorted({n for t in cluster for n in board.neighbours[t]} - set(cluster))
        if not frontier or rng.random() < 0.1:
            frontier = [t for t in board.ids if t not in cluster]
        cluster.append(rng.choice(frontier))
    return cluster


def _plain_order(rng: random.Random, board: Board, armies: dict[str, str], unit: str) -> str:
    """A hold, move, build or farm for the army in `unit`."""
    kind = rng.choice(("hold", "move", "move", "move", "build", "farm"))
    if kind == "hold":
        return f"{unit} {rng.choice(('H', 'hold'))}"
    if kind in ("build", "farm"):
        return f"{unit} {kind}"
    # Mostly a neighbour, often one with another player's army; sometimes any territory,
    # which is usually not adjacent.
    pool = board.neighbours[unit] if rng.random() < 0.9 else board.ids
    enemies = [t for t in pool if armies.get(t, armies[unit]) != armies[unit]]
    target = rng.choice(enemies if enemies and rng.random() < 0.6 else pool)
    return f"{unit} {rng.choice(('to', '->', '>'))} {target}"


def _support_order(
    rng: random.Random,
    board: Board,
    armies: dict[str, str],
    unit: str,
    moves: dict[str, str],
    refs: dict[str, str],
) -> str:
    """A support from the army in `unit`: usually of what the supported army (or a
    reinforcement) does, `moves` being the armies ordered to move and where to; else of
    something else."""
    neighbours = board.neighbours[unit]
    holds: list[str] = []
    attacks: list[str] = []
    mismatching: list[str] = []
    for other in armies:
        if other in neighbours:
            (mismatching if other in moves else holds).append(f"{unit} S {other}")
        for target in neighbours:
            if other != unit and target in board.neighbours[other]:
                text = f"{unit} S {other} to {target}"
                (attacks if moves.get(other) == target else mismatching).append(text)
    attacks += [f"{unit} S REF to {b}" for b in refs.values() if b in neighbours]
    choice = rng.random()
    pool = attacks if choice < 0.5 else holds if choice < 0.8 else mismatching
    return rng.choice(pool or attacks or holds or mismatching or [f"{unit} H"])


def _joined(rng: random.Random, texts: list[str]) -> list[str]:
    """The orders as submissions: some carry several orders separated by commas."""
    submissions: list[str] = []
    for text in texts:
        if submissions and rng.random() < 0.25:
            submissions[-1] += f", {text}"
        else:
            submissions.append(text)
    return submissions


# The properties.


@turn_settings
@given(requests())
def test_armies_are_conserved_one_per_territory(request: dict[str, Any]) -> None:
    """Armies after = armies before - dead + reinforcements that arrived. Since `armies`
    maps a territory to one player, two armies in one territory would lose one."""
    response = adjudicate(request)
    arrived = [o for o in response["orders"] if o["kind"] == "reinforce"]
    arrived = [o for o in arrived if o["result"] == "succeeded"]
    assert len(arrived) <= len(request["players"])
    expected = len(request["armies"]) - len(response["dead"]) + len(arrived)
    assert len(response["armies"]) == expected
    dead = {(d["territory"], d["player"]) for d in response["dead"]}
    assert len(dead) == len(response["dead"])
    assert dead <= set(request["armies"].items())
    for order in response["orders"]:
        if order["kind"] in ("move", "reinforce") and order["result"] == "succeeded":
            assert response["armies"][order["target"]] == order["player"]
    moved = {o["unit"] for o in response["orders"] if _arrived(o) and o["kind"] == "move"}
    for territory, player in request["armies"].items():
        if territory not in moved and (territory, player) not in dead:
            assert response["armies"][territory] == player


@turn_settings
@given(requests())
def test_no_two_armies_swap_places(request: dict[str, Any]) -> None:
    response = adjudicate(request)
    moves = {(o["unit"], o["target"]) for o in response["orders"] if _arrived(o)}
    assert not any((target, source) in moves for source, target in moves)


@turn_settings
@given(requests(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_the_listing_order(
    request: dict[str, Any], rng: random.Random
) -> None:
    """Players listed in another order, and each player's orders too, as long as the
    orders for one army (or a player's reinforcements) keep their relative order."""
    shuffled = copy.deepcopy(request)
    players = list(request["players"])
    rng.shuffle(players)
    shuffled["players"] = {p: request["players"][p] for p in players}
    shuffled["orders"] = {
        p: _shuffle_keeping_each_army(request["orders"][p], rng) for p in reversed(players)
    }
    assert _canonical(adjudicate(shuffled)) == _canonical(adjudicate(request))


@turn_settings
@given(requests())
def test_killed_armies_stood_where_an_attack_succeeded(request: dict[str, Any]) -> None:
    response = adjudicate(request)
    attacks = {(o["target"], o["player"]) for o in response["orders"] if _arrived(o)}
    for death in response["dead"]:
        attackers = {player for target, player in attacks if target == death["territory"]}
        # Exactly one army took the territory, and it never was the victim's own.
        assert len(attackers) == 1
        assert death["player"] not in attackers
        assert response["armies"][death["territory"]] in attackers


@turn_settings
@given(requests())
def test_same_request_same_response(request: dict[str, Any]) -> None:
    original = copy.deepcopy(request)
    first = adjudicate(request)
    assert request == original  # the request is not modified
    assert adjudicate(request) == first


@turn_settings
@given(requests())
def test_position_after_the_turn_is_on_the_map(request: dict[str, Any]) -> None:
    """Armies only on existing territories, and every army controls its territory."""
    ids = set(next(b for b in boards() if b.spec == request["map"]).ids)
    response = adjudicate(request)
    assert set(response["armies"]) <= ids
    assert set(response["control"]) <= ids
    assert set(response["farms"]) <= ids
    for territory, player in response["armies"].items():
        assert response["control"][territory] == player
    assert set(response["armies"].values()) <= set(request["players"])


@turn_settings
@given(requests())
def test_victory_points_never_decrease(request: dict[str, Any]) -> None:
    response = adjudicate(request)
    for player, entry in request["players"].items():
        assert response["vp_gained"][player] >= 0
        assert response["vp"][player] == entry["vp"] + response["vp_gained"][player]


def _arrived(order: dict[str, Any]) -> bool:
    return order["kind"] in ("move", "reinforce") and order["result"] == "succeeded"


def _shuffle_keeping_each_army(submissions: list[str], rng: random.Random) -> list[str]:
    """One order per submission, shuffled, except that the orders about one army (the
    first word: its territory, or REF) stay in the order they were given."""
    texts = [t.strip() for s in submissions for t in s.split(",")]
    by_unit: dict[str, list[str]] = {}
    for text in texts:
        by_unit.setdefault(text.split()[0], []).append(text)
    units = [text.split()[0] for text in texts]
    rng.shuffle(units)
    return [by_unit[unit].pop(0) for unit in units]


def _canonical(response: dict[str, Any]) -> dict[str, Any]:
    """The response with its lists as multisets, and orders as (player, text) -> results."""
    canonical = dict(response)
    canonical["orders"] = Counter(json.dumps(o, sort_keys=True) for o in response["orders"])
    canonical["dead"] = Counter(json.dumps(d, sort_keys=True) for d in response["dead"])
    canonical["eliminated"] = sorted(response["eliminated"])
    return canonical
