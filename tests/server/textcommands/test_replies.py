"""What the bot answers a player, from the data each command produced."""

from rules.skirmish.turn import OrderReport
from schema.api import OrdersAccepted
from schema.game_events import RecordedOrder
from schema.views import MyOrders, VoteView
from server.commands import replies
from server.commands.parse import COMMANDS, Problem
from server.commands.text import DISCORD_LIMIT, fit

HOLD = RecordedOrder("TR H", "TR", "hold", valid=True)
SUPPORT = RecordedOrder("BL S CR to SL", "BL", "support", valid=True, target="SL")
NOWHERE = RecordedOrder("XX H", None, None, valid=False, reason="no such territory: XX")
FAR = RecordedOrder("VW to JN", "VW", "move", valid=False, reason="not adjacent: VW to JN")


def test_a_problem_with_a_usage_line() -> None:
    text = replies.problem(Problem("'x' is not a whole number.", usage="/color <1-20>"))
    assert text == "'x' is not a whole number.\nUsage: /color <1-20>"


def test_a_text_that_is_no_command_nor_a_games_move_is_told_as_neither() -> None:
    typo = Problem("Unknown command: /US.", unknown=True)
    assert replies.not_a_move("US 3 too\n  AK", "art-of-war", typo).split("\n") == [
        "Neither a command nor one of art-of-war's moves: US 3 too AK",
        "Send /help for the commands and the forms art-of-war's moves take.",
    ]
    long = replies.not_a_move("US 3 too AK " * 20, "skor", typo).split("\n")[0]
    assert long.endswith("...")
    assert len(long) < 110


def test_an_unknown_command_suggests_and_points_to_help() -> None:
    text = replies.problem(Problem("Unknown command: /sumbit.", suggestion="/submit"))
    assert text.split("\n") == [
        "Unknown command: /sumbit.",
        "Did you mean /submit?",
        "Send /help for the game and the commands, /cheat_sheet for orders.",
    ]


def test_needs_game_names_the_command_and_setup() -> None:
    text = replies.needs_game("submit")
    assert text.startswith("/submit is played in a game")
    assert "/setup" in text


def test_the_command_list_for_players_leaves_out_admin_commands() -> None:
    players = replies.command_list(admin=False)
    everyone = replies.command_list(admin=True)
    assert len(everyone) == len(COMMANDS)
    assert len(players) == sum(not spec.admin for spec in COMMANDS.values())
    assert not any(line.startswith(("/ban", "/kill_room", "/resolve")) for line in players)
    assert "/advanced_setup [options]: create a game with options; you become its admin" in (
        everyone
    )
    assert "/resolution_time <HOUR>: the local hour at which turns resolve" in everyone


RECEIPT, NONCE = "ab" * 32, "cd" * 32


def test_submitted_marks_each_order_and_gives_the_reason_of_invalid_ones() -> None:
    text = replies.submitted(OrdersAccepted(3, [SUPPORT, NOWHERE, HOLD], 17, RECEIPT, NONCE))
    assert text.split("\n") == [
        "Orders for turn 3:",
        f"Receipt: {RECEIPT}",
        "\u2713 BL S CR to SL",
        "\u2717 XX H: no such territory: XX",
        "\u2713 TR H",
        "2 of 3 orders valid. Invalid orders are ignored: those armies keep their last "
        "valid order.",
        replies.RECEIPT_NOTE,
    ]


def test_submitted_all_valid() -> None:
    text = replies.submitted(OrdersAccepted(1, [HOLD], 5, RECEIPT, NONCE))
    assert text.split("\n") == [
        "Orders for turn 1:",
        f"Receipt: {RECEIPT}",
        "\u2713 TR H",
        "1 of 1 order valid.",
        replies.RECEIPT_NOTE,
    ]


def test_submitted_nothing() -> None:
    text = replies.submitted(OrdersAccepted(1, [], 5, RECEIPT, NONCE))
    assert "(no orders in that text)" in text
    assert "0 of 0 orders valid." in text


def test_submitted_keeps_the_receipt_when_cut_to_discords_limit_and_never_shows_the_nonce() -> None:
    many = [RecordedOrder(f"X{n} H", None, None, valid=False, reason="x" * 90) for n in range(40)]
    text = fit(replies.submitted(OrdersAccepted(2, many, 5, RECEIPT, NONCE)).split("\n"))
    assert len(text) <= DISCORD_LIMIT
    assert text.split("\n")[:2] == ["Orders for turn 2:", f"Receipt: {RECEIPT}"]
    assert text.endswith(" more lines")
    assert NONCE not in text


