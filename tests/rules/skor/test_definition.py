"""Skor through the game seam (rules/skor/definition.py), without the server: seeded random
games from the setup to their end, played the way the room plays them (its events recorded
as JSON, folded by `evolve`), then replayed step by step as server/ops/replay_steps.py does.

- every game ends (the round limit at the latest), each seat with its result;
- folding the recorded events, step by step or all at once from nothing, gives exactly the
  state played (the engine's, its dice drawn from the secret), which survives its JSON;
- every state reached keeps the engine's properties (tests/rules/skor/test_properties.py),
  and every die in the events is reproduced from the secret and its labels;
- each step asked again with the same state, move and draws makes the same events;
- the same seed gives the same game; a step taken again in a later generation draws afresh.
"""

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from bots.selfplay import play_out
from projections.playing import game_events, recorded
from rules.game import Draws, Ending, MoveRefused, NotYourMove, Sealed, Wait
from rules.kit.prng import SeededRandom
from rules.registry import newest
from rules.skor.actions import Move, Resign
from rules.skor.definition import SKOR, Acted, Chosen, Play, SetupRolled
from rules.skor.dice import Dice, DieRecord
from rules.skor.engine import act
from rules.skor.setup import Choice, start
from rules.skor.state import BRANCHES, State
from tests.rules.skor.test_properties import (
    CULTURES,
    _action,
    _check,
    reported,
    reproduced,
    seeds,
    setup_dice,
)

SEATS = ("p1", "p2")
# 4 tests of 150 seeds: 600 games played through the definition and folded again.
CHUNKS, SEEDS = 4, 150
# (kind, seat, move, generation, recorded events), as the room's PlayRecorded keeps a step.
Step = tuple[str, str | None, Any, int, list[dict[str, Any]]]


def _folded(play: Play | None, events: list[dict[str, Any]]) -> Play:
    for event in game_events(SKOR, events):
        play = SKOR.evolve(play, event)
    assert play is not None
    assert msgspec.json.decode(msgspec.json.encode(play), type=Play) == play
    return play


def _played(game: State, seat: str, acted: Acted, draws: Draws) -> State:
    """The engine's state after the move's actions, from the state played so far, their dice
    drawn from the secret (as the move drew them): what folding the events must rebuild."""
    game = replace(game, generation=draws.generation)
    dice = Dice(secret=draws.key)
    for action in acted.actions:
        result = act(game, seat, action, dice)
        assert result.refused is None, result.refused
        game = result.state
    return game


def _dice(events: list[Any]) -> list[DieRecord]:
    """The dice of the definition's events, each checked against what the events report."""
    dice: list[DieRecord] = []
    for event in events:
        if isinstance(event, SetupRolled):
            assert [(d.sides, d.value) for d in event.dice] == setup_dice(event.setup)
        elif isinstance(event, Chosen | Acted):
            assert [(d.sides, d.value) for d in event.dice] == reported(event.events)
        dice += getattr(event, "dice", [])
    return dice


def _choice(rng: SeededRandom) -> dict[str, Any]:
    culture = rng.choice(CULTURES)
    tech = rng.choice(BRANCHES) if culture == "technocracy" else None
    return {"culture": culture, "side": rng.between(1, 6), "tech": tech}


def _move(rng: SeededRandom, play: Play, seat: str, tries: int) -> Any:
    """Mostly the JSON form of a random action (many refused), sometimes text, and an `end`
    after a few tries so that turns go by."""
    assert play.game is not None
    mine = [piece for piece in play.game.pieces if piece.player == seat]
    if play.game.turn.phase == "purge" and mine:
        # A Dictatorship's purge: one of its pieces goes before the turn can end.
        return f"remove {mine[0].at} {mine[0].kind}"
    if tries >= 30:
        return "end" if rng.below(2) else {"action": "end"}
    action = _action(rng, play.game, seat)
    if isinstance(action, Move) and rng.below(3) == 0:
        return f"move {action.from_} {action.to}; end"
    return msgspec.to_builtins(action)


def _same(play: Play, played: Play) -> None:
    assert msgspec.json.encode(play) == msgspec.json.encode(played)
    assert play.game is not None
    _check(play.game)


