"""A position on the board, and the questions that validating an order asks of it."""

from collections import Counter

import msgspec

from rules.skirmish.board import Board
from rules.skirmish.effects import Effect

REF = "REF"


class Position(msgspec.Struct, frozen=True):
    """Where the armies stand, who controls what, and which barracks became farms.

    `control` lists every controlled territory, including those an army stands on.
    """

    armies: dict[str, str]
    control: dict[str, str]
    farms: frozenset[str] = frozenset()


class Situation:
    """A position on a board under an effect, as orders are validated against it."""

    __slots__ = (
        "_armies",
        "_armies_per_player",
        "_barracks_per_player",
        "_neighbours",
        "_storm",
        "_truce",
        "board",
        "effect",
        "position",
    )

    def __init__(self, board: Board, position: Position, effect: Effect | None) -> None:
        self.board = board
        self.position = position
        self.effect = effect
        # Every order of a turn asks these: looked up once.
        self._armies = position.armies
        self._neighbours = board.neighbours
        self._storm = effect is Effect.STORM
        self._truce = effect is Effect.TRUCE
        # Counted when first asked (only reinforcements ask).
        self._armies_per_player: Counter[str] | None = None
        self._barracks_per_player: Counter[str] | None = None

    def is_barracks(self, territory: str) -> bool:
        return territory in self.board.barracks and territory not in self.position.farms

    def armies_of(self, player: str) -> int:
        if self._armies_per_player is None:
            self._armies_per_player = Counter(self.position.armies.values())
        return self._armies_per_player[player]

    def barracks_of(self, player: str) -> int:
        if self._barracks_per_player is None:
            self._barracks_per_player = Counter(
                owner
                for territory, owner in self.position.control.items()
                if self.is_barracks(territory)
            )
        return self._barracks_per_player[player]

    def army_problem(self, player: str, territory: str) -> str | None:
        owner = self._armies.get(territory)
        if owner == player:  # the usual answer first
            return None
        if owner is None:
            return f"no army in {territory}"
        return f"not your army: {territory}"

    def link_problem(self, source: str, target: str, what: str = "not adjacent") -> str | None:
        """Why an order cannot use the link source-target, or None if it can."""
        if target not in self._neighbours[source]:
            return f"{what}: {source} to {target}"
        if self._storm and self.board.is_overseas(source, target):
            return f"STORM closes the overseas connection: {source} to {target}"
        return None

    def truce_problem(self, player: str, target: str) -> str | None:
        if not self._truce:
            return None
        occupant = self._armies.get(target)
        if occupant is not None and occupant != player:
            return f"TRUCE forbids moving into another player's army: {target}"
        return None
