"""Resolving a turn into one `TurnResolved`, and planning a rewind."""

from datetime import datetime

import msgspec
import pytest
from msgspec.structs import replace

from projections.evolve import fold
from projections.game import GameState
from rules.kit.prng import commitment
from rules.skirmish.turn import Death, OrderReport
from schema import errors as codes
from schema.commands import (
    Actor,
    BanPlayer,
    JoinGame,
    PauseGame,
    Resign,
    ResolveTurn,
    RewindTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import (
    GameEvent,
    PlayerNotified,
    PlayerResigned,
    RecordedPosition,
    TurnResolved,
    TurnRewound,
)
from schema.refusals import WrongPhase, WrongTurn
from server.game.decide import RewindPlan, decide, plan_rewind
from tests.server.decide.given import (
    ADMIN,
    NONCE,
    NOON,
    SECRET,
    T0,
    Game,
    account,
    armies_of,
    created,
    during,
    free_neighbours,
    joined,
    noon,
    on_board,
    refused,
    resolve,
    started,
    submit,
)


def test_one_event_carries_everything_the_turn_produced() -> None:
    game = started(3)
    state = game.state
    mine, theirs = armies_of(state, "p1"), armies_of(state, "p2")
    free = free_neighbours(state, mine[0])[0]
    submit(game, 1, f"{mine[0]} H")
    submit(game, 1, f"{mine[0]} to {free}")
    submit(game, 2, f"{theirs[0]} H, QQ H")
    board = state.skirmish.board
    resolved, *notices = game.when(
        ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON, turn=1)
    )
    assert [n.player_id for n in notices if isinstance(n, PlayerNotified)] == ["p1", "p2", "p3"]
    assert [resolved] == [
        TurnResolved(
            turn=1,
            at=NOON,
            effect=None,
            orders=[
                OrderReport("p1", f"{mine[0]} H", mine[0], "hold", "replaced"),
                OrderReport("p1", f"{mine[0]} to {free}", mine[0], "move", "succeeded", free),
                OrderReport("p2", f"{theirs[0]} H", theirs[0], "hold", "succeeded"),
                OrderReport("p2", "QQ H", None, None, "invalid", reason="no such territory: QQ"),
            ],
            board=RecordedPosition(
                armies={t: p for t, p in board.armies.items() if t != mine[0]} | {free: "p1"},
                control=board.control | {free: "p1"},
                farms=[],
            ),
            dead=[],
            vp={"p1": 0, "p2": 0, "p3": 0},
            vp_gained={"p1": 0, "p2": 0, "p3": 0},
            eliminated=[],
            winner=None,
            joined={},
            vote_outcome=None,
            next_vote=None,
            next_effect=None,
        )
    ]


def test_the_resolution_opens_the_next_turn() -> None:
    game = started(3)
    submit(game, 1, "anything")
    resolve(game)
    state = game.state
    assert (state.turn, state.wait_began_at, state.skirmish.submissions) == (2, NOON, {})
    assert state.next_resolution_at() == noon(2)


def test_armies_without_orders_hold() -> None:
    game = started(3)
    before = game.state.skirmish.board
    event = resolve(game)
    assert event.orders == []
    assert event.board == before


def test_an_attack_with_support_kills_the_army_and_eliminates_its_player() -> None:
    # p2's only army stands on Margalb, its only barracks.
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"})
    submit(game, 1, "AE to MA, RG S AE to MA")
    event = resolve(game)
    assert [o.result for o in event.orders] == ["succeeded", "succeeded"]
    assert event.dead == [Death("MA", "p2")]
    assert event.board.armies == {"MA": "p1", "RG": "p1", "MJ": "p3"}
    assert event.board.control["MA"] == "p1"
    assert event.eliminated == ["p2"]
    assert game.state.players["p2"].status == "eliminated"
    with refused(codes.NOT_A_PLAYER, "not a player"):
        submit(game, 2, "MA H")