def test_my_orders_lists_what_stands_the_idle_armies_the_invalid_and_last_turn() -> None:
    mine = MyOrders(
        player="p1",
        turn=4,
        submitted=[[SUPPORT, NOWHERE], [HOLD]],
        current=[SUPPORT, HOLD],
        last_turn=[
            OrderReport("p1", "BL to CR", "BL", "move", "succeeded", target="CR"),
            OrderReport("p1", "TR S BL to CR", "TR", "support", "cut", target="CR"),
        ],
    )
    text = replies.my_orders(mine, ["BL", "RG", "TR"], "Ann")
    assert text.split("\n") == [
        "Ann's orders for turn 4:",
        "\u2713 BL S CR to SL",
        "\u2713 TR H",
        "Armies with no order (they hold): RG",
        "Invalid orders sent this turn (ignored):",
        "\u2717 XX H: no such territory: XX",
        "Last turn (turn 3):",
        "- BL to CR: succeeded",
        "- TR S BL to CR: cut",
    ]


def test_my_orders_with_nothing_sent() -> None:
    text = replies.my_orders(MyOrders("p1", 2, [], [], []), ["BL"], "Ann")
    assert text.split("\n") == [
        "Ann's orders for turn 2:",
        "(none yet)",
        "Armies with no order (they hold): BL",
        "No valid orders last turn (turn 1).",
    ]


def test_my_orders_on_turn_one_has_no_last_turn() -> None:
    text = replies.my_orders(MyOrders("p1", 1, [], [], []), [], "Ann")
    assert text == "Ann's orders for turn 1:\n(none yet)"


def test_my_orders_before_the_start() -> None:
    assert "not started" in replies.my_orders(MyOrders("p1", 0, [], [], []), [], "Ann")


def test_a_vote_in_normal_mode_shows_the_tally() -> None:
    vote = VoteView(3, ("FEAST", "STORM"), "STORM", {"FEAST": 2, "STORM": 1})
    assert replies.voted("Ann", "FEAST", vote) == (
        "Ann votes FEAST.\nTally: FEAST 2, STORM 1 (a tie goes to STORM)."
    )


def test_a_secret_vote_shows_no_tally() -> None:
    vote = VoteView(3, ("FEAST", "STORM"), "STORM", None)
    text = replies.voted("Ann", "FEAST", vote)
    assert text == "Ann's secret vote for FEAST is in; the tally is revealed at resolution."


def test_effect_line_describes_known_effects_only() -> None:
    assert replies.effect_line("LAND GRAB") == "LAND GRAB: the expansion award is 2 VP instead of 1"
    assert replies.effect_line("BANANAS") == "BANANAS"


def test_join_forces_asks_the_other_side_to_answer() -> None:
    text = replies.join_forces("Fictitious Fiona", "Bob", joint=None, turn=5)
    assert text == (
        "Fictitious Fiona asks to join forces with Bob. It happens when turn 5 resolves if "
        "Bob also sends /join_forces @FictitiousFiona this turn."
    )


def test_join_forces_when_both_asked() -> None:
    text = replies.join_forces("Cy", "Bob", joint="Bob/Cy", turn=5)
    assert text == "Cy and Bob both asked: they join forces as Bob/Cy when turn 5 resolves."


def test_look_notifications_and_names() -> None:
    assert replies.look("Ann", "colour", 16, changed=True) == "Ann's colour is now 16."
    assert replies.look("Ann", "pattern", 3, changed=False) == "Ann's pattern is already 3."
    assert replies.notifications("Ann", False, changed=True).startswith(
        "Notifications now off for Ann"
    )
    assert replies.notifications("Ann", True, changed=False).startswith(
        "Notifications are already on for Ann"
    )
    assert replies.renamed("Ann", "Annie") == "Ann is now called Annie on the map."
    assert replies.renamed("Ann", "Ann") == "Your name is already Ann."


def test_broadcast_resign_and_join() -> None:
    assert replies.broadcast("Red lies") == "Anonymous broadcast:\nRed lies"
    assert "/join again" in replies.resigned("Ann", left_join_phase=True)
    assert "for good" in replies.resigned("Ann", left_join_phase=False)
    assert replies.joined("Ann", "p3", "Friday", 3) == (
        "Ann joined Friday as p3. 3 players in so far; an admin starts the game with /start."
    )
