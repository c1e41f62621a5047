"""The order kinds, one module each: what an order is, when it is valid, how it turned out."""

from typing import NamedTuple

from rules.orders.build import Build
from rules.orders.farm import Farm
from rules.orders.hold import Hold
from rules.orders.move import Move
from rules.orders.reinforce import Reinforce
from rules.orders.support import Support

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
    kind: str
    target: str | None
    supported_from: str | None


def describe(order: Order) -> Description:
    kind = _KINDS[type(order)]
    if isinstance(order, Support):
        supported, target = order.supported, order.target  # order.destination, inlined
        return Description(order.unit, kind, supported if target is None else target, supported)
    if isinstance(order, (Move, Reinforce)):
        return Description(order.unit, kind, order.target, None)
    return Description(order.unit, kind, None, None)


def _kind(order_type: type[Order]) -> str:
    kind = order_type.__struct_config__.tag
    assert isinstance(kind, str)
    return kind


_KINDS: dict[type[Order], str] = {
    t: _kind(t) for t in (Hold, Move, Support, Build, Farm, Reinforce)
}
