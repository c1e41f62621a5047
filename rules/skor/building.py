"""Building, Debris Fields and promotion (docs/skor.md, "Building"), all in the build phase
and, for structures, never in a grace turn."""

from rules.skor.actions import Build, Debris, Promote
from rules.skor.board import NEIGHBOURS
from rules.skor.game import Game, Refused
from rules.skor.movement import check_hexes
from rules.skor.state import Structure

COSTS = {"farm": 2, "base": 3, "fortification": 2, "debris": 2, "turret": 4, "road": 2}
DEBRIS_CONVERSION = 1
PROMOTION = 1


def _no_grace(game: Game) -> None:
    if game.turn.grace:
        raise Refused("no structures in the first two turns")


def build(game: Game, player: str, action: Build) -> None:
    kind, at = action.structure, action.at
    game.check_phase("build")
    check_hexes(at)
    if kind not in COSTS:
        raise Refused(f"no such structure: {kind}")
    _no_grace(game)
    if not game.mine(at, player, "civilian"):
        raise Refused(f"no civilian of yours at {at}")
    if at in game.structures:
        raise Refused(f"{at} already has a structure")
    if kind == "farm" and at not in NEIGHBOURS[game.city_of(player)]:
        raise Refused("a Farm is built next to your City")
    cost = COSTS[kind]
    game.check_pay(cost)
    game.turn.available -= cost
    game.enter_phase("build")
    game.structures[at] = Structure(kind, player)  # type: ignore[arg-type]
    game.emit("built", player=player, structure=kind, at=at, cost=cost)


def debris(game: Game, player: str, action: Debris) -> None:
    at = action.at
    game.check_phase("build")
    check_hexes(at)
    _no_grace(game)
    if not game.mine(at, player):
        raise Refused(f"no piece of yours at {at}")
    was = game.kind_at(at)
    if was is None:
        raise Refused(f"no structure at {at} (build debris for 2 instead)")
    if was in ("city", "debris"):
        raise Refused(f"a {was} cannot be turned into a Debris Field")
    game.check_pay(DEBRIS_CONVERSION)
    game.turn.available -= DEBRIS_CONVERSION
    game.enter_phase("build")
    game.structures[at] = Structure("debris", player)
    game.emit("debris", player=player, at=at, was=was, cost=DEBRIS_CONVERSION)


def promote(game: Game, player: str, action: Promote) -> None:
    at = action.at
    game.check_phase("build")
    check_hexes(at)
    if game.kind_at(at) != "base":
        raise Refused(f"no Military Base at {at}")
    civilians = game.mine(at, player, "civilian")
    if not civilians:
        raise Refused(f"no civilian piece of yours at {at}")
    game.check_pay(PROMOTION)
    game.turn.available -= PROMOTION
    game.enter_phase("build")
    game.take(max(civilians, key=lambda p: p.moved))
    game.put(at, player, "military", True)
    game.emit("promoted", player=player, at=at, cost=PROMOTION)