def play_game(seed: int) -> tuple[Play, list[Step]]:
    """A game as the room plays it, each step's events recorded and folded onto the state,
    beside the state played without folding: the engine's own game, played with the secret's
    dice (no draw is offered); every die checked."""
    rng = SeededRandom(seed)
    options = SKOR.check_options({"round_limit": rng.between(2, 8), "alternative_culture": True})
    draws = Draws(seed.to_bytes(8, "big"))
    made: list[Any] = SKOR.setup(options, SEATS, draws)
    setup = recorded(made)
    steps: list[Step] = [("setup", None, options, 0, setup)]
    play = _folded(None, setup)
    sealed = {}
    for seat in SEATS:
        decision = SKOR.move(play, seat, _choice(rng), draws)
        assert isinstance(decision, Sealed)
        sealed[seat] = decision.move
    made += SKOR.resolve(play, sealed, draws)
    resolution = recorded(made[-1:])
    steps.append(("resolution", None, sealed, 0, resolution))
    choices = {seat: msgspec.convert(move, Choice) for seat, move in sealed.items()}
    setup_rolled = made[0]
    assert isinstance(setup_rolled, SetupRolled)
    chosen, game, _ = start(setup_rolled.setup, choices, Dice(secret=draws.key))
    played = Play(chosen, game, turn_time=options["turn_time"])
    play = _folded(play, resolution)
    _same(play, played)
    tries = 0
    while SKOR.ending(play) is None:
        assert len(steps) < 2_000
        wait = SKOR.to_move(play)
        (seat,) = wait.seats
        if rng.below(3000) == 0:
            leaving = rng.choice(SEATS)
            events = recorded(SKOR.leave(play, leaving))
            steps.append(("leave", None, None, 0, events))
            play = _folded(play, events)
            if game.ending is None:
                game = act(game, leaving, Resign(), Dice(rolls=[])).state
            _same(play, replace(played, game=game, left=leaving))
            break
        move = _move(rng, play, seat, tries)
        try:
            moved = SKOR.move(play, seat, move, draws)
        except MoveRefused:
            tries += 1
            continue
        assert not isinstance(moved, Sealed)
        (acted,) = moved
        assert isinstance(acted, Acted)
        made.append(acted)
        tries = 0
        events = recorded(moved)
        steps.append(("move", seat, move, 0, events))
        play = _folded(play, events)
        game = _played(game, seat, acted, draws)
        timeouts = {**played.timeouts, seat: 0}
        played = replace(played, game=game, dice=tuple(acted.dice), timeouts=timeouts)
        _same(play, played)
    reproduced(draws.key, _dice(made), draws.generation)
    return play, steps


def _replayed(seed: int, steps: list[Step]) -> Play:
    """Each step asked again of the definition, from the state its predecessors fold to."""
    draws = Draws(seed.to_bytes(8, "big"))
    play: Play | None = None
    for kind, seat, move, generation, events in steps:
        again: list[Any]
        if kind == "setup":
            again = SKOR.setup(move, SEATS, draws)
        elif kind == "resolution":
            assert play is not None
            again = SKOR.resolve(play, move, Draws(draws.key, generation))
        elif kind == "move":
            assert play is not None
            assert seat is not None
            made = SKOR.move(play, seat, move, Draws(draws.key, generation))
            assert not isinstance(made, Sealed)
            again = made
        else:
            assert play is not None
            again = SKOR.leave(play, events[0]["player"])
        assert recorded(again) == events, (kind, seat, move)
        play = _folded(play, events)
    assert play is not None
    return play


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_ends_and_replays_identically(seed: int) -> None:
    play, steps = play_game(seed)
    ending = SKOR.ending(play)
    assert ending is not None
    assert sorted(ending.results) == list(SEATS)
    assert SKOR.to_move(play) == Wait()
    assert _replayed(seed, steps) == play
    assert msgspec.json.encode(play_game(seed)) == msgspec.json.encode((play, steps))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_games_events_folded_from_nothing_give_the_state_played(chunk: int) -> None:
    for seed in seeds(chunk, SEEDS):
        play, steps = play_game(seed)
        folded = _folded(None, [event for *_, events in steps for event in events])
        assert msgspec.json.encode(folded) == msgspec.json.encode(play), seed


