import msgspec

from rules.position import Situation
from rules.verdicts import Result, Verdicts


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    """The army stays and defends. Every army without a valid order holds."""

    unit: str

    def problem(self, player: str, situation: Situation) -> str | None:
        return situation.army_problem(player, self.unit)

    def result(self, verdicts: Verdicts) -> Result:
        return "failed" if verdicts.dislodged(self.unit) else "succeeded"
