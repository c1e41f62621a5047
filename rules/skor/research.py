"""The tech tree (docs/skor.md, "Research"): tiers bought in order for 4, 6 and 8, City's
tier n gating tier n of the other branches; the alternative culture's d6 of providence."""

from rules.skor.actions import Research
from rules.skor.game import Game, Refused
from rules.skor.state import BRANCHES

TIER_COSTS = (4, 6, 8)


def research(game: Game, player: str, action: Research) -> None:
    branch = action.branch
    game.check_phase("tech")
    if branch not in BRANCHES:
        raise Refused(f"no such branch: {branch}")
    tier = game.level(player, branch) + 1
    if tier > len(TIER_COSTS):
        raise Refused(f"{branch} is complete")
    if branch != "city" and game.level(player, "city") < tier:
        raise Refused(f"{branch} tier {tier} needs City tier {tier}")
    cost = TIER_COSTS[tier - 1]
    game.check_pay(cost)
    game.enter_phase("tech")
    if game.cultures[player] == "alternative":
        roll = game.roll(6, "providence")
        game.emit("providence_roll", roll=roll)
        cost = 0 if roll == 6 else cost
    game.turn.available -= cost
    game.tech[player][branch] = tier
    game.emit("researched", player=player, branch=branch, tier=tier, cost=cost)
