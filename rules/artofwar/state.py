"""The position between two turns: who owns what, how many units stand where, who plays on."""

from typing import Literal

import msgspec

from rules.artofwar.diplomacy import Stance

Status = Literal["active", "eliminated"]


class Player(msgspec.Struct, frozen=True):
    status: Status = "active"
    stance: Stance = Stance()


class State(msgspec.Struct, frozen=True):
    """Everything a turn starts from, besides the map and the options. A territory missing
    from `owners` is independent; one missing from `units` has none."""

    turn: int
    players: dict[str, Player]
    owners: dict[str, str]
    units: dict[str, int]
    # Free placement: units each player places with its next orders (§3.5).
    pending_builds: dict[str, int] = {}

    def active(self) -> list[str]:
        """The players not eliminated, by name."""
        return sorted(p for p, player in self.players.items() if player.status == "active")
