"""What a Skor bot does: pure functions of the game's public view (the `play` of
`GET /v1/games/{game}`, rules/skor/definition.py's `view`), the bot's seat and an explicit
random stream, to its next move: its sealed setup choice, then one action at a time (JSON,
docs/skor.md "Actions") until its `end`. Nothing here does I/O.

Legality is the engine's own: a candidate action is kept only when `rules.skor.engine.act`
takes it on the state the view shows (its dice from a throwaway secret: the engine refuses
before it rolls), and a setup choice only when `check_choice` does. The bots leave aside
what needs a plan of its own: turrets, diplomacy's sending, espionage, the Nomadic City's
moves, Debris Fields.
"""

from collections.abc import Callable
from typing import Any

import msgspec

from rules.kit.prng import SeededRandom
from rules.skor.actions import Action, Build, End, Move, Promote, Remove, Research, Spawn
from rules.skor.board import FACING, HEXES, NEIGHBOURS, distance, rotated
from rules.skor.building import COSTS
from rules.skor.combat import military_die
from rules.skor.definition import Play
from rules.skor.dice import Dice
from rules.skor.engine import act
from rules.skor.game import Game, piece_order
from rules.skor.setup import Choice, Setup, check_choice
from rules.skor.state import BRANCHES, State

CULTURES = ("technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien")
# The dice of a probe: the engine refuses before it rolls, so any secret tells legality.
_PROBE = b"bot probe"
# A random bot ends its turn after this many actions at most, or at random before.
RANDOM_ACTIONS = 6
RESEARCH_ORDER = ("city", "military", "resource", "civilians")
# The greedy bot builds this many Farms, then a Military Base, and keeps this many soldiers.
FARMS = 2
SOLDIERS = 3

# The view, the seat, its randomness -> its next move (a setup choice or one action).
Next = Callable[[Play, str, SeededRandom], dict[str, Any]]


def read_view(view: Any) -> Play:
    return msgspec.convert(view, Play)


def legal(state: State, seat: str, action: Action) -> bool:
    return act(state, seat, action, Dice(secret=_PROBE)).refused is None


def as_move(action: Action) -> dict[str, Any]:
    move: dict[str, Any] = msgspec.to_builtins(action)
    return move


def _pieces(state: State, seat: str) -> list[tuple[str, str]]:
    """The seat's unmoved pieces by hex and kind, each once."""
    return sorted({(p.at, p.kind) for p in state.pieces if p.player == seat and not p.moved})


def candidates(state: State, seat: str) -> list[Action]:
    """Every action the bots consider, legal or not: moves of each unmoved piece within two
    steps, spawns, builds where its civilians stand, promotions, research, removals, end."""
    found: list[Action] = []
    for at, kind in _pieces(state, seat):
        found.extend(Move(at, to, kind) for to in HEXES if 0 < distance(at, to) <= 2)
    found.append(Spawn())
    mine = sorted({p.at for p in state.pieces if p.player == seat})
    civilians = sorted({p.at for p in state.pieces if p.player == seat and p.kind == "civilian"})
    found.extend(Build(kind, at) for at in civilians for kind in COSTS if kind != "debris")
    found.extend(Promote(at) for at in civilians)
    found.extend(Research(branch) for branch in BRANCHES)
    found.extend(Remove(at, kind) for at in mine for kind in ("civilian", "military"))
    found.append(End())
    return found


def legal_actions(state: State, seat: str) -> list[Action]:
    return [action for action in candidates(state, seat) if legal(state, seat, action)]


def _territory_of(setup: Setup, seat: str) -> str:
    return next(name for name, t in setup.territories.items() if t.player == seat)


def random_choice(setup: Setup, seat: str, rng: SeededRandom) -> dict[str, Any]:
    """A culture (the alternative too when the game allows it), a side and, for a
    Technocracy, a branch, each drawn."""
    cultures = [*CULTURES, "alternative"] if setup.options.alternative_culture else CULTURES
    culture = rng.choice(list(cultures))
    tech = rng.choice(list(BRANCHES)) if culture == "technocracy" else None
    return _checked(setup, seat, Choice(culture, rng.between(1, 6), tech))  # type: ignore[arg-type]


def greedy_choice(setup: Setup, seat: str, rng: SeededRandom) -> dict[str, Any]:
    """A Technocracy with City tier 1 free (every branch's tier 1 open), turned so that its
    Resource hexes lie nearest the opponent's territory, the way to it."""
    name = _territory_of(setup, seat)
    other = next(n for n in setup.territories if n != name)
    local = setup.territories[name].local
    resources = [int(hex_[1:]) for hex_, kind in local.items() if kind == "resource"]

    def closeness(side: int) -> int:
        steps = (FACING[name] - side) % 6
        return -sum(distance(f"{name}{rotated(i, steps)}", f"{other}0") for i in resources)

    side = max(range(1, 7), key=lambda s: (closeness(s), -s))
    return _checked(setup, seat, Choice("technocracy", side, "city"))


def _checked(setup: Setup, seat: str, choice: Choice) -> dict[str, Any]:
    check_choice(setup.options, seat, choice)
    kept: dict[str, Any] = msgspec.to_builtins(choice)
    return kept


def random_action(state: State, seat: str, rng: SeededRandom) -> Action:
    """One legal action drawn uniformly, removals only when it must (a purge) or starves;
    `end` when drawn one time in four, after RANDOM_ACTIONS actions, or when nothing else
    is legal."""
    actions = legal_actions(state, seat)
    must = state.turn.phase == "purge" or not state.turn.fed
    chosen = [a for a in actions if not isinstance(a, End) and (must or not isinstance(a, Remove))]
    tired = _acted(state, seat) >= RANDOM_ACTIONS
    if End() in actions and (not chosen or tired or rng.below(4) == 0):
        return End()
    return rng.choice(chosen) if chosen else actions[0]


def _acted(state: State, seat: str) -> int:
    """How much the seat did this turn: its moved pieces and spent Resource."""
    moved = sum(1 for p in state.pieces if p.player == seat and p.moved)
    spent = (state.turn.production or 0) - (state.turn.upkeep or 0) - (state.turn.available or 0)
    return moved + max(0, spent) // 2


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
    game = Game(state, Dice(secret=_PROBE))
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


CHOICES: dict[str, Callable[[Setup, str, SeededRandom], dict[str, Any]]] = {
    "random": random_choice,
    "greedy": greedy_choice,
}
ACTIONS: dict[str, Callable[[State, str, SeededRandom], Action]] = {
    "random": random_action,
    "greedy": greedy_action,
}


def next_move(play: Play, seat: str, strategy: str, rng: SeededRandom) -> dict[str, Any]:
    """The seat's next move: its setup choice before the board is made, then an action."""
    if play.game is None:
        return CHOICES[strategy](play.setup, seat, rng)
    return as_move(ACTIONS[strategy](play.game, seat, rng))
