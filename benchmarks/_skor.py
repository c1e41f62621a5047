"""Seeded Skor games for the benchmarks: two players who each try a few likely actions and
play the first that the engine accepts, as a player at the board would, until the game ends.
What they do is the mix the benchmarks time: mostly moves and spawns, builds, research,
attacks and fire, diplomacy and espionage now and then, the end of every turn."""

from collections.abc import Iterator
from typing import NamedTuple

from rules.kit.prng import SeededRandom
from rules.skor.actions import (
    Action,
    Build,
    City,
    End,
    Fire,
    Move,
    Promote,
    Remove,
    Research,
    Send,
    Spawn,
    Spy,
)
from rules.skor.board import HEXES, NEIGHBOURS
from rules.skor.dice import Dice
from rules.skor.engine import act
from rules.skor.setup import Choice, roll_setup, start
from rules.skor.state import BRANCHES, Options, State

PLAYERS = ["red", "blue"]
CULTURES = ("technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien")
STRUCTURES = ("farm", "base", "fortification", "turret", "road")
# Tries at an action before the player ends its turn; actions a turn before it must.
TRIES = 6
PER_TURN = 8


class Step(NamedTuple):
    """One accepted action: the state it was played on, by whom, and the game's secret."""

    state: State
    player: str
    action: Action
    secret: bytes


def games(count: int, seed: int, round_limit: int = 8) -> list[list[Step]]:
    """`count` whole games, each a list of its accepted actions in order."""
    rng = SeededRandom(seed)
    return [list(_game(rng.fork(), round_limit)) for _ in range(count)]


def _game(rng: SeededRandom, round_limit: int) -> Iterator[Step]:
    secret = rng.next_u64().to_bytes(8, "big")
    dice = Dice(secret=secret)
    options = Options(round_limit=round_limit)
    rolled = roll_setup(PLAYERS, options, dice)
    choices = {}
    for player in PLAYERS:
        culture = rng.choice(CULTURES)
        tech = rng.choice(BRANCHES) if culture == "technocracy" else None
        choices[player] = Choice(culture, rng.between(1, 6), tech)  # type: ignore[arg-type]
    _, state, _ = start(rolled, choices, dice)
    done = 0
    while state.ending is None:
        player = state.turn.player
        tries = [likely(rng, state, player) for _ in range(TRIES)] if done < PER_TURN else []
        # A starving player, or a Dictatorship's purge (a roll of 1 at the end of its turn),
        # takes a piece off first.
        mine = [piece for piece in state.pieces if piece.player == player]
        removal: list[Action] = [Remove(piece.at, piece.kind) for piece in mine[:1]]
        if state.turn.fed is False or state.turn.phase == "purge":
            tries = removal
        for action in [*tries, End(), *removal]:
            result = act(state, player, action, dice)
            if result.refused is None:
                yield Step(state, player, action, secret)
                done = 0 if isinstance(action, End) else done + 1
                state = result.state
                break
        else:
            raise AssertionError(f"no action of {player} accepted on turn {state.turn.number}")


def likely(rng: SeededRandom, state: State, player: str) -> Action:
    mine = [p.at for p in state.pieces if p.player == player and not p.moved]
    at = rng.choice(mine) if mine else rng.choice(HEXES)
    theirs = sorted({p.at for p in state.pieces if p.player != player})
    pick = rng.below(100)
    if pick < 52:
        near = [t for t in NEIGHBOURS[at] if t in theirs] if rng.below(3) == 0 else []
        return Move(at, rng.choice(near or list(NEIGHBOURS[at])))
    if pick < 60:
        # Pieces cost upkeep: a few more only.
        return Spawn() if len(mine) < 6 else End()
    if pick < 70:
        return Build(rng.choice(STRUCTURES), at)
    if pick < 78:
        # City tier 1 comes before any other branch.
        city = state.tech[player].city if player in state.tech else 0
        return Research(rng.choice(BRANCHES) if city else "city")
    if pick < 84:
        return Fire(at, rng.choice(theirs)) if theirs else Promote(at)
    if pick < 88:
        return Promote(at)
    if pick < 92:
        return City(rng.choice(NEIGHBOURS[at]))
    if pick < 96:
        return Send(rng.between(1, 3))
    others = [p.at for p in state.pieces if p.player == player and p.at != at]
    return Spy(at, rng.choice(others), rng.choice(theirs)) if others and theirs else End()


def timed_act(step: Step) -> None:
    act(step.state, step.player, step.action, Dice(secret=step.secret))
