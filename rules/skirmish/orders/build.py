import msgspec

from rules.skirmish.position import Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Build(msgspec.Struct, frozen=True, tag="build", gc=False):
    """The army turns its barracks into a farm, unless another player's move disturbs it."""

    unit: str

    def problem(self, player: str, situation: Situation) -> str | None:
        problem = situation.army_problem(player, self.unit)
        if problem is None and not situation.is_barracks(self.unit):
            return f"build outside a barracks: {self.unit}"
        return problem

    def result(self, verdicts: Verdicts) -> Result:
        return "cut" if verdicts.disturbed(self.unit) else "succeeded"

    def shown(self) -> Shown:
        return (self.unit, "build", None, None)
