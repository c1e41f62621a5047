"""Orders checked against a position, and the one order each army will carry out.

The rulebook: "the most recent valid order for a given army will be used". So an invalid
order never displaces a valid one; among valid orders for the same army (or a player's
reinforcements), the newest wins and the earlier ones are `replaced`.
"""

from collections.abc import Mapping, Sequence

import msgspec

from rules.board import Board
from rules.orders import Order, Reinforce
from rules.parse import parse_orders
from rules.position import Situation


class CheckedOrder(msgspec.Struct, frozen=True):
    """One order as submitted: what it says, and why it is invalid if it is."""

    player: str
    text: str
    order: Order | None
    reason: str | None = None


class OrderBook(msgspec.Struct, frozen=True):
    """Every submitted order in submission order, and which of them will be carried out."""

    checked: tuple[CheckedOrder, ...]
    # Indices into `checked`: the order each army carries out, by territory...
    used_by_army: dict[str, int]
    # ...and the reinforcement each player carries out.
    used_reinforcement: dict[str, int]

    def army_orders(self) -> dict[str, Order]:
        """The order each army carries out, by its territory (armies without one hold)."""
        return {unit: _order(self.checked[i]) for unit, i in self.used_by_army.items()}

    def reinforcements(self) -> dict[str, Reinforce]:
        """The reinforcement each player carries out, by player."""
        result = {}
        for player, i in self.used_reinforcement.items():
            order = _order(self.checked[i])
            assert isinstance(order, Reinforce)
            result[player] = order
        return result

    def used_indices(self) -> set[int]:
        """The indices of the orders that will be carried out: `is_used` for them all."""
        used = set(self.used_by_army.values())
        used.update(self.used_reinforcement.values())
        return used

    def is_used(self, index: int) -> bool:
        order = self.checked[index].order
        if isinstance(order, Reinforce):
            return self.used_reinforcement.get(self.checked[index].player) == index
        return order is not None and self.used_by_army.get(order.unit) == index


def _order(checked: CheckedOrder) -> Order:
    assert checked.order is not None
    return checked.order


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
    checked: list[CheckedOrder] = []
    used_by_army: dict[str, int] = {}
    used_reinforcement: dict[str, int] = {}
    for player, submissions in orders.items():
        for submission in submissions:
            for parsed in parse_orders(submission, board):
                order = parsed.order
                reason = parsed.error
                if order is not None and player in resigned:
                    reason = "a resigned player gives no orders"
                elif order is not None:
                    reason = order.problem(player, situation)
                index = len(checked)
                checked.append(CheckedOrder(player, parsed.text, order, reason))
                if reason is not None or order is None:
                    continue
                if isinstance(order, Reinforce):
                    used_reinforcement[player] = index
                else:
                    used_by_army[order.unit] = index
    return OrderBook(tuple(checked), used_by_army, used_reinforcement)