def test_each_player_is_told_of_their_own_orders_and_losses() -> None:
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"}, {"KU": "p2"})
    submit(game, 1, "AE to MA, RG S AE to MA")
    submit(game, 3, "MJ H")
    _, *notices = game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON, turn=1))
    told = {n.player_id: n.text.splitlines()[1:] for n in notices if isinstance(n, PlayerNotified)}
    assert told == {
        "p1": ["✓ AE to MA", "✓ RG S AE to MA", "You have 0 VP (+0 this turn)."],
        "p2": [
            "You gave no orders: your armies held.",
            "Your army in MA was killed.",
            "You have 0 VP (+0 this turn).",
        ],
        "p3": ["✓ MJ H", "You have 0 VP (+0 this turn)."],
    }


def test_a_player_with_a_barracks_but_no_army_stays_in() -> None:
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"}, {"KU": "p2"})
    submit(game, 1, "AE to MA, RG S AE to MA")
    event = resolve(game)
    assert event.dead == [Death("MA", "p2")]
    assert event.eliminated == []
    assert game.state.players["p2"].status == "active"


def test_a_banned_players_orders_are_ignored() -> None:
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"})
    submit(game, 1, "AE to MA, RG S AE to MA")
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p1"))
    event = resolve(game)
    assert event.orders == []
    assert event.dead == []
    assert event.board.armies == {"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"}


def test_a_resigned_players_armies_hold_until_captured() -> None:
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3", "KU": "p3"})
    submit(game, 1, "AE H, RG H")
    submit(game, 2, "MA to FI")
    game.run(Resign(actor=Actor(account(2)), now=during(1)))
    submit(game, 3, "MJ to FI")
    first = resolve(game)
    # p2's move is ignored: p3 walks into Filp unopposed and p2's army stays put.
    assert [o.player for o in first.orders] == ["p1", "p1", "p3"]
    assert (first.board.armies["FI"], first.board.armies["MA"]) == ("p3", "p2")
    submit(game, 1, "AE to MA, RG S AE to MA")
    second = resolve(game)
    assert second.dead == [Death("MA", "p2")]


def test_a_resigned_player_earns_no_vp() -> None:
    # p1 controls five territories, the most: the expansion award, unless it resigned.
    five = {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"}
    game = on_board({"EH": "p1", "MA": "p2", "MJ": "p3"}, five)
    game.run(Resign(actor=Actor(account(1)), now=during(1)))
    assert resolve(game).vp_gained["p1"] == 0
    assert resolve(on_board({"EH": "p1", "MA": "p2", "MJ": "p3"}, five)).vp_gained["p1"] == 1


def test_reaching_the_vp_target_wins_and_finishes_the_game() -> None:
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3"},
        {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
        vp_target=1,
        votes="every_turn",
        vote_start_turn=1,
    )
    event = resolve(game)
    assert (event.winner, event.vp["p1"], event.next_vote) == ("p1", 1, None)
    state = game.state
    assert (state.phase, state.skirmish.winner) == ("finished", "p1")
    with pytest.raises(WrongPhase, match="the game is finished"):
        game.when(SubmitOrders(nonce=NONCE, actor=Actor(account(2)), now=during(2), text="MA H"))
    with pytest.raises(WrongPhase, match="the game is finished"):
        game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=noon(2)))


def test_a_turn_never_resolves_twice() -> None:
    game = started(3)
    resolve(game)
    with pytest.raises(WrongTurn, match="turn 1 is already resolved; the game is at turn 2"):
        game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=noon(1), turn=1))


def test_a_turn_not_reached_yet_is_not_called_resolved() -> None:
    with pytest.raises(WrongTurn, match="turn 3 is not reached yet; the game is at turn 1"):
        started(3).when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON, turn=3))


def test_resolve_now_resolves_the_current_turn() -> None:
    game = started(3)
    resolve(game)
    for player in (1, 2, 3):
        submit(game, player, "ready")
    event, *_ = game.when(ResolveTurn(actor=Actor(ADMIN), now=during(2)))
    assert isinstance(event, TurnResolved)
    assert event.turn == 2


