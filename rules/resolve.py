"""The resolver: simultaneous moves with Diplomacy's army semantics (DATC), no retreats.

Every question reduces to one kind of decision: does move i arrive? Supports are given
unless cut, and a support that is not cut by an attack can only fail by its army being
dislodged, that is, by some move succeeding. Strengths (attack, hold, defend, prevent)
follow Kruijswijk's "The Math of Adjudication"; a dependency cycle is settled by
guessing and checking both answers, and a cycle with two consistent answers is a
circular movement, in which every army moves.
"""

from collections.abc import Mapping

from rules.effects import Effect
from rules.orders import Move, Order, Reinforce, Support
from rules.position import REF
from rules.strengths import Explanation
from rules.verdicts import Result

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


class Resolution:
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
        # Moves, REF ones included: index -> player, source (None for REF), target.
        self.player: list[str] = []
        self.source: list[str | None] = []
        self.target: list[str] = []
        self.move_from: dict[str, int] = {}
        self.ref_into: dict[str, int] = {}
        self.moves_into: dict[str, list[int]] = {}
        supports: list[tuple[str, Support]] = []
        # One pass over the orders: moves get their indices (what _add_move does, inlined),
        # supports wait until every move is known.
        player_of, source_of, target_of = self.player, self.source, self.target
        move_from, moves_into = self.move_from, self.moves_into
        for unit, order in army_orders.items():
            if isinstance(order, Move):
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
            elif isinstance(order, Support):
                supports.append((unit, order))
        for player, reinforcement in reinforcements.items():
            self.ref_into[reinforcement.target] = self._add_move(player, None, reinforcement.target)
        count = len(self.target)
        self.head_to_head = [-1] * count
        for i in range(count):
            source, occupant_move = self.source[i], self.move_from.get(self.target[i], -1)
            if source is not None and occupant_move >= 0 and self.target[occupant_move] == source:
                self.head_to_head[i] = occupant_move
        self._supports_of_move: list[list[str]] = [[] for _ in range(count)]
        self.hold_supports: dict[str, list[str]] = {}
        self.supports: dict[str, Support] = {}
        self.matched: set[str] = set()
        self.cut_by: dict[str, str] = {}
        self._threats: dict[str, list[int]] = {}
        for unit, support in supports:
            self._add_support(unit, support, army_orders)
        self._state = [_UNRESOLVED] * count
        self._result = [False] * count
        self._in_cycle = [False] * count
        self._cycle: list[int] = []
        for i in self._dependencies_first():
            self.resolve(i)
        # An army is dislodged when a move into its territory arrived and it did not leave.
        self.dislodged_territories = {
            target
            for i, target in enumerate(self.target)
            if self._result[i] and target in armies and not self.moved(target)
        }

    def _add_move(self, player: str, source: str | None, target: str) -> int:
        index = len(self.target)
        self.player.append(player)
        self.source.append(source)
        self.target.append(target)
        self.moves_into.setdefault(target, []).append(index)
        return index

    def _add_support(self, unit: str, support: Support, army_orders: Mapping[str, Order]) -> None:
        self.supports[unit] = support
        player = self.armies[unit]
        # Cut by any other player's move into the supporter, except one from the territory
        # the support goes into (that one cuts only by dislodging) and a reinforcement.
        threats = []
        for m in self.moves_into.get(unit, ()):
            if self.player[m] == player:
                continue
            source = self.source[m]
            if source is not None and source != support.destination:
                self.cut_by[unit] = source
                return
            threats.append(m)
        move = -1
        if support.supported == REF:
            move = self.ref_into.get(support.destination, -1)
        elif support.target is None:
            supported_order = army_orders.get(support.supported)
            if support.supported in self.armies and not isinstance(supported_order, Move):
                self.matched.add(unit)
                self.hold_supports.setdefault(support.supported, []).append(unit)
        else:
            move = self.move_from.get(support.supported, -1)
            if move >= 0 and self.target[move] != support.target:
                move = -1
        if move >= 0:
            self.matched.add(unit)
            self._supports_of_move[move].append(unit)
        if threats:
            self._threats[unit] = threats

    def _dependencies_first(self) -> list[int]:
        """Moves ordered so that a move comes after the move out of its target, which keeps
        the guess-and-check recursion shallow along long chains."""
        order: list[int] = []
        target, move_from = self.target, self.move_from
        seen = [False] * len(target)
        for start in range(len(target)):
            chain = []
            i = start
            while i >= 0 and not seen[i]:
                seen[i] = True
                chain.append(i)
                i = move_from.get(target[i], -1)
            order.extend(reversed(chain))
        return order

    # The decision, with guess-and-check for cycles.

    def resolve(self, i: int) -> bool:
        state = self._state[i]
        if state == _RESOLVED:
            return self._result[i]
        if state == _GUESSING:
            if not self._in_cycle[i]:
                self._in_cycle[i] = True
                self._cycle.append(i)
            return self._result[i]
        mark = len(self._cycle)
        self._result[i], self._state[i] = False, _GUESSING
        first = self._arrives(i)
        if len(self._cycle) == mark:
            # A cycle settled further down may already have decided this move.
            if self._state[i] != _RESOLVED:
                self._result[i], self._state[i] = first, _RESOLVED
            return self._result[i]
        if self._cycle[mark] != i:
            # Part of a cycle that a decision further up started; it will settle us.
            self._in_cycle[i] = True
            self._cycle.append(i)
            self._result[i] = first
            return first
        self._forget_guesses(mark)
        self._result[i], self._state[i] = True, _GUESSING
        second = self._arrives(i)
        if first == second:
            self._forget_guesses(mark)
            self._result[i], self._state[i] = first, _RESOLVED
            return first
        # Two consistent answers (guess False gave False, guess True gave True) is a
        # circular movement: everyone in it moves. No consistent answer cannot happen
        # with armies on land; should it, the moves in the cycle fail.
        circular = second
        for j in self._cycle[mark:]:
            self._result[j], self._state[j], self._in_cycle[j] = circular, _RESOLVED, False
        del self._cycle[mark:]
        return self.resolve(i)

    def _forget_guesses(self, mark: int) -> None:
        for j in self._cycle[mark:]:
            self._state[j], self._in_cycle[j] = _UNRESOLVED, False
        del self._cycle[mark:]

    def _arrives(self, i: int) -> bool:
        attack, defence = self._attack_and_defence(i)
        if attack <= defence:
            return False
        for j in self.moves_into[self.target[i]]:
            if j != i and self._prevent(j) >= attack:
                return False
        return True

    # Strengths.

    def _attack_and_defence(self, i: int) -> tuple[int, int]:
        target = self.target[i]
        occupant = self.armies.get(target)
        if occupant is None:
            return 1 + self._given(self._supports_of_move[i]), 0
        opponent = self.head_to_head[i]
        if opponent >= 0:
            defence = 1 + self._given(self._supports_of_move[opponent])
        else:
            leaving = self.move_from.get(target, -1)
            if leaving >= 0 and self.resolve(leaving):
                return 1 + self._given(self._supports_of_move[i]), 0
            defence = 1 if leaving >= 0 else self.hold_strength(target)
        if occupant == self.player[i]:
            return 0, defence
        return 1 + self._given(self._supports_of_move[i], occupant), defence

    def hold_strength(self, territory: str) -> int:
        """What an army standing in `territory` defends with (0 for an empty one)."""
        if territory not in self.armies:
            return 0
        leaving = self.move_from.get(territory, -1)
        if leaving >= 0:
            return 0 if self.resolve(leaving) else 1
        return 1 + self._entrench + self._given(self.hold_supports.get(territory, ()))

    def _prevent(self, j: int) -> int:
        opponent = self.head_to_head[j]
        if opponent >= 0 and self.resolve(opponent):
            return 0
        return 1 + self._given(self._supports_of_move[j])

    def _given(self, supporters: list[str] | tuple[()], excluded: str | None = None) -> int:
        count = 0
        for unit in supporters:
            if unit in self.cut_by or self.armies[unit] == excluded:
                continue
            threats = self._threats.get(unit)
            if threats is not None and any(self.resolve(m) for m in threats):
                continue
            count += 1
        return count

    # The verdicts, once everything is resolved.

    def dislodged(self, territory: str) -> bool:
        return territory in self.dislodged_territories

    def moved(self, source: str) -> bool:
        i = self.move_from.get(source, -1)
        return i >= 0 and self._result[i]

    def reinforced(self, target: str) -> bool:
        i = self.ref_into.get(target, -1)
        return i >= 0 and self._result[i]

    def support_result(self, supporter: str) -> Result:
        if supporter in self.cut_by or self.dislodged(supporter):
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

    def explain_move(self, i: int) -> Explanation:
        attack, defence = self._attack_and_defence(i)
        prevents = [
            (self._prevent(j), self.source[j] or REF)
            for j in self.moves_into[self.target[i]]
            if j != i
        ]
        return Explanation.for_move(
            source=self.source[i] or REF,
            target=self.target[i],
            attack=attack,
            defence=defence,
            head_to_head=self.head_to_head[i] >= 0,
            own_army=self.armies.get(self.target[i]) == self.player[i],
            prevents=prevents,
            arrived=self._result[i],
        )

    def explain_stand(self, territory: str) -> Explanation:
        attacks = [
            (self._attack_and_defence(m)[0], self.source[m] or REF)
            for m in self.moves_into.get(territory, ())
        ]
        return Explanation.for_stand(
            territory=territory,
            hold=self.hold_strength(territory),
            attacks=attacks,
            dislodged=self.dislodged(territory),
            cut_by=self.cut_by.get(territory),
        )
