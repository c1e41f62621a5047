"""Adjudication speed: `python -m benchmarks rules`.

0. One Art of War turn of 20 players on a generated map of about 120 territories, every
   territory ordered, timed as the whole `adjudicate_json(body)` of its contract (decoding,
   checking the inline map and the orders, resolving with the turn's draws, encoding). A
   row below it times the same turns' floor: decoding, the draws and encoding alone, what
   any engine keeping the contract spends before it resolves anything.

1. One turn of a generated 20-player normal map, every army ordered (moves, supports and
   holds mixed), timed as our whole `rules.adjudicate(request)`: decoding the request,
   parsing and validating every order, resolving, scoring and the JSON-ready response; and
   timed again as bytes in and out, `adjudicate_json(body)`, the Art of War's way.
2. The same random positions on the land map of standard Diplomacy, adjudicated by us
   (timed the same way; the requests name the built-in map `diplomacy-land`, as pydip
   uses its predefined map), by `diplomacy` (only `Game.process()`, with units and orders set
   up beforehand) and by `pydip` (only `resolve_turn`, with commands built beforehand).
   Targets on identical positions: ours at least 10 times faster than diplomacy and at
   least twice as fast as pydip. For scale, a row also times our resolver alone on the
   same positions, orders already parsed and checked (what pydip's resolve_turn gets).

The Art of War's row also gives its median over the 20-player Skirmish turn's timed the same
way (bytes in and out), and the goal of no more than that (issue 29).

A second table: Skor's actions through its engine, `rules.skor.engine.act(state, player,
action, dice)` each, from seeded games played to their end by two players who try likely
actions and play the first the engine accepts (benchmarks/_skor.py): per second, median and
p99 per action, and the mix of kinds timed.

A third table (benchmarks/_bot_games.py): whole games of bots per second, the Art of War on
generated maps of 2, 5 and 20 players and Skor, played to their end through the definitions.
"""

import gc
import random
import statistics
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec
from pydip.map.predefined import vanilla_dip
from pydip.player.command.command import HoldCommand, MoveCommand, SupportCommand
from pydip.player.player import Player
from pydip.player.unit import UnitTypes
from pydip.turn.resolve import resolve_turn

from benchmarks._art_of_war import art_of_war_requests, floor, floor_inputs
from benchmarks._bot_games import bot_game_rows
from benchmarks._options import Option, Value
from benchmarks._skor import Step, games, timed_act
from benchmarks._table import print_table
from rules.artofwar.contract import adjudicate_json as art_of_war
from rules.skirmish import adjudicate
from rules.skirmish.board import GameMap
from rules.skirmish.contract import adjudicate_json
from rules.skirmish.mapgen import generate
from rules.skirmish.maps import builtin_map
from rules.skirmish.position import Position as RulesPosition
from rules.skirmish.position import Situation
from rules.skirmish.resolve import Resolution
from rules.skirmish.validate import check_orders

with warnings.catch_warnings():
    # diplomacy reads its convoy cache at import time without closing the file.
    warnings.simplefilter("ignore", ResourceWarning)
    from diplomacy.engine.game import Game

LAND_MAP = "diplomacy-land"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
WARM_UP = 20
FLOOR = "(floor: JSON in, draws, JSON out)"


class Order(NamedTuple):
    unit: str
    kind: str  # hold, move or support
    target: str = ""  # where a move or a support goes
    supported: str = ""  # the supported army (== target for a support to hold)


class Position(NamedTuple):
    armies: dict[str, str]
    orders: list[Order]


def random_position(
    rng: random.Random, neighbours: dict[str, list[str]], players: Sequence[str], count: int
) -> Position:
    """`count` armies in one connected cluster, owned at random by `players`, each ordered:
    about 45% move, 35% support (mostly of what the supported army does), 20% hold."""
    territories = sorted(neighbours)
    chosen = [rng.choice(territories)]
    taken = set(chosen)
    while len(chosen) < count:
        frontier = sorted({n for t in chosen for n in neighbours[t]} - taken) or territories
        territory = rng.choice(frontier)
        if territory not in taken:
            chosen.append(territory)
            taken.add(territory)
    armies = {t: rng.choice(players) for t in chosen}
    kinds = {t: rng.choices(("hold", "move", "support"), (0.2, 0.45, 0.35))[0] for t in chosen}
    orders = {t: Order(t, "hold") for t in chosen if kinds[t] == "hold"}
    orders.update(
        {t: Order(t, "move", rng.choice(neighbours[t])) for t in chosen if kinds[t] == "move"}
    )
    for t in chosen:
        if kinds[t] != "support":
            continue
        matching: list[Order] = []
        other: list[Order] = []
        for army in chosen:
            order = orders.get(army)
            if army == t:
                continue
            if army in neighbours[t]:
                moving = order is not None and order.kind == "move"
                (other if moving else matching).append(Order(t, "support", army, army))
            for target in neighbours[t]:
                if target in neighbours[army]:
                    hit = order is not None and order.kind == "move" and order.target == target
                    (matching if hit else other).append(Order(t, "support", target, army))
        pool = matching if matching and (rng.random() < 0.8 or not other) else other
        orders[t] = rng.choice(pool) if pool else Order(t, "hold")
    return Position(armies, [orders[t] for t in chosen])