def test_dice_are_drawn_afresh_in_a_later_generation() -> None:
    """Some seed's game has an action that rolls; taken again after a rewind (generation 1)
    its dice carry the generation in their labels."""
    for seed in range(40):
        _, steps = play_game(seed)
        rolled = [s for s in steps if s[0] == "move" and s[4][0]["dice"]]
        if rolled:
            break
    else:
        raise AssertionError("no game rolled a die")
    index = steps.index(rolled[0])
    before = _replayed(seed, steps[:index])
    _, seat, move, _, events = rolled[0]
    assert seat is not None
    turn = before.game.turn.number if before.game else 0
    labels = [die["labels"] for die in events[0]["dice"]]
    assert all(label.startswith(f"roll|{turn}|0|") for label in labels)
    again = SKOR.move(before, seat, move, Draws(seed.to_bytes(8, "big"), 1))
    assert not isinstance(again, Sealed)
    dice = recorded(again)[0]["dice"]
    assert [die["labels"] for die in dice] == [label.replace("|0|", "|1|", 1) for label in labels]


def test_moves_out_of_turn_or_unreadable_are_refused_with_the_engines_reason() -> None:
    _, steps = play_game(0)
    play = _replayed(0, steps[:2])
    draws = Draws(b"skor")
    assert play.game is not None
    first, second = play.game.players
    with pytest.raises(NotYourMove, match="not your turn"):
        SKOR.move(play, second, "end", draws)
    with pytest.raises(MoveRefused, match=r"^cannot read: fly away$"):
        SKOR.move(play, first, "fly away", draws)
    with pytest.raises(MoveRefused, match=r"^no such action: fly$"):
        SKOR.move(play, first, {"action": "fly"}, draws)
    with pytest.raises(MoveRefused, match=r"^end: not your turn$"):
        SKOR.move(play, first, "end\nend", draws)
    with pytest.raises(MoveRefused, match="resign"):
        SKOR.move(play, first, "resign", draws)
    with pytest.raises(MoveRefused, match="at most"):
        SKOR.move(play, first, "end;" * 300, draws)


def test_setup_choices_are_checked_one_by_one() -> None:
    draws = Draws(b"skor")
    play = _folded(None, recorded(SKOR.setup(SKOR.check_options({}), SEATS, draws)))
    assert SKOR.to_move(play) == Wait(frozenset(SEATS), sealed=True)
    for bad in ({"culture": "feudal", "side": 7}, {"culture": "technocracy", "side": 1}, "feudal"):
        with pytest.raises(MoveRefused, match="a setup choice"):
            SKOR.move(play, "p1", bad, draws)
    with pytest.raises(MoveRefused, match="alternative_culture"):
        SKOR.move(play, "p1", {"culture": "alternative", "side": 1}, draws)


def test_skor_is_built_in_and_checks_its_options() -> None:
    assert newest("skor") is SKOR
    assert SKOR.check_options({}) == {
        "round_limit": 100,
        "alternative_culture": False,
        "turn_time": 86_400,
    }
    with pytest.raises(ValueError, match="round_limit"):
        SKOR.check_options({"round_limit": 0})
    with pytest.raises(ValueError, match="round_limit"):
        SKOR.check_options({"clock": 3})


def test_a_seat_leaving_during_the_choices_loses() -> None:
    draws = Draws(b"skor")
    play = _folded(None, recorded(SKOR.setup(SKOR.check_options({}), SEATS, draws)))
    play = _folded(play, recorded(SKOR.leave(play, "p2")))
    assert SKOR.ending(play) == Ending("resignation", {"p1": "won", "p2": "resigned"})
    assert SKOR.to_move(play) == Wait()


@pytest.mark.parametrize("seed", range(6))
def test_the_dice_of_bot_games_with_combat_come_from_the_secret(seed: int) -> None:
    """Greedy bots fight (random games from a setup seldom do): every die their games rolled,
    attacks and defences among them, comes from the secret and its labels alone."""
    secret = seed.to_bytes(8, "big")
    options = {"round_limit": 30, "turn_time": None}
    played = play_out("skor", options, ("greedy", "greedy"), secret, seed)
    dice = _dice(played.events)
    assert {"attack", "defence"} <= {die.purpose for die in dice}
    reproduced(secret, dice, 0)
