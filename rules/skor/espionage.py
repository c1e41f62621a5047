"""Espionage tiers 1 and 3 (docs/skor.md, "Branches"): spying kills an opponent civilian
for two of one's own; sabotage turns an opponent's built structure into a Debris Field.
Tier 2, the covert attack, is a kind of move (rules/skor/movement.py)."""

from rules.skor.actions import Sabotage, Spy
from rules.skor.game import Game, Refused
from rules.skor.movement import check_hexes
from rules.skor.state import Structure

SPY_COST = 1
SABOTAGE_COST = 6
SABOTAGED = ("farm", "base", "fortification", "turret", "road")


def spy(game: Game, player: str, action: Spy) -> None:
    first, second, target = action.sacrifice1, action.sacrifice2, action.at
    game.check_phase("build")
    if game.level(player, "espionage") < 1:
        raise Refused("spying needs Espionage tier 1")
    check_hexes(first, second, target)
    needed = {first: 2} if first == second else {first: 1, second: 1}
    for at, count in needed.items():
        if len(game.mine(at, player, "civilian")) < count:
            raise Refused(f"not enough civilians of yours at {at}")
    victims = [p for p in game.enemy_at(target, player) if p.kind == "civilian"]
    if not victims:
        raise Refused(f"no opponent civilian at {target}")
    game.check_pay(SPY_COST)
    game.turn.available -= SPY_COST
    game.enter_phase("build")
    for at in (first, second):
        game.take(max(game.mine(at, player, "civilian"), key=lambda p: p.moved))
    game.take(victims[0])
    game.emit("spied", player=player, sacrificed=[first, second], killed=target, cost=SPY_COST)


def sabotage(game: Game, player: str, action: Sabotage) -> None:
    at = action.at
    game.check_phase("build")
    if game.level(player, "espionage") < 3:
        raise Refused("sabotage needs Espionage tier 3")
    check_hexes(at)
    structure = game.structures.get(at)
    if (
        structure is None
        or structure.by != game.opponent(player)
        or structure.kind not in SABOTAGED
    ):
        raise Refused(f"no structure built by your opponent at {at}")
    game.check_pay(SABOTAGE_COST)
    game.turn.available -= SABOTAGE_COST
    game.enter_phase("build")
    game.structures[at] = Structure("debris", player)
    game.emit("sabotaged", player=player, at=at, was=structure.kind, cost=SABOTAGE_COST)