def our_text(order: Order) -> str:
    if order.kind == "move":
        return f"{order.unit} to {order.target}"
    if order.kind == "support" and order.target == order.supported:
        return f"{order.unit} S {order.supported}"
    if order.kind == "support":
        return f"{order.unit} S {order.supported} to {order.target}"
    return f"{order.unit} H"


def our_request(map_spec: str | dict[str, Any], position: Position) -> dict[str, Any]:
    orders: dict[str, list[str]] = {}
    for order in position.orders:
        orders.setdefault(position.armies[order.unit], []).append(our_text(order))
    return {
        "map": map_spec,
        "players": {p: {"vp": 0} for p in dict.fromkeys(position.armies.values())},
        "armies": position.armies,
        "orders": orders,
    }


def diplomacy_game(position: Position) -> Game:
    game = Game()
    game.clear_units()
    by_power: dict[str, list[Order]] = {}
    for order in position.orders:
        by_power.setdefault(position.armies[order.unit], []).append(order)
    for power, orders in by_power.items():
        game.set_units(power, [f"A {o.unit}" for o in orders])
    for power, orders in by_power.items():
        game.set_orders(power, [_diplomacy_text(o) for o in orders])
    assert not game.error, game.error
    return game


def _diplomacy_text(order: Order) -> str:
    if order.kind == "move":
        return f"A {order.unit} - {order.target}"
    if order.kind == "support" and order.target == order.supported:
        return f"A {order.unit} S A {order.supported}"
    if order.kind == "support":
        return f"A {order.unit} S A {order.supported} - {order.target}"
    return f"A {order.unit} H"


class Pydip:
    """pydip's standard map, and commands for a position in our ids."""

    def __init__(self, land_names: dict[str, str]) -> None:
        self.map = vanilla_dip.generate_map()
        by_name = {name.replace(".", "").lower(): name for name in self.map.name_map}
        self.name = {tid: by_name[name.lower()] for tid, name in land_names.items()}

    def commands(self, position: Position) -> list[Any]:
        players = {
            power: Player(
                power,
                self.map,
                [
                    {"territory_name": self.name[t], "unit_type": UnitTypes.TROOP}
                    for t, p in position.armies.items()
                    if p == power
                ],
            )
            for power in dict.fromkeys(position.armies.values())
        }
        units = {u.position: (player, u) for player in players.values() for u in player.units}
        commands: list[Any] = []
        for order in position.orders:
            player, unit = units[self.name[order.unit]]
            if order.kind == "move":
                commands.append(MoveCommand(player, unit, self.name[order.target]))
            elif order.kind == "support":
                supported = units[self.name[order.supported]][1]
                commands.append(SupportCommand(player, unit, supported, self.name[order.target]))
            else:
                commands.append(HoldCommand(player, unit))
        return commands

    def resolve(self, commands: list[Any]) -> None:
        resolve_turn(self.map, commands)


def timings(run: Callable[[Any], object], inputs: Sequence[Any]) -> list[float]:
    """Seconds per call of `run` on each input, after a warm-up on the first few."""
    for item in inputs[:WARM_UP]:
        run(item)
    gc.collect()
    result = []
    for item in inputs:
        start = time.perf_counter()
        run(item)
        result.append(time.perf_counter() - start)
    return result


def timed_process(games: Sequence[Game]) -> list[float]:
    """Seconds per `Game.process()`; a game processes once, so the warm-up gets its own."""
    for game in games[:WARM_UP]:
        game.process()
    gc.collect()
    result = []
    for game in games[WARM_UP:]:
        start = time.perf_counter()
        game.process()
        result.append(time.perf_counter() - start)
    return result


def p99(samples: Sequence[float]) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[98]


def neighbours_of(edges: Sequence[Sequence[str]], ids: Sequence[str]) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {t: [] for t in ids}
    for a, b in edges:
        result[a].append(b)
        result[b].append(a)
    return {t: sorted(n) for t, n in result.items()}


OPTIONS = {
    "positions": Option(500, "random positions timed on each map"),
    "seed": Option(1, "the seed of the generated map and of the positions"),
    "bot-games": Option(20, "whole games of bots played to their end, per kind of game"),
    "skor-games": Option(40, "seeded Skor games whose every action is timed"),
}


