"""Skor's greedy bot (docs/bots.md): a Technocracy that fills its fields, builds Farms and a
Military Base, promotes soldiers and sends them at the opponent's City, attacking when the
odds are good. Pure, its every action checked by the engine (bots/skor.py's `legal`)."""

from typing import Any

from bots.skor import PROBE, checked, legal
from rules.kit.prng import SeededRandom
from rules.skor.actions import Action, Build, End, Move, Promote, Remove, Research, Spawn
from rules.skor.board import FACING, HEXES, NEIGHBOURS, distance, rotated
from rules.skor.combat import military_die
from rules.skor.dice import Dice
from rules.skor.game import Game, piece_order
from rules.skor.setup import Choice, Setup
from rules.skor.state import State

RESEARCH_ORDER = ("city", "military", "resource", "civilians")
# The greedy bot builds this many Farms, then a Military Base, and keeps this many soldiers.
FARMS = 2
SOLDIERS = 3


def greedy_choice(setup: Setup, seat: str, rng: SeededRandom) -> dict[str, Any]:
    """A Technocracy with City tier 1 free (every branch's tier 1 open), turned so that its
    Resource hexes lie nearest the opponent's territory, the way to it."""
    name = next(n for n, t in setup.territories.items() if t.player == seat)
    other = next(n for n in setup.territories if n != name)
    local = setup.territories[name].local
    resources = [int(hex_[1:]) for hex_, kind in local.items() if kind == "resource"]

    def closeness(side: int) -> int:
        steps = (FACING[name] - side) % 6
        return -sum(distance(f"{name}{rotated(i, steps)}", f"{other}0") for i in resources)

    side = max(range(1, 7), key=lambda s: (closeness(s), -s))
    return checked(setup, seat, Choice("technocracy", side, "city"))


def greedy_action(state: State, seat: str, rng: SeededRandom) -> Action:
    """In a purge or starving, it removes a piece (a civilian off Resource first). Then, in
    order: a military piece attacks a neighbouring hex when the odds are good (no military
    there, or one whose die is no bigger, and no Fortification); a military piece steps
    toward the opponent's City (onto no opponent); an idle civilian (one off the fields)
    steps toward the nearest free Resource hex or Farm of its own, else toward its Military
    Base while it wants soldiers (fewer than SOLDIERS), else, while it wants a structure
    (past the grace turns: FARMS Farms, then a Base), onto a bare hex beside its City; it
    builds that structure there; promotes a civilian on its Base; spawns a civilian for
    each free field no idle one is on its way to, or, none idle, for a structure or soldier
    it wants; removes its idle civilians but one when no free field waits; researches
    City, Military, Resource, Civilians as far as its Resource goes; and ends the turn."""
    game = Game(state, Dice(secret=PROBE))
    plans = (
        _removal, _attack, _advance, _harvest, _to_base, _station, _build, _spawn, _cull,
        _research,
    )  # fmt: skip
    for plan in plans:
        for action in plan(game, seat):
            if legal(state, seat, action):
                return action
    return End()


def _removal(game: Game, seat: str) -> list[Action]:
    """In a purge or starving: any piece, the cheapest loss first."""
    if game.turn.phase != "purge" and game.turn.fed:
        return []
    pieces = sorted(
        (p for p in game.pieces if p.player == seat),
        key=lambda p: (p.kind == "military", game.kind_at(p.at) in ("resource", "farm"), p.at),
    )
    return [Remove(p.at, p.kind) for p in pieces]


def _cull(game: Game, seat: str) -> list[Action]:
    """The idle civilians but one (one beside the City kept first) when no free field
    waits for them: they cost upkeep for nothing."""
    city = game.city_of(seat)
    idle = [p for p in game.pieces if p.player == seat and p.kind == "civilian"]
    idle = [p for p in idle if game.kind_at(p.at) not in ("resource", "farm", "base")]
    if len(idle) <= 1 or _fields(game, seat):
        return []
    kept = sorted(idle, key=lambda p: (p.at not in NEIGHBOURS[city], piece_order(p)))
    return [Remove(p.at, p.kind) for p in kept[1:]]


def _attack(game: Game, seat: str) -> list[Action]:
    ours = military_die(game, seat)
    found: list[Action] = []
    for at, kind in _unmoved(game, seat, "military"):
        for near in NEIGHBOURS[at]:
            enemies = game.enemy_at(near, seat)
            if not enemies or game.kind_at(near) == "fortification":
                continue
            soldiers = [p for p in enemies if p.kind == "military"]
            if not soldiers or (
                len(soldiers) == 1 and military_die(game, soldiers[0].player) <= ours
            ):
                found.append(Move(at, near, kind))
    return found


