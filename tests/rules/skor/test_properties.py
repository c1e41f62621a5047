"""Properties of Skor's engine on seeded random games (docs/skor.md): from a real setup and
from random positions, random actions (many of them refused) until the game ends.

- nothing crashes; a refused action returns the very state it was given and rolls no die;
- every state reached is a valid request state (stacks, owners, Cities, turn) that survives
  its own JSON encoding, and no Resource count is ever negative;
- the game ends by the round limit at the latest;
- the same seed gives the same game, event for event.
"""

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.kit.prng import SeededRandom
from rules.skor.actions import (
    Action,
    Build,
    City,
    Debris,
    End,
    Fire,
    Move,
    Promote,
    Remove,
    Research,
    Resign,
    Sabotage,
    Send,
    Spawn,
    Spy,
)
from rules.skor.board import HEXES, NEIGHBOURS, territory_of
from rules.skor.dice import Dice
from rules.skor.engine import act
from rules.skor.setup import Choice, roll_setup, start
from rules.skor.state import BRANCHES, Options, Piece, State, Structure, Tech, Turn
from rules.skor.validate import validate

CULTURES = ("technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien", "alternative")
STRUCTURES = ("farm", "base", "fortification", "debris", "turret", "road", "nonsense")
KINDS = (None, "civilian", "military")
ACTIONS_PER_TURN = 10
game_settings = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _near(rng: SeededRandom, at: str) -> str:
    """A hex one or two steps away now and then, anywhere otherwise."""
    if rng.below(4) == 0:
        return rng.choice(HEXES)
    one = rng.choice(NEIGHBOURS[at])
    return one if rng.below(2) else rng.choice(NEIGHBOURS[one])


def _attack(rng: SeededRandom, state: State, player: str) -> Action | None:
    """A move or a shot onto an opponent piece, when one is at hand."""
    theirs = {p.at for p in state.pieces if p.player != player}
    ready = [p.at for p in state.pieces if p.player == player and not p.moved]
    turrets = [at for at in ready if state.structures.get(at, Structure("road")).kind == "turret"]
    if turrets and theirs and rng.below(2):
        return Fire(rng.choice(turrets), rng.choice(sorted(theirs)))
    targets = [(at, t) for at in ready for t in NEIGHBOURS[at] if t in theirs]
    if not targets:
        return None
    start, end = rng.choice(targets)
    return Move(start, end, None, rng.below(4) == 0)


