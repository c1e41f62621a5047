"""What a Skor bot does: pure functions of the game's public view (the `play` of
`GET /v1/games/{game}`, rules/skor/definition.py's `view`), the bot's seat and an explicit
random stream: its sealed setup choice, then one action at a time (JSON, docs/skor.md
"Actions") until its `end`. The random bot is here, the greedy one in bots/skor_greedy.py;
nothing here does I/O.

Legality is the engine's own: a candidate action is kept only when `rules.skor.engine.act`
takes it on the state the view shows (its dice from a throwaway secret: the engine refuses
before it rolls), and a setup choice only when `check_choice` does. The bots leave aside
what needs a plan of its own: turrets, diplomacy's sending, espionage, the Nomadic City's
moves, Debris Fields.
"""

from typing import Any

import msgspec

from rules.kit.prng import SeededRandom
from rules.skor.actions import Action, Build, End, Move, Promote, Remove, Research, Spawn
from rules.skor.board import HEXES, distance
from rules.skor.building import COSTS
from rules.skor.definition import Play
from rules.skor.dice import Dice
from rules.skor.engine import act
from rules.skor.setup import Choice, Setup, check_choice
from rules.skor.state import BRANCHES, State

CULTURES = ("technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien")
# The dice of a probe: the engine refuses before it rolls, so any secret tells legality.
PROBE = b"bot probe"
# A random bot ends its turn after this many actions at most, or at random before.
RANDOM_ACTIONS = 6


def read_view(view: Any) -> Play:
    return msgspec.convert(view, Play)


def legal(state: State, seat: str, action: Action) -> bool:
    return act(state, seat, action, Dice(secret=PROBE)).refused is None


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


def random_choice(setup: Setup, seat: str, rng: SeededRandom) -> dict[str, Any]:
    """A culture (the alternative too when the game allows it), a side and, for a
    Technocracy, a branch, each drawn."""
    cultures = [*CULTURES, "alternative"] if setup.options.alternative_culture else CULTURES
    culture = rng.choice(list(cultures))
    tech = rng.choice(list(BRANCHES)) if culture == "technocracy" else None
    return checked(setup, seat, Choice(culture, rng.between(1, 6), tech))  # type: ignore[arg-type]


def checked(setup: Setup, seat: str, choice: Choice) -> dict[str, Any]:
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