def _advance(game: Game, seat: str) -> list[Action]:
    city = game.city_of(game.opponent(seat))
    found: list[Action] = []
    for at, kind in _unmoved(game, seat, "military"):
        steps = sorted(
            (
                to
                for to in HEXES
                if 0 < distance(at, to) <= 2
                and distance(to, city) < distance(at, city)
                and not game.enemy_at(to, seat)
            ),
            key=lambda to: (distance(to, city), to),
        )
        found.extend(Move(at, to, kind) for to in steps)
    return found


def _fields(game: Game, seat: str) -> list[str]:
    """The Resource hexes of its territory and its Farms that nobody stands on."""
    side = game.city_of(seat)[0]
    return sorted(
        hex_
        for hex_, s in game.structures.items()
        if ((s.kind == "resource" and hex_[0] == side) or (s.kind == "farm" and s.by == seat))
        and not game.at(hex_)
    )


def _idle(game: Game, seat: str) -> list[tuple[str, str]]:
    """Its unmoved civilians off Resource hexes and Farms."""
    return [
        (at, kind)
        for at, kind in _unmoved(game, seat, "civilian")
        if game.kind_at(at) not in ("resource", "farm")
    ]


def _harvest(game: Game, seat: str) -> list[Action]:
    """An idle civilian steps toward the nearest free field (onto it when it can)."""
    return _toward(game, _idle(game, seat), _fields(game, seat))


def _toward(game: Game, pieces: list[tuple[str, str]], goals: list[str]) -> list[Action]:
    found: list[Action] = []
    for at, kind in pieces:
        if not goals:
            break
        goal = min(goals, key=lambda h: (distance(at, h), h))
        steps = [to for to in HEXES if 0 < distance(at, to) <= 2 and not game.at(to)]
        closer = [to for to in steps if distance(to, goal) < distance(at, goal)]
        found.extend(
            Move(at, to, kind) for to in sorted(closer, key=lambda h: (distance(h, goal), h))
        )
    return found


def _to_base(game: Game, seat: str) -> list[Action]:
    """While it wants soldiers, an idle civilian steps toward a base of its own."""
    empty = [b for b in _bases(game, seat) if not game.mine(b, seat, "civilian")]
    return _toward(game, _idle(game, seat), empty) if _wants_soldiers(game, seat) else []


def _station(game: Game, seat: str) -> list[Action]:
    """While it wants a structure, an idle civilian steps onto a bare hex beside its City."""
    if _wanted_structure(game, seat) is None:
        return []
    city = game.city_of(seat)
    bare = [h for h in NEIGHBOURS[city] if h not in game.structures and not game.at(h)]
    return _toward(game, [p for p in _idle(game, seat) if p[0] not in NEIGHBOURS[city]], bare)


def _wanted_structure(game: Game, seat: str) -> str | None:
    """Two Farms first, then a Military Base; nothing in the grace turns."""
    if game.turn.grace:
        return None
    farms = sum(1 for s in game.structures.values() if s.kind == "farm" and s.by == seat)
    return "farm" if farms < FARMS else "base" if not _bases(game, seat) else None


def _wants_soldiers(game: Game, seat: str) -> bool:
    soldiers = sum(1 for p in game.pieces if p.player == seat and p.kind == "military")
    return bool(_bases(game, seat)) and soldiers < SOLDIERS


def _bases(game: Game, seat: str) -> list[str]:
    return sorted(h for h, s in game.structures.items() if s.kind == "base" and s.by == seat)


def _spawn(game: Game, seat: str) -> list[Action]:
    """A civilian for each free field no idle civilian is on its way to; one, when none is
    idle, for a structure or a soldier it wants."""
    idle = len(_idle(game, seat))
    wanted = len(_fields(game, seat)) > idle or (
        idle == 0 and (_wanted_structure(game, seat) is not None or _wants_soldiers(game, seat))
    )
    return [Spawn()] if wanted else []


def _build(game: Game, seat: str) -> list[Action]:
    city = game.city_of(seat)
    civilians = sorted({p.at for p in game.pieces if p.player == seat and p.kind == "civilian"})
    structure = _wanted_structure(game, seat)
    found: list[Action] = []
    if structure is not None:
        found.extend(Build(structure, at) for at in civilians if at in NEIGHBOURS[city])
    if _wants_soldiers(game, seat):
        found.extend(Promote(at) for at in _bases(game, seat) if at in civilians)
    return found


def _research(game: Game, seat: str) -> list[Action]:
    return [Research(branch) for branch in RESEARCH_ORDER]


def _unmoved(game: Game, seat: str, kind: str) -> list[tuple[str, str]]:
    return sorted(
        {(p.at, p.kind) for p in game.pieces if p.player == seat and p.kind == kind and not p.moved}
    )
