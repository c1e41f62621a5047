import msgspec

from rules.skirmish.position import Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Move(msgspec.Struct, frozen=True, tag="move", gc=False):
    """The army moves to an adjacent territory; into an occupied one, it attacks."""

    unit: str
    target: str

    def problem(self, player: str, situation: Situation) -> str | None:
        unit, target = self.unit, self.target
        return (
            situation.army_problem(player, unit)
            or situation.link_problem(unit, target)
            or situation.truce_problem(player, target)
        )

    def result(self, verdicts: Verdicts) -> Result:
        return "succeeded" if verdicts.moved(self.unit) else "failed"

    def shown(self) -> Shown:
        return (self.unit, "move", self.target, None)
