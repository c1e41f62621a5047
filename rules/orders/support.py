import msgspec

from rules.position import REF, Situation
from rules.verdicts import Result, Verdicts


class Support(msgspec.Struct, frozen=True, tag="support"):
    """The army lends its strength to the order of the army in `supported` (or to a
    reinforcement when `supported` is REF) that ends in `target`. Support to hold has
    `supported == target`."""

    unit: str
    supported: str
    target: str

    @property
    def supports_hold(self) -> bool:
        return self.supported == self.target

    def problem(self, player: str, situation: Situation) -> str | None:
        problem = situation.army_problem(player, self.unit) or situation.link_problem(
            self.unit, self.target, what="supporter not adjacent to the destination"
        )
        if problem is not None or self.supports_hold or self.supported == REF:
            return problem
        if self.supported == self.unit:
            return f"an army cannot support its own move: {self.unit}"
        # The supported move must be one that could be ordered at all.
        return situation.link_problem(self.supported, self.target)

    def result(self, verdicts: Verdicts) -> Result:
        return verdicts.support_result(self.unit)