def _action(rng: SeededRandom, state: State, player: str) -> Action:
    mine = [p.at for p in state.pieces if p.player == player] or list(HEXES)
    at = rng.choice(mine)
    attack = _attack(rng, state, player) if rng.below(3) == 0 else None
    if attack is not None:
        return attack
    anywhere = rng.choice(HEXES)
    home = [h for h in HEXES if territory_of(h) == ("A" if player == state.players[0] else "B")]
    pick = rng.below(100)
    if pick < 35:
        return Move(at, _near(rng, at), rng.choice(KINDS), rng.below(8) == 0)
    if pick < 40:
        return Fire(at, rng.choice(HEXES))
    if pick < 43:
        return City(_near(rng, at))
    if pick < 50:
        return Spawn(None if rng.below(2) else anywhere)
    if pick < 53:
        return Remove(at, rng.choice(KINDS))
    if pick < 63:
        return Build(rng.choice(STRUCTURES), at)
    if pick < 66:
        return Debris(at)
    if pick < 70:
        return Promote(at)
    if pick < 74:
        amount = rng.between(0, 7)
        return Send(amount, [rng.choice(home) for _ in range(amount // 3)])
    if pick < 77:
        return Spy(at, rng.choice(mine), anywhere)
    if pick < 79:
        return Sabotage(anywhere)
    if pick < 90:
        return Research(rng.choice((*BRANCHES, "alchemy")))
    return End() if pick < 99 or rng.below(8) else Resign()


def _random_position(rng: SeededRandom, options: Options) -> State:
    """A position no game needs to have reached, for the rarer rules: any tech, any
    structure, pieces anywhere they may stand."""
    players = ["red", "blue"]
    structures = {"A0": Structure("city", "red"), "B0": Structure("city", "blue")}
    for at in HEXES:
        if at not in structures and rng.below(3) == 0:
            kind = rng.choice(("resource", "obstruction", *STRUCTURES[:-1]))
            by = None if kind in ("resource", "obstruction") else rng.choice(players)
            structures[at] = Structure(kind, by)  # type: ignore[arg-type]
    pieces = []
    for at in HEXES:
        if structures.get(at, Structure("road")).kind == "obstruction" or rng.below(3):
            continue
        owner = rng.choice(players)
        for _ in range(rng.between(1, 2)):
            pieces.append(Piece(at, owner, rng.choice(("civilian", "military"))))
    number = rng.between(1, 2 * options.round_limit)
    tech = {p: Tech(*(rng.between(0, 3) for _ in BRANCHES)) for p in players}
    available = rng.between(0, 12)
    return State(
        options=options,
        players=players,
        cultures={p: rng.choice(CULTURES) for p in players},  # type: ignore[arg-type]
        tech=tech,
        structures=structures,
        pieces=pieces,
        turn=Turn(
            number,
            players[(number - 1) % 2],
            number <= 4,
            "move",
            available,
            0,
            True,
            available,
            0,
            False,
            0,
        ),
        # Resource on the way keeps the next turns fed, so that they do more than starve.
        incoming={p: rng.between(0, 30) for p in players},
    )


def _from_setup(rng: SeededRandom, options: Options, dice: Dice) -> tuple[State, list[Any]]:
    rolled = roll_setup(["red", "blue"], options, dice)
    choices = {}
    for player in ("red", "blue"):
        culture = rng.choice(CULTURES)
        tech = rng.choice(BRANCHES) if culture == "technocracy" else None
        choices[player] = Choice(culture, rng.between(1, 6), tech)  # type: ignore[arg-type]
    _, state, events = start(rolled, choices, dice)
    return state, events


def _check(state: State) -> None:
    validate(state)
    assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
    turn = state.turn
    assert turn.number <= 2 * state.options.round_limit
    if state.ending is None:
        assert turn.available is not None
        assert turn.production is not None
        assert 0 <= turn.available <= turn.production
        assert turn.phase is not None
        assert turn.spawns is not None
        assert turn.spawns <= 2
    assert all(amount >= 0 for amount in state.incoming.values())


def play(seed: int, from_setup: bool) -> tuple[State, list[Any]]:
    """A whole game from `seed`: its final state and every event."""
    rng = SeededRandom(seed)
    options = Options(round_limit=rng.between(2, 12), alternative_culture=True)
    dice = Dice(secret=seed.to_bytes(8, "big"))
    if from_setup:
        state, log = _from_setup(rng, options, dice)
    else:
        state, log = _random_position(rng, options), []
    _check(state)
    steps = 0
    while state.ending is None:
        steps += 1
        assert steps <= ACTIONS_PER_TURN * 2 * options.round_limit + 100
        player = state.turn.player if rng.below(20) else rng.choice(state.players)
        action = _action(rng, state, player)
        if state.turn.phase == "purge" and rng.below(2):
            mine = [p for p in state.pieces if p.player == player]
            action = Remove(mine[0].at, mine[0].kind) if mine else action
        if steps % ACTIONS_PER_TURN == 0:
            action = End()
        rolled = len(dice.records)
        result = act(state, player, action, dice)
        if result.refused is not None:
            assert result.state is state
            assert result.events == []
            assert len(dice.records) == rolled
            continue
        state = result.state
        _check(state)
        log.extend(result.events)
    return state, log


@game_settings
@given(st.integers(min_value=0, max_value=2**63), st.booleans())
def test_random_games_keep_the_rules(seed: int, from_setup: bool) -> None:
    state, _ = play(seed, from_setup)
    assert state.ending is not None


@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(st.integers(min_value=0, max_value=2**63), st.booleans())
def test_the_same_seed_gives_the_same_game(seed: int, from_setup: bool) -> None:
    first, second = play(seed, from_setup), play(seed, from_setup)
    assert msgspec.json.encode(first) == msgspec.json.encode(second)
