import msgspec

from rules.skirmish.position import Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Hold(msgspec.Struct, frozen=True, tag="hold", gc=False):
    """The army stays and defends. Every army without a valid order holds."""

    unit: str

    def problem(self, player: str, situation: Situation) -> str | None:
        return situation.army_problem(player, self.unit)

    def result(self, verdicts: Verdicts) -> Result:
        return "failed" if verdicts.dislodged(self.unit) else "succeeded"

    def shown(self) -> Shown:
        return (self.unit, "hold", None, None)