def test_an_admins_early_resolution_waits_for_every_active_players_orders() -> None:
    # rules.md, "Decisions added after the second release": else an admin who plays could
    # resolve, read the others' orders, rewind and change theirs.
    game = started(3)
    now = ResolveTurn(actor=Actor(ADMIN), now=during(1))
    with refused(codes.ORDERS_MISSING, "3 of the 3 active players have not sent orders"):
        game.when(now)
    submit(game, 1, "ready")
    with refused(codes.ORDERS_MISSING, "2 of the 3 active players have not sent orders"):
        game.when(now)
    submit(game, 2, "ready")
    # An empty submission (no order at all: its pieces are empty) says "ready" too.
    submit(game, 3, ",")
    (event, *_) = game.when(now)
    assert isinstance(event, TurnResolved)


def test_a_resigned_or_banned_player_is_not_waited_for() -> None:
    game = started(3)
    submit(game, 1, "ready")
    game.run(Resign(actor=Actor(account(2)), now=during(1)))
    with refused(codes.ORDERS_MISSING, "1 of the 2 active players has not sent orders"):
        game.when(ResolveTurn(actor=Actor(ADMIN), now=during(1)))
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p3"))
    assert game.when(ResolveTurn(actor=Actor(ADMIN), now=during(1)))


def test_the_operator_and_the_clock_resolve_at_once_and_a_sandbox_is_not_waited_for() -> None:
    game = started(3)
    assert game.when(ResolveTurn(actor=Actor("operator", operator=True), now=during(1)))
    assert game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON, turn=1))
    sandbox = created(sandbox=True)
    for name in ("Red", "Blue", "Green"):
        sandbox.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    sandbox.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    assert sandbox.when(ResolveTurn(actor=Actor(ADMIN), now=during(1)))


def test_a_paused_or_unstarted_game_does_not_resolve() -> None:
    game = started(3)
    game.run(PauseGame(actor=Actor(ADMIN), now=during(1)))
    with pytest.raises(WrongPhase, match="the game is paused"):
        game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON))
    with pytest.raises(WrongPhase, match="the game is joining"):
        joined(3).when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON))


# --- rewind planning ----------------------------------------------------------------


# Fresh randomness for a rewind; used only when the game had ended and revealed its secret.
NEW_SECRET = bytes(range(100, 132))


def _rewind(now: datetime = T0) -> RewindTurn:
    return RewindTurn(actor=Actor(ADMIN), now=now, secret=NEW_SECRET)


def _versions(game: Game) -> list[int]:
    """The versions (from 1) of the game's resolutions."""
    return [v for v, e in enumerate(game.events, start=1) if isinstance(e, TurnResolved)]


def test_a_rewind_is_planned_not_decided() -> None:
    with pytest.raises(TypeError, match="plan_rewind"):
        decide(started(3).state, _rewind())


def test_only_an_admin_rewinds() -> None:
    game = started(3)
    resolve(game)
    with refused(codes.ADMIN_ONLY, "admin"):
        plan_rewind(
            game.state, RewindTurn(actor=Actor(account(1)), now=during(2), secret=NEW_SECRET)
        )


def test_there_must_be_a_resolution_to_undo() -> None:
    with refused(codes.NOTHING_TO_REWIND, "there is no resolution to undo"):
        plan_rewind(started(3).state, _rewind())
    with pytest.raises(WrongPhase):
        plan_rewind(joined(3).state, _rewind())


def test_the_plan_truncates_just_before_the_last_resolution() -> None:
    game = started(3)
    resolve(game)
    submit(game, 1, "turn two orders")
    resolve(game)
    game.run(Resign(actor=Actor(account(3)), now=during(3)))
    last = _versions(game)[-1]
    plan = plan_rewind(game.state, _rewind(noon(2)))
    rewound = TurnRewound(turn=2, at=noon(2), by=ADMIN)
    assert plan == RewindPlan(after_version=last - 1, rewound=rewound)
    # What goes is the resolution of turn 2 and everything recorded after it: the players'
    # results notices and the resignation.
    gone = game.events[plan.after_version :]
    assert isinstance(gone[0], TurnResolved)
    assert gone[0].turn == 2
    assert [type(e) for e in gone[1:]] == [PlayerNotified] * 3 + [PlayerResigned]


