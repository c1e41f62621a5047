"""Diplomacy tier 1 (docs/skor.md, "Branches"): Resource sent to the opponent for its next
turn, and a free military piece in one's own territory for every 3 sent."""

from rules.skor.actions import Send
from rules.skor.board import HEXES, territory_of
from rules.skor.game import Game, Refused

PER_PIECE = 3


def send(game: Game, player: str, action: Send) -> None:
    amount, place = action.amount, action.place
    game.check_phase("build")
    if game.level(player, "diplomacy") < 1:
        raise Refused("sending Resource needs Diplomacy tier 1")
    if amount < 1:
        raise Refused("send at least 1 Resource")
    pieces = amount // PER_PIECE
    if len(place) != pieces:
        raise Refused(f"{amount} Resource gives {pieces} military pieces: name that many hexes")
    home = "A" if player == game.players[0] else "B"
    placed: list[str] = []
    for at in place:
        if at not in HEXES:
            raise Refused(f"no such hex: {at}")
        if territory_of(at) != home:
            raise Refused(f"{at} is not in your territory")
        if game.kind_at(at) == "obstruction":
            raise Refused(f"{at} is an obstruction")
        if game.enemy_at(at, player):
            raise Refused(f"an opponent's piece stands on {at}")
        if len(game.mine(at, player)) + placed.count(at) >= 2:
            raise Refused(f"{at} would hold more than 2 of your pieces")
        placed.append(at)
    game.check_pay(amount)
    game.turn.available -= amount
    game.enter_phase("build")
    opponent = game.opponent(player)
    game.incoming[opponent] += amount
    for at in placed:
        game.put(at, player, "military", True)
    game.emit("sent", player=player, to=opponent, amount=amount, placed=placed)
