"""Moving and attacking (docs/skor.md, "Movement"): a piece goes along a path whose steps
into Road hexes are free, past its own pieces, never through obstructions or opponents."""

from collections import deque

from rules.skor.actions import Move
from rules.skor.board import HEXES, NEIGHBOURS
from rules.skor.combat import attack
from rules.skor.game import Game, Refused
from rules.skor.state import Piece

COVERT_COST = 2


def path_cost(game: Game, player: str, start: str, end: str) -> int | None:
    """The cheapest path's cost from `start` to `end` (0-1 breadth-first), or None."""
    best = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here != start and (game.kind_at(here) == "obstruction" or game.enemy_at(here, player)):
            continue  # `end` may be reached but nothing lies beyond a hex that blocks
        for near in NEIGHBOURS[here]:
            cost = best[here] + (0 if game.kind_at(near) == "road" else 1)
            if cost < best.get(near, cost + 1):
                best[near] = cost
                if cost == best[here]:
                    queue.appendleft(near)
                else:
                    queue.append(near)
    return best.get(end)


def allowance(game: Game, player: str, kind: str) -> int:
    if kind == "military":
        return 2 if game.level(player, "military") >= 2 else 1
    return 2 if game.cultures[player] == "feudal" else 1


def check_hexes(*names: str) -> None:
    for name in names:
        if name not in HEXES:
            raise Refused(f"no such hex: {name}")


def _piece(game: Game, player: str, action: Move, attacking: bool) -> Piece:
    """The unmoved piece the move takes (docs/skor.md, "Naming a piece")."""
    start = action.from_
    kind = "military" if attacking else action.kind
    unmoved = [p for p in game.mine(start, player, kind) if not p.moved]
    if not unmoved:
        named = f"{kind} piece" if kind else "piece"
        raise Refused(f"no unmoved {named} of yours at {start}")
    if len({p.kind for p in unmoved}) == 2:
        raise Refused(f"say which piece at {start}: civilian or military")
    return unmoved[0]


def move(game: Game, player: str, action: Move) -> None:
    start, end = action.from_, action.to
    game.check_phase("move")
    check_hexes(start, end)
    game.check_fed()
    if start == end:
        raise Refused("from and to are the same hex")
    if action.kind not in (None, "civilian", "military"):
        raise Refused(f"no such kind: {action.kind}")
    attacking = bool(game.enemy_at(end, player))
    if attacking and (
        action.kind == "civilian"
        or (
            action.kind is None
            and game.mine(start, player)
            and not game.mine(start, player, "military")
        )
    ):
        raise Refused("civilians cannot attack")
    piece = _piece(game, player, action, attacking)
    if not attacking:
        if action.covert:
            raise Refused("covert is for an attack")
        if game.kind_at(end) == "obstruction":
            raise Refused(f"{end} is an obstruction")
        if len(game.mine(end, player)) >= 2:
            raise Refused(f"{end} already holds 2 of your pieces")
    cost = path_cost(game, player, start, end)
    if cost is None or cost > allowance(game, player, piece.kind):
        raise Refused(f"{end} is out of reach of the {piece.kind} at {start}")
    if not attacking:
        game.enter_phase("move")
        game.take(piece)
        game.put(end, player, piece.kind, True)
        game.emit("moved", player=player, kind=piece.kind, **{"from": start}, to=end)
        return
    paid = 0
    if action.covert:
        if game.level(player, "espionage") < 2:
            raise Refused("covert attacks need Espionage tier 2")
        if len(game.mine(start, player)) != 1:
            raise Refused("a covert attacker must be alone on its hex")
        targets = game.at(end)
        if len(targets) != 2 or any(p.kind != "military" for p in targets):
            raise Refused("a covert attack is against two military pieces")
        game.check_pay(COVERT_COST)
        game.turn.available -= COVERT_COST
        paid = COVERT_COST
    game.enter_phase("move")
    attack(game, piece, "covert" if action.covert else "move", end, paid, [])
