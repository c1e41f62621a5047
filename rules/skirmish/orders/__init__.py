"""The order kinds, one module each: what an order is, when it is valid, how it turned out.

Orders are frozen Structs of strings, made by the dozen every turn: `gc=False` spares the
garbage collector from tracking them, as nothing they hold can form a reference cycle.
"""

from typing import NamedTuple

from rules.skirmish.orders.build import Build
from rules.skirmish.orders.farm import Farm
from rules.skirmish.orders.hold import Hold
from rules.skirmish.orders.move import Move
from rules.skirmish.orders.reinforce import Reinforce
from rules.skirmish.orders.support import Support
from rules.skirmish.verdicts import OrderKind

Order = Hold | Move | Support | Build | Farm | Reinforce

__all__ = [
    "Build",
    "Description",
    "Farm",
    "Hold",
    "Move",
    "Order",
    "Reinforce",
    "Support",
    "describe",
]


class Description(NamedTuple):
    """An order as the contract shows it: its army (or REF), kind, and where it points."""

    unit: str
    kind: OrderKind
    target: str | None
    supported_from: str | None


def describe(order: Order) -> Description:
    return Description(*order.shown())