def main(options: Mapping[str, Value]) -> None:
    count, seed = int(options["positions"]), int(options["seed"])
    rng = random.Random(seed)

    generated = generate(20, "normal", seed)
    spec = msgspec.to_builtins(generated)
    neighbours = neighbours_of(
        [*generated.edges, *generated.overseas], [t.id for t in generated.territories]
    )
    players = [f"player{i}" for i in range(1, 21)]
    # As many armies as the map has barracks, each player with some.
    armies = len(generated.board.barracks)
    big = [
        our_request(spec, random_position(rng, neighbours, players, armies))
        for _ in range(count + WARM_UP)
    ]
    big_times = timings(adjudicate, big)[WARM_UP:]
    big_json = timings(adjudicate_json, [msgspec.json.encode(r) for r in big])[WARM_UP:]

    land_map = builtin_map(LAND_MAP)
    land: dict[str, Any] = msgspec.to_builtins(land_map)
    land_neighbours = neighbours_of(land["edges"], [t["id"] for t in land["territories"]])
    positions = [
        random_position(rng, land_neighbours, rng.sample(POWERS, rng.randint(2, 7)), size)
        for size in [rng.randint(4, 34) for _ in range(count + WARM_UP)]
    ]
    requests = [our_request(LAND_MAP, p) for p in positions]
    ours = timings(adjudicate, requests)[WARM_UP:]
    core = timings(resolve_only, [_resolution_input(land_map, r) for r in requests])[WARM_UP:]
    pydip = Pydip({t["id"]: t["name"] for t in land["territories"]})
    theirs = timings(pydip.resolve, [pydip.commands(p) for p in positions])[WARM_UP:]
    processed = timed_process([diplomacy_game(p) for p in positions])

    sizes = sorted(len(p.armies) for p in positions)
    land_size = f"{sizes[0]}-{sizes[-1]}, median {statistics.median(sizes):g}"
    land_label = f"Diplomacy land ({len(land['territories'])} terr.)"
    big_label = f"generated 20p normal ({len(generated.territories)} terr.)"
    territories, units, war = art_of_war_requests(count + WARM_UP, seed)
    war_times = timings(art_of_war, war)[WARM_UP:]
    war_floor = timings(floor, floor_inputs(war))[WARM_UP:]
    war_label = f"Art of War generated 20p ({territories} terr.)"
    war_engine = "ours: art-of-war adjudicate_json()"
    big_median = statistics.median(big_json)
    war_ratio = statistics.median(war_times) / big_median
    war_met = "yes" if war_ratio <= 1 else "NO"
    floor_ratio = statistics.median(war_floor) / big_median
    units_label = f"{units} units"
    rows = [
        [war_label, war_engine, units_label, *_stats(war_times), war_ratio, "<= 1", war_met],
        [war_label, FLOOR, units_label, *_stats(war_floor), floor_ratio, "", ""],
        [big_label, "ours: adjudicate_json()", str(armies), *_stats(big_json), "1", "", ""],
        [big_label, "ours: adjudicate()", str(armies), *_stats(big_times), "", "", ""],
        [land_label, "ours: adjudicate()", land_size, *_stats(ours), "1", "", ""],
    ]
    core_ratio = statistics.median(core) / statistics.median(ours)
    rows.append([land_label, "(ours: resolver only)", land_size, *_stats(core), core_ratio, "", ""])
    for engine, samples, target in (
        ("pydip: resolve_turn()", theirs, 2.0),
        ("diplomacy: Game.process()", processed, 10.0),
    ):
        ratio = statistics.median(samples) / statistics.median(ours)
        met = "yes" if ratio >= target else "NO"
        rows.append([land_label, engine, land_size, *_stats(samples), ratio, f">= {target:g}", met])
    headers = ["map", "engine", "armies", "turns", "median µs", "p99 µs"]
    print_table([*headers, "their/our median", "target", "met"], rows)
    print()
    _skor(int(options["skor-games"]), seed)
    print()
    print_table(*bot_game_rows(int(options["bot-games"]), seed))


def _skor(count: int, seed: int) -> None:
    played = games(count, seed)
    steps = [step for game in played for step in game]
    samples = timings(timed_act, steps)
    print_table(
        ["game", "engine", "actions", "per second", "median µs", "p99 µs", "mix"],
        [
            [
                f"Skor, {count} seeded games",
                "ours: skor act()",
                len(samples),
                len(samples) / sum(samples),
                statistics.median(samples) * 1e6,
                p99(samples) * 1e6,
                _mix(steps),
            ]
        ],
    )


def _mix(steps: Sequence[Step]) -> str:
    """The kinds of action timed, the commonest first, in whole percent."""
    kinds: dict[str, int] = {}
    for step in steps:
        kind = step.action.__struct_config__.tag
        kinds[str(kind)] = kinds.get(str(kind), 0) + 1
    ranked = sorted(kinds.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{kind} {100 * n // len(steps)}%" for kind, n in ranked)


def _resolution_input(game_map: GameMap, request: dict[str, Any]) -> tuple[Any, ...]:
    """What our resolver works from once every order is parsed and checked."""
    armies = request["armies"]
    position = RulesPosition(armies=armies, control=dict(armies))
    book = check_orders(
        request["orders"], game_map.board, Situation(game_map.board, position, None)
    )
    return armies, book.army_orders, book.reinforcements


def resolve_only(inputs: tuple[Any, ...]) -> None:
    Resolution(*inputs)


def _stats(samples: list[float]) -> list[object]:
    return [len(samples), statistics.median(samples) * 1e6, p99(samples) * 1e6]
