"""Properties of Skor's engine on thousands of seeded random games (docs/skor.md): from a real
setup and from random positions, random actions (many of them refused) until the game ends.

- nothing crashes; a refused action returns the very state it was given and rolls no die;
- every state reached is a valid request state (`validate`: never more than two pieces on a
  hex, never both players' pieces on one, one City each, the turn its player's) that
  survives its own JSON encoding, and no Resource count (available, incoming) is negative;
- every die rolled is reproduced from the game's secret and its labels alone, its labels
  those of the specification (§4.12), none used twice, and it is the die its events report;
- the game ends by the round limit at the latest;
- the same seed gives the same game, event for event.
"""

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import pytest

from rules.kit.prng import SeededRandom, derived
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
from rules.skor.dice import Dice, DieRecord
from rules.skor.engine import act
from rules.skor.setup import Choice, Setup, roll_setup, start
from rules.skor.state import BRANCHES, Options, Piece, State, Structure, Tech, Turn
from rules.skor.validate import validate

CULTURES = ("technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien", "alternative")
STRUCTURES = ("farm", "base", "fortification", "debris", "turret", "road", "nonsense")
KINDS = (None, "civilian", "military")
ACTIONS_PER_TURN = 10
# 8 tests of 300 seeds, each seed played from a setup and from a random position: 4,800 games.
CHUNKS, SEEDS = 8, 300
# The sides each purpose's die may have (§4.6, §4.12): terrain purposes end in " side".
SIDES = {
    "first player": {2},
    "side": {6},
    "attack": {6, 8, 10},
    "defence": {4, 6, 8, 10},
    "conversion": {6},
    "providence": {6},
    "purge": {2},
}
# The engine events that report a die, and its sides.
REPORTED = {"conversion_roll": 6, "providence_roll": 6, "purge_roll": 2}


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
    assert [(d.sides, d.value) for d in dice.records] == setup_dice(rolled)
    choices = {}
    for player in ("red", "blue"):
        culture = rng.choice(CULTURES)
        tech = rng.choice(BRANCHES) if culture == "technocracy" else None
        choices[player] = Choice(culture, rng.between(1, 6), tech)  # type: ignore[arg-type]
    rolled_before = len(dice.records)
    _, state, events = start(rolled, choices, dice)
    assert [(d.sides, d.value) for d in dice.records[rolled_before:]] == reported(events)
    return state, events


def setup_dice(setup: Setup) -> list[tuple[int, int]]:
    """The dice (sides, value) the setup shows: who plays first, then the terrain's."""
    terrain = [
        (6, value)
        for territory in setup.territories.values()
        for placement in territory.placements
        for value in (placement.first, *placement.second)
    ]
    return [(2, setup.order_roll), *terrain]


def reported(events: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
    """The dice (sides, value) that the engine's events report, in the order rolled."""
    dice = []
    for event in events:
        if event["event"] == "attack":
            for duel in event["duels"]:
                if duel["outcome"] != "automatic":
                    dice += [(duel[s]["die"], duel[s]["roll"]) for s in ("attacker", "defender")]
        elif event["event"] in REPORTED:
            dice.append((REPORTED[event["event"]], event["roll"]))
    return dice


def reproduced(secret: bytes, dice: Sequence[DieRecord], generation: int) -> None:
    """Every die of a game, in the order rolled, is 1 + derived(secret, *labels).below(sides)
    with the sides of its purpose, and its labels are §4.12's: `order`, `terrain|T|k` and
    `roll|t|g|k`, turn after turn, each stream's k counting 0, 1, ... (none skipped or reused)."""
    counted: dict[str, int] = {}
    turn = 0
    for die in dice:
        labels = die.labels.split("|")
        assert die.value == 1 + derived(secret, *labels).below(die.sides), die
        assert die.sides in SIDES["side" if die.purpose.endswith(" side") else die.purpose], die
        match labels:
            case ["order"]:
                k = "0"
            case ["terrain", "A" | "B", k]:
                pass
            # Turns in decimal, no padding, never going back.
            case ["roll", t, g, k] if g == str(generation) and t == str(max(turn, int(t))):
                turn = int(t)
            case _:
                raise AssertionError(f"not the labels of a die rolled now: {die}")
        stream = "|".join(labels[:-1]) or "order"
        assert k == str(counted.get(stream, 0)), die
        counted[stream] = int(k) + 1


def _check(state: State) -> None:
    # validate refuses more than two pieces on a hex and both players' pieces on one.
    validate(state)
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
    assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state


def play(seed: int, from_setup: bool) -> tuple[State, list[Any]]:
    """A whole game from `seed`: its final state and every event; its dice checked."""
    rng = SeededRandom(seed)
    options = Options(round_limit=rng.between(2, 12), alternative_culture=True)
    secret = seed.to_bytes(8, "big")
    dice = Dice(secret=secret)
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
        assert [(d.sides, d.value) for d in dice.records[rolled:]] == reported(result.events)
        log.extend(result.events)
    reproduced(secret, dice.records, state.generation)
    return state, log


def seeds(chunk: int, count: int = SEEDS) -> Iterator[int]:
    """`count` seeds of 64 bits, different for each chunk."""
    rng = SeededRandom(chunk)
    return (rng.next_u64() for _ in range(count))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_the_rules(chunk: int) -> None:
    for seed in seeds(chunk):
        for from_setup in (True, False):
            try:
                state, _ = play(seed, from_setup)
                assert state.ending is not None
            except Exception as error:
                error.add_note(f"seed {seed}, from a setup: {from_setup}")
                raise


def test_the_same_seed_gives_the_same_game() -> None:
    for seed in seeds(CHUNKS, 50):
        for from_setup in (True, False):
            first, second = play(seed, from_setup), play(seed, from_setup)
            assert msgspec.json.encode(first) == msgspec.json.encode(second), seed
