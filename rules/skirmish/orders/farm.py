import msgspec

from rules.skirmish.position import Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Farm(msgspec.Struct, frozen=True, tag="farm", gc=False):
    """The army works its farm for VP, unless another player's move disturbs it."""

    unit: str

    def problem(self, player: str, situation: Situation) -> str | None:
        problem = situation.army_problem(player, self.unit)
        if problem is None and self.unit not in situation.position.farms:
            return f"farm outside a farm: {self.unit}"
        return problem

    def result(self, verdicts: Verdicts) -> Result:
        return "cut" if verdicts.disturbed(self.unit) else "succeeded"

    def shown(self) -> Shown:
        return (self.unit, "farm", None, None)
