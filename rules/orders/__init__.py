"""The order kinds, one module each: what an order is, when it is valid, how it turned out."""

from rules.orders.build import Build
from rules.orders.farm import Farm
from rules.orders.hold import Hold
from rules.orders.move import Move
from rules.orders.reinforce import Reinforce
from rules.orders.support import Support

Order = Hold | Move | Support | Build | Farm | Reinforce

__all__ = ["Build", "Farm", "Hold", "Move", "Order", "Reinforce", "Support"]