def test_after_the_truncation_the_turns_orders_are_submitted_again() -> None:
    game = started(3)
    resolve(game)
    submit(game, 1, "turn two orders")
    resolve(game)
    plan = plan_rewind(game.state, _rewind(noon(2)))
    kept = game.events[: plan.after_version]
    state = fold(GameState(), enumerate([*kept, TurnRewound(turn=2, at=noon(2))], start=1))
    assert state.turn == 2
    assert [s.text for s in state.skirmish.submissions["p1"]] == ["turn two orders"]
    assert state.skirmish.last_turn is not None
    assert state.skirmish.last_turn.turn == 1


def test_rewinding_again_goes_one_more_turn_back() -> None:
    game = started(3)
    resolve(game)
    resolve(game)
    plan = plan_rewind(game.state, _rewind(noon(2)))
    game = Game(*game.events[: plan.after_version], plan.rewound)
    again = plan_rewind(game.state, _rewind(noon(2)))
    assert again == RewindPlan(
        after_version=_versions(game)[0] - 1, rewound=TurnRewound(turn=1, at=noon(2), by=ADMIN)
    )
    game = Game(*game.events[: again.after_version], TurnRewound(turn=1, at=noon(2)))
    assert game.state.turn == 1
    with refused(codes.NOTHING_TO_REWIND, "no resolution to undo"):
        plan_rewind(game.state, _rewind(noon(2)))


def test_a_finished_game_can_be_rewound() -> None:
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3"},
        {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
        vp_target=1,
    )
    resolve(game)
    plan = plan_rewind(game.state, _rewind(noon(1)))
    # The end revealed the game's secret: the game goes on with a new one.
    assert plan == RewindPlan(
        after_version=_versions(game)[0] - 1,
        rewound=TurnRewound(
            turn=1,
            at=noon(1),
            secret=NEW_SECRET.hex(),
            commitment=commitment(NEW_SECRET),
            by=ADMIN,
        ),
    )
    rewound = Game(*game.events[: plan.after_version], plan.rewound)
    assert (rewound.state.phase, rewound.state.skirmish.winner) == ("running", None)
    assert rewound.state.randomness == NEW_SECRET


def test_a_rewind_says_who_did_it_and_why() -> None:
    game = started(3)
    resolve(game)
    why = RewindTurn(actor=Actor(ADMIN), now=during(2), secret=NEW_SECRET, reason=" a misclick ")
    assert plan_rewind(game.state, why).rewound == TurnRewound(
        turn=1, at=during(2), by=ADMIN, reason="a misclick"
    )
    operator = RewindTurn(actor=Actor("operator", operator=True), now=during(2), secret=NEW_SECRET)
    assert plan_rewind(game.state, operator).rewound == TurnRewound(
        turn=1, at=during(2), by="operator"
    )
    for reason, code in (("x" * 501, codes.TEXT_TOO_LONG), ("   ", codes.TEXT_EMPTY)):
        with refused(code):
            plan_rewind(game.state, replace(why, reason=reason))


def test_an_old_rewind_without_who_or_why_still_decodes() -> None:
    old = b'{"type":"turn_rewound.v1","turn":3,"at":"2030-01-01T12:00:00Z"}'
    event = msgspec.json.decode(old, type=GameEvent)
    assert isinstance(event, TurnRewound)
    assert (event.turn, event.by, event.reason) == (3, None, None)


def test_only_an_admin_or_the_operator_resolves_now() -> None:
    game = started(3)
    with refused(codes.ADMIN_ONLY, "admin"):
        game.when(ResolveTurn(actor=Actor(account(1)), now=during(1)))
    for player in (1, 2, 3):
        submit(game, player, "ready")
    assert game.when(ResolveTurn(actor=Actor(ADMIN), now=during(1)))
    assert game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=during(1), turn=1))
