import msgspec

from rules.skirmish.position import REF, Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Support(msgspec.Struct, frozen=True, tag="support", gc=False):
    """The army lends its strength to the army in `supported` (or to a reinforcement when
    `supported` is REF): to its move into `target`, or to its hold when `target` is None."""

    unit: str
    supported: str
    target: str | None = None

    @property
    def destination(self) -> str:
        """The territory the support goes into."""
        return self.supported if self.target is None else self.target

    def problem(self, player: str, situation: Situation) -> str | None:
        supported, target = self.supported, self.target  # self.destination, inlined
        # (`what` given by position: a call with keywords is slower in Python 3.11.)
        problem = situation.army_problem(player, self.unit) or situation.link_problem(
            self.unit,
            supported if target is None else target,
            "supporter not adjacent to the destination",
        )
        if problem is not None or target is None or supported == REF:
            return problem
        if supported == self.unit:
            return f"an army cannot support its own move: {self.unit}"
        # The supported move must be one that could be ordered at all (DATC 6.A.5: not
        # even a "move" into its own territory).
        return situation.link_problem(supported, target)

    def result(self, verdicts: Verdicts) -> Result:
        return verdicts.support_result(self.unit)

    def shown(self) -> Shown:
        supported, target = self.supported, self.target  # self.destination, inlined
        return (self.unit, "support", supported if target is None else target, supported)
