"""The Art of War's and Skor's bots (bots/artofwar.py, bots/skor.py) over many seeded games
played in memory through the definitions (bots/selfplay.py): every order they give is one
the engine carries, every stance change and every Skor move one the game takes, and every
game ends; and the greedy heuristics do what docs/bots.md says."""

from typing import Any

import msgspec
import pytest

from bots import artofwar, skor, skor_greedy
from bots.selfplay import play_out
from rules.artofwar.definition import ART_OF_WAR
from rules.artofwar.play import Play, play_board
from rules.artofwar.validate import check_orders
from rules.game import Draws
from rules.kit.prng import SeededRandom
from rules.skor.actions import End, Move
from rules.skor.definition import SKOR
from rules.skor.state import Piece

AOW_OPTIONS: list[dict[str, Any]] = [
    {"map": "generated"},
    {"map": "generated", "placement": "free", "diplomacy": "binding"},
    {"map": "aow-mini", "initial": "fill", "independents": "helpless"},
    {"map": "world", "initial": "fill", "placement": "free"},
]


def _every_order_carried(play: Play, seat: str, moves: list[Any]) -> None:
    *stances, orders = moves
    assert len(stances) <= 1
    for stance in stances:
        assert isinstance(stance, dict)
        assert set(stance) <= {"stance", "draw_max"}
    board, position = play_board(play), play.position
    checked = check_orders(board, position, play.options.placement == "free", {seat: orders})
    assert [(line.text, line.reason) for line in checked.lines if line.verdict != "carried"] == []


@pytest.mark.parametrize(
    ("options", "players"),
    [
        (options, players)
        for options in AOW_OPTIONS
        for players in (2, 3, 7, 20)
        if options["map"] != "aow-mini" or players <= 3  # aow-mini seats few
    ],
)
def test_art_of_war_bots_give_only_carried_orders_and_end_the_war(
    options: dict[str, Any], players: int
) -> None:
    for seed in range(3):
        strategies = [("random", "greedy")[(n + seed) % 2] for n in range(players)]
        played = play_out(
            "art-of-war", options, strategies, bytes([seed]) * 32, seed,
            weary=12, observe=_every_order_carried,
        )  # fmt: skip
        assert played.ending.by in ("conquest", "last_survivor", "mercy", "draw")
        assert played.steps <= 13
        assert played.moves >= played.steps * 2


@pytest.mark.parametrize(
    "strategies",
    [["random", "random"], ["greedy", "random"], ["random", "greedy"], ["greedy", "greedy"]],
)
def test_skor_bots_make_only_moves_the_game_takes_to_the_end(strategies: list[str]) -> None:
    options = {"round_limit": 12, "alternative_culture": True}
    turns = 0
    for seed in range(10):
        # Every move goes through the definition's `move`, which refuses what the engine does.
        played = play_out("skor", options, strategies, bytes([seed, 7]) * 16, seed)
        assert played.ending.by in ("city", "round_limit")
        turns += played.state.game.turn.number
    assert turns > 10 * 12


def test_the_greedy_general_attacks_the_weak_and_places_on_the_border() -> None:
    options = ART_OF_WAR.check_options({"map": "aow-mini", "initial": "fill", "placement": "free"})
    state = None
    for event in ART_OF_WAR.setup(options, ("p1", "p2"), _draws()):
        state = ART_OF_WAR.evolve(state, event)
    assert state is not None
    board = play_board(state)
    moves = artofwar.greedy_turn(state, "p1", SeededRandom(1), 30)
    (orders,) = moves  # no mercy already: no stance change
    (place,) = [line for line in orders if line.startswith("place")]
    placed_on = place.split()[2]
    assert any(state.position.owners.get(n) != "p1" for n in board.neighbours[placed_on])
    pool = state.position.pending_builds["p1"]
    assert place == f"place {pool} {placed_on}"
    for line in orders:
        if " to " in line:
            _, count, _, target = line.split()
            assert state.position.owners.get(target) != "p1"
            assert int(count) > artofwar.ODDS * state.position.units.get(target, 0)
    weary = artofwar.greedy_turn(state, "p1", SeededRandom(1), 1)
    assert weary[0] == {"stance": "draw"}


def _draws() -> Draws:
    return Draws(bytes(32))


def test_the_greedy_skor_player_attacks_a_lone_civilian_and_ends_its_turn() -> None:
    choices = {"p1": {"culture": "feudal", "side": 1}, "p2": {"culture": "feudal", "side": 1}}
    play = None
    for event in SKOR.setup(SKOR.check_options({}), ("p1", "p2"), _draws()):
        play = SKOR.evolve(play, event)
    assert play is not None
    for event in SKOR.resolve(play, choices, _draws()):
        play = SKOR.evolve(play, event)
    game = play.game
    assert game is not None
    mover = game.turn.player
    other = game.players[1] if mover == game.players[0] else game.players[0]
    # A soldier of the mover at X1, a lone civilian of the other at X2 beside it.
    pieces = [
        *game.pieces,
        Piece("X1", mover, "military"),
        Piece("X2", other, "civilian"),
    ]
    posed = msgspec.structs.replace(game, pieces=pieces)
    assert skor_greedy.greedy_action(posed, mover, SeededRandom(0)) == Move("X1", "X2", "military")
    # With nothing left worth doing, it ends its turn; every choice is a legal one.
    assert skor.legal(posed, mover, End())
    assert all(skor.legal(posed, mover, a) for a in skor.legal_actions(posed, mover))
