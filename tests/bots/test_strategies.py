"""The bots' strategies without a server: every order they give is valid by the rules' own
check, turn after turn of games on generated maps, under every effect; and the greedy bot
takes what is left undefended, farms and builds."""

import random

import pytest

from bots.strategies import STRATEGIES, greedy_orders, random_orders
from rules.skirmish.board import GameMap, Territory
from rules.skirmish.effects import Effect
from rules.skirmish.mapgen import generate
from rules.skirmish.position import Position, Situation
from rules.skirmish.starting import starting_board
from rules.skirmish.turn import TurnInput, resolve_turn
from rules.skirmish.validate import check_orders
from schema.game_events import RecordedPosition, Settings
from schema.views import PublicGame, VoteView


def view(
    game_map: GameMap, position: Position, effect: Effect | None = None, turn: int = 1
) -> PublicGame:
    """The public view a bot reads, with what the strategies look at."""
    board = RecordedPosition(dict(position.armies), dict(position.control), sorted(position.farms))
    return PublicGame(
        id="g1", name="Bots", phase="running", turn=turn, settings=Settings("Bots"),
        admins=(), players=[], map=game_map, board=board,
        vote=VoteView(turn, ("FEAST", "STORM"), "STORM", {}),
        effect=effect.value if effect else None, winner=None, next_resolution_at=None,
        orders_open_at=None, orders_close_at=None, last_turn=None, position=0,
    )  # fmt: skip


@pytest.mark.parametrize("players", [3, 5, 8])
@pytest.mark.parametrize("map_type", ["normal", "spacious"])
def test_every_order_the_bots_give_is_valid_turn_after_turn(players: int, map_type: str) -> None:
    game_map = generate(players=players, map_type=map_type, seed=players)  # type: ignore[arg-type]
    ids = [f"p{n}" for n in range(1, players + 1)]
    position, _ = starting_board(game_map, ids, b"\x07" * 32)
    strategies = {p: STRATEGIES["random" if n % 2 else "greedy"][0] for n, p in enumerate(ids)}
    rngs = {p: random.Random(f"{p}-{players}") for p in ids}
    vp = dict.fromkeys(ids, 0)
    effects = [None, *Effect]
    given = 0
    for turn in range(1, 41):
        effect = effects[turn % len(effects)]
        seen = view(game_map, position, effect, turn)
        orders = {p: strategies[p](seen, p, rngs[p]) for p in ids if p in vp}
        book = check_orders(orders, game_map.board, Situation(game_map.board, position, effect))
        assert [(o.text, o.reason) for o in book.checked if o.reason is not None] == []
        given += len(book.checked)
        outcome = resolve_turn(TurnInput(game_map, position, vp, orders, effect, vp_target=50))
        position, vp = outcome.position, outcome.vp
        vp = {p: v for p, v in vp.items() if p not in outcome.eliminated}
        if outcome.winner is not None:
            break
    assert given > 40 * 2


def test_the_same_seed_gives_the_same_orders() -> None:
    game_map = generate(players=4, map_type="normal", seed=11)
    position, _ = starting_board(game_map, ["p1", "p2", "p3", "p4"], b"\1" * 32)
    seen = view(game_map, position)
    first = [random_orders(seen, "p1", random.Random(5)) for _ in range(3)]
    assert first == [random_orders(seen, "p1", random.Random(5)) for _ in range(3)]


def _line_map() -> GameMap:
    """AA - BB - CC - DD - EE in a line; AA, CC and EE barracks."""
    return GameMap(
        name="line",
        territories=tuple(
            Territory(t, f"Land{t}", barracks=t in ("AA", "CC", "EE"))
            for t in ("AA", "BB", "CC", "DD", "EE")
        ),
        edges=(("AA", "BB"), ("BB", "CC"), ("CC", "DD"), ("DD", "EE")),
    )


def test_the_greedy_bot_moves_into_an_undefended_neighbour() -> None:
    # DD's neighbours: CC, empty, and EE, where p2's army stands: it takes CC.
    position = Position(armies={"DD": "p1", "EE": "p2"}, control={"DD": "p1", "EE": "p2"})
    assert greedy_orders(view(_line_map(), position), "p1", random.Random(1)) == ["DD to CC"]


def test_the_greedy_bot_prefers_a_barracks_and_farms_on_a_farm() -> None:
    position = Position(
        armies={"BB": "p1", "DD": "p1"},
        control={"BB": "p1", "DD": "p1", "CC": "p2"},
        farms=frozenset({"DD"}),
    )
    # BB's neighbours: AA (a free barracks) and CC (p2's empty land): the barracks first.
    assert greedy_orders(view(_line_map(), position), "p1", random.Random(1)) == [
        "BB to AA",
        "DD F",
    ]


def test_the_greedy_bot_builds_only_where_no_other_army_can_reach() -> None:
    safe = Position(armies={"AA": "p1", "EE": "p2"}, control={"AA": "p1", "EE": "p2"})
    assert greedy_orders(view(_line_map(), safe), "p1", random.Random(1)) == ["AA B"]
    exposed = Position(armies={"CC": "p1", "DD": "p2"}, control={"CC": "p1", "DD": "p2"})
    assert greedy_orders(view(_line_map(), exposed), "p1", random.Random(1)) == ["CC to BB"]


def test_the_greedy_bot_attacks_a_lone_army_two_against_one() -> None:
    position = Position(
        armies={"BB": "p1", "DD": "p1", "CC": "p2"},
        control={"BB": "p1", "DD": "p1", "CC": "p2"},
    )
    orders = greedy_orders(view(_line_map(), position), "p1", random.Random(1))
    # AA and EE are free and empty: both armies take those first...
    assert orders == ["BB to AA", "DD to EE"]
    held = Position(
        armies={"BB": "p1", "DD": "p1", "CC": "p2"},
        control={"AA": "p1", "BB": "p1", "DD": "p1", "EE": "p1", "CC": "p2"},
    )
    # ...and with nothing left to take, one attacks with the other's support.
    assert greedy_orders(view(_line_map(), held), "p1", random.Random(1)) == [
        "BB to CC",
        "DD S BB to CC",
    ]


def test_the_random_bot_reinforces_when_it_has_a_free_barracks() -> None:
    position = Position(armies={"BB": "p1"}, control={"AA": "p1", "BB": "p1", "CC": "p1"})
    for seed in range(5):
        orders = random_orders(view(_line_map(), position), "p1", random.Random(seed))
        assert orders[-1] in ("REF to AA", "REF to CC")
