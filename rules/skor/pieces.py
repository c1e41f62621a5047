"""Spawning and removing pieces (docs/skor.md, "Pieces"): up to 2 civilians a turn at the
City (an Alien one of them on an occupied structure); removal at will in one's own turn."""

from rules.skor.actions import Remove, Spawn
from rules.skor.game import Game, Refused
from rules.skor.movement import check_hexes
from rules.skor.turns import end_turn, refeed

SPAWNS_PER_TURN = 2


def spawn(game: Game, player: str, action: Spawn) -> None:
    turn = game.turn
    if turn.phase == "purge":
        game.check_phase("move")
    city = game.city_of(player)
    at = city if action.at is None else action.at
    check_hexes(at)
    if turn.spawns >= SPAWNS_PER_TURN:
        raise Refused("a City spawns at most 2 civilians per turn")
    if game.enemy_at(at, player):
        raise Refused(f"an opponent's piece stands on {at}")
    if at == city:
        if len(game.mine(at, player)) >= 2:
            raise Refused("your City already holds 2 pieces")
    else:
        if game.cultures[player] != "alien":
            raise Refused("civilians spawn on your City")
        if turn.alien_spawn:
            raise Refused("only one civilian per turn spawns away from the City")
        if at not in game.structures:
            raise Refused(f"no structure at {at}")
        if len(game.mine(at, player)) != 1:
            raise Refused(f"{at} must hold exactly one of your pieces")
        turn.alien_spawn = True
    turn.spawns += 1
    game.put(at, player, "civilian", True)
    game.emit("spawned", player=player, at=at)


def remove(game: Game, player: str, action: Remove) -> None:
    at = action.at
    check_hexes(at)
    kind = action.kind
    if kind not in (None, "civilian", "military"):
        raise Refused(f"no such kind: {kind}")
    mine = game.mine(at, player, kind)
    if not mine:
        named = f"{kind} piece" if kind else "piece"
        raise Refused(f"no {named} of yours at {at}")
    if len({p.kind for p in mine}) == 2:
        raise Refused(f"say which piece at {at}: civilian or military")
    # Of two pieces of one kind the moved one goes first.
    piece = max(mine, key=lambda p: p.moved)
    game.take(piece)
    game.emit("removed", player=player, at=at, kind=piece.kind, why="by its player")
    if game.turn.phase == "purge":
        end_turn(game)
    else:
        refeed(game)
