"""Firing a Turret (docs/skor.md, "Turret"): two unmoved military pieces on it attack a hex
X steps away for X Resource; a lost shot costs the crew nothing."""

from rules.skor.actions import Fire
from rules.skor.board import distance
from rules.skor.combat import attack
from rules.skor.game import Game, Refused
from rules.skor.movement import check_hexes


def fire(game: Game, player: str, action: Fire) -> None:
    turret, target = action.from_, action.at
    game.check_phase("move")
    check_hexes(turret, target)
    if game.kind_at(turret) != "turret":
        raise Refused(f"no turret at {turret}")
    crew = game.mine(turret, player)
    if len(crew) != 2 or any(p.kind != "military" for p in crew):
        raise Refused("a turret needs two of your military pieces on it")
    if any(p.moved for p in crew):
        raise Refused("the turret's crew has already moved this turn")
    if not game.enemy_at(target, player):
        raise Refused(f"no opponent piece at {target}")
    cost = distance(turret, target)
    game.check_pay(cost)
    game.turn.available -= cost
    game.enter_phase("move")
    # Firing is the crew's move.
    moved = [game.replace(p, moved=True) for p in crew]
    attack(game, moved[0], "turret", target, cost, moved)
