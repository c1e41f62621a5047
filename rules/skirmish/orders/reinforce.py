import msgspec

from rules.skirmish.effects import Effect
from rules.skirmish.position import REF, Situation
from rules.skirmish.verdicts import Result, Shown, Verdicts


class Reinforce(msgspec.Struct, frozen=True, tag="reinforce", gc=False):
    """A new army moves from the reinforcements (off the board) into one of the player's
    barracks. It is a move like any other, except that nothing can attack it."""

    target: str

    @property
    def unit(self) -> str:
        return REF

    def problem(self, player: str, situation: Situation) -> str | None:
        barracks, armies = situation.barracks_of(player), situation.armies_of(player)
        if barracks <= armies and situation.effect is not Effect.MOBILIZE:
            return f"no reinforcement allowed: {barracks} barracks and {armies} armies"
        if not situation.is_barracks(self.target) or (
            situation.position.control.get(self.target) != player
        ):
            return f"reinforcement target not a barracks you control: {self.target}"
        return situation.truce_problem(player, self.target)

    def result(self, verdicts: Verdicts) -> Result:
        return "succeeded" if verdicts.reinforced(self.target) else "failed"

    def shown(self) -> Shown:
        return (REF, "reinforce", self.target, None)
