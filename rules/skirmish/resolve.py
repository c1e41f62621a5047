"""The resolver: simultaneous moves with Diplomacy's army semantics (DATC), no retreats.

Every question reduces to one kind of decision: does move i arrive? Supports are given
unless cut, and a support that is not cut by an attack can only fail by its army being
dislodged, that is, by some move succeeding. Strengths (attack, hold, defend, prevent)
follow Kruijswijk's "The Math of Adjudication"; a dependency cycle is settled by
guessing and checking both answers, and a cycle with two consistent answers is a
circular movement, in which every army moves (rules.skirmish.decisions, which needs no recursion).
"""

from collections.abc import Mapping

from rules.skirmish.decisions import DECIDED, Decisions
from rules.skirmish.effects import Effect
from rules.skirmish.orders import Move, Order, Reinforce, Support
from rules.skirmish.position import REF
from rules.skirmish.verdicts import Result

# A support as strengths count it: the supporting army's player, and the moves that would
# cut it by arriving (a move from where the support goes, a reinforcement), if any.
_Supporter = tuple[str, list[int] | None]


class Resolution(Decisions):
    """The decisions of one turn. Answers the `Verdicts` questions of the order kinds."""

    def __init__(
        self,
        armies: Mapping[str, str],
        army_orders: Mapping[str, Order],
        reinforcements: Mapping[str, Reinforce],
        effect: Effect | None = None,
    ) -> None:
        self.armies = armies
        self._entrench = 1 if effect is Effect.ENTRENCH else 0
        # Moves, REF ones included: index -> player, source (None for REF), target, and the
        # move coming the other way (-1 for none).
        self.player: list[str] = []
        self.source: list[str | None] = []
        self.target: list[str] = []
        self.head_to_head: list[int] = []
        self.move_from: dict[str, int] = {}
        self.ref_into: dict[str, int] = {}
        self.moves_into: dict[str, list[int]] = {}
        supports: list[tuple[str, Support]] = []
        # One pass over the orders: moves get their indices, and the second move of a
        # head-to-head finds the first; supports wait until every move is known. Locals
        # rather than attributes in the loops, and `type(order) is` rather than isinstance,
        # which is slow for a Struct of another kind: this runs for every order of every turn
        # (and the order kinds have no subclasses).
        player_of, source_of, target_of = self.player, self.source, self.target
        head_to_head, move_from, moves_into = self.head_to_head, self.move_from, self.moves_into
        for unit, order in army_orders.items():
            if type(order) is Move:
                target = order.target
                index = move_from[unit] = len(target_of)
                player_of.append(armies[unit])
                source_of.append(unit)
                target_of.append(target)
                into = moves_into.get(target)
                if into is None:
                    moves_into[target] = [index]
                else:
                    into.append(index)
                back = move_from.get(target, -1)
                if back >= 0 and target_of[back] == unit:
                    head_to_head[back] = index
                else:
                    back = -1
                head_to_head.append(back)
            elif type(order) is Support:
                supports.append((unit, order))
        for player, reinforcement in reinforcements.items():
            target = reinforcement.target
            index = self.ref_into[target] = len(target_of)
            player_of.append(player)
            source_of.append(None)
            target_of.append(target)
            head_to_head.append(-1)
            moves_into.setdefault(target, []).append(index)
        count = len(target_of)
        # Per move, its supports; None until it has one, as most moves never do.
        self._supports_of_move: list[list[_Supporter] | None] = [None] * count
        self.hold_supports: dict[str, list[_Supporter]] = {}
        self.matched: set[str] = set()
        self.cut_by: dict[str, str] = {}
        for unit, support in supports:
            self._add_support(unit, support, army_orders)
        super().__init__(count)
        self._resolve_dependencies_first()
        # An army is dislodged when a move into its territory arrived and it did not leave.
        result = self._result
        self.dislodged_territories: set[str] = set()
        for i, target in enumerate(target_of):
            if result[i] and target in armies:
                leaving = move_from.get(target, -1)  # self.moved(target), inlined
                if leaving < 0 or not result[leaving]:
                    self.dislodged_territories.add(target)

    def _add_support(self, unit: str, support: Support, army_orders: Mapping[str, Order]) -> None:
        """Files the support with what it supports, or as cut. A cut support is filed
        nowhere else, so that counting supports never meets one."""
        player = self.armies[unit]
        supported, target = support.supported, support.target
        destination = supported if target is None else target  # support.destination, inlined
        # Cut by any other player's move into the supporter, except one from the territory
        # the support goes into (that one cuts only by dislodging) and a reinforcement.
        threats = []
        for m in self.moves_into.get(unit, ()):
            if self.player[m] == player:
                continue
            source = self.source[m]
            if source is not None and source != destination:
                self.cut_by[unit] = source
                return
            threats.append(m)
        supporter = (player, threats or None)
        move = -1
        if supported == REF:
            move = self.ref_into.get(destination, -1)
        elif target is None:
            if supported in self.armies and type(army_orders.get(supported)) is not Move:
                self.matched.add(unit)
                self.hold_supports.setdefault(supported, []).append(supporter)
        else:
            move = self.move_from.get(supported, -1)
            if move >= 0 and self.target[move] != target:
                move = -1
        if move >= 0:
            self.matched.add(unit)
            supporters = self._supports_of_move[move]
            if supporters is None:
                self._supports_of_move[move] = [supporter]
            else:
                supporters.append(supporter)

    def _resolve_dependencies_first(self) -> None:
        """Decides every move, each after the move out of its target, so that along a chain
        no decision waits for another."""
        target, move_from, moves_into, armies = (
            self.target,
            self.move_from,
            self.moves_into,
            self.armies,
        )
        seen = [False] * len(target)
        for start in range(len(target)):
            if seen[start]:
                continue
            into = target[start]
            if into not in armies and len(moves_into[into]) == 1:
                # Nothing stands in the way of a move into an empty territory that no
                # other move contests, whatever the supports: it arrives, and depends on
                # no other decision (so it is never part of a cycle).
                self._state[start], self._result[start] = DECIDED, True
                continue
            chain = []
            i = start
            while i >= 0 and not seen[i]:
                seen[i] = True
                chain.append(i)
                i = move_from.get(target[i], -1)
            for j in reversed(chain):
                self.decide(j)

    def _arrives(self, i: int) -> bool:
        attack, defence = self.attack_and_defence(i)
        if attack <= defence:
            return False
        for j in self.moves_into[self.target[i]]:
            if j != i and self.prevent(j) >= attack:
                return False
        return True

    # Strengths (rules.skirmish.strengths explains results by them). Most moves have no support:
    # `_given` is not even called for them.

    def attack_and_defence(self, i: int) -> tuple[int, int]:
        target = self.target[i]
        occupant = self.armies.get(target)
        supports = self._supports_of_move[i]
        if occupant is None:
            return (1 + self._given(supports) if supports else 1), 0
        opponent = self.head_to_head[i]
        if opponent >= 0:
            against = self._supports_of_move[opponent]
            defence = 1 + self._given(against) if against else 1
        else:
            leaving = self.move_from.get(target, -1)
            if leaving >= 0 and self.decision(leaving):
                return (1 + self._given(supports) if supports else 1), 0
            defence = 1 if leaving >= 0 else self.hold_strength(target)
        if occupant == self.player[i]:
            return 0, defence
        return (1 + self._given(supports, occupant) if supports else 1), defence

    def hold_strength(self, territory: str) -> int:
        """What an army standing in `territory` defends with (0 for an empty one)."""
        if territory not in self.armies:
            return 0
        leaving = self.move_from.get(territory, -1)
        if leaving >= 0:
            return 0 if self.decision(leaving) else 1
        supports = self.hold_supports.get(territory)
        return 1 + self._entrench + (self._given(supports) if supports else 0)

    def prevent(self, j: int) -> int:
        opponent = self.head_to_head[j]
        if opponent >= 0 and self.decision(opponent):
            return 0
        supports = self._supports_of_move[j]
        return 1 + self._given(supports) if supports else 1

    def _given(self, supporters: list[_Supporter], excluded: str | None = None) -> int:
        """How many of the supports count: not those of `excluded` (the player whose army
        is attacked), nor those whose army a threatening move reaches."""
        count = 0
        for player, threats in supporters:
            if player == excluded:
                continue
            if threats is not None:
                for m in threats:
                    if self.decision(m):
                        break
                else:
                    count += 1
                continue
            count += 1
        return count

    # The verdicts, once everything is resolved.

    def arrived(self, i: int) -> bool:
        return self._result[i]

    def dislodged(self, territory: str) -> bool:
        return territory in self.dislodged_territories

    def moved(self, source: str) -> bool:
        i = self.move_from.get(source, -1)
        return i >= 0 and self._result[i]

    def reinforced(self, target: str) -> bool:
        i = self.ref_into.get(target, -1)
        return i >= 0 and self._result[i]

    def support_result(self, supporter: str) -> Result:
        if supporter in self.cut_by or supporter in self.dislodged_territories:
            return "cut"
        return "succeeded" if supporter in self.matched else "failed"

    def disturbed(self, territory: str) -> bool:
        player = self.armies.get(territory)
        return any(
            self.source[m] is not None and self.player[m] != player
            for m in self.moves_into.get(territory, ())
        )

    def arrivals(self) -> list[tuple[str | None, str, str]]:
        """(source or None for REF, target, player) of every move that arrived."""
        return [
            (self.source[i], self.target[i], self.player[i])
            for i in range(len(self.target))
            if self._result[i]
        ]
