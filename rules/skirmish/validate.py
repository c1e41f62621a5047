"""Orders checked against a position, and the one order each army will carry out.

The rulebook: "the most recent valid order for a given army will be used". So an invalid
order never displaces a valid one; among valid orders for the same army (or a player's
reinforcements), the newest wins and the earlier ones are `replaced`.
"""

from collections.abc import Mapping, Sequence

import msgspec

from rules.skirmish.board import Board
from rules.skirmish.orders import Order, Reinforce
from rules.skirmish.parse import clipped, read_order, split_orders
from rules.skirmish.position import Situation


class CheckedOrder(msgspec.Struct, frozen=True, gc=False):
    """One order as submitted: what it says, and why it is invalid if it is. (`gc=False`:
    it holds strings and an order, which can form no reference cycle.)"""

    player: str
    text: str
    order: Order | None
    reason: str | None = None


class OrderBook(msgspec.Struct, frozen=True):
    """Every submitted order in submission order, and which of them will be carried out."""

    checked: tuple[CheckedOrder, ...]
    # The order each army carries out, by its territory (armies without one hold)...
    army_orders: dict[str, Order]
    # ...and the reinforcement each player carries out, by player. Each parsed order is an
    # object of its own, so these are the very objects in `checked`: whether an order is
    # the one carried out is a matter of identity.
    reinforcements: dict[str, Reinforce]
    # Whether a newer valid order replaced any other; when not, as in most turns, every
    # valid order is carried out.
    any_replaced: bool = True


def check_submission(
    player: str, text: str, board: Board, situation: Situation
) -> tuple[CheckedOrder, ...]:
    """One submission (one or more orders), parsed and validated: the instant check."""
    return check_orders({player: [text]}, board, situation).checked


def check_orders(
    orders: Mapping[str, Sequence[str]],
    board: Board,
    situation: Situation,
    resigned: frozenset[str] = frozenset(),
) -> OrderBook:
    """Every order parsed and validated in one pass, which also settles the order each army
    (and each player's reinforcement) carries out: the last valid one."""
    checked: list[CheckedOrder] = []
    army_orders: dict[str, Order] = {}
    reinforcements: dict[str, Reinforce] = {}
    valid = 0
    for player, submissions in orders.items():
        barred = "a resigned player gives no orders" if player in resigned else None
        # Nearly every submission is one order: when none of the player's has a separator,
        # split_orders' answer for each, without the calls.
        everything = "".join(submissions)
        if "," in everything or "\n" in everything or "\r" in everything:
            texts = [text for submission in submissions for text in split_orders(submission)]
        else:
            texts = [text for text in map(str.strip, submissions) if text]
        for text in texts:
            order = read_order(text, board)
            if isinstance(order, str):
                checked.append(CheckedOrder(player, clipped(text), None, order))
                continue
            reason = barred or order.problem(player, situation)
            checked.append(CheckedOrder(player, text, order, reason))
            if reason is not None:
                continue
            valid += 1
            if type(order) is Reinforce:  # (isinstance is slow for other Structs)
                reinforcements[player] = order
            else:
                army_orders[order.unit] = order
    carried_out = len(army_orders) + len(reinforcements)
    return OrderBook(tuple(checked), army_orders, reinforcements, valid > carried_out)
