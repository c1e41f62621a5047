"""The start and end of a Skor turn (docs/skor.md, "Start of a turn", "End of turn"):
production, received Resource, upkeep, feeding, the Theocracy's conversions, the win check
and the round limit."""

from rules.skor.board import NEIGHBOURS
from rules.skor.game import Game, piece_order
from rules.skor.state import Ending

GRACE_TURNS = 4


def produced(game: Game, player: str) -> int:
    """Resource from Resource hexes and Farms, for the player starting its turn."""
    total = 0
    rp = game.level(player, "resource")
    for hex_, structure in game.structures.items():
        if structure.kind not in ("resource", "farm"):
            continue
        here = game.at(hex_)
        civilians = sum(1 for p in here if p.player == player and p.kind == "civilian")
        if structure.kind == "farm" and civilians == 1 and rp >= 1:
            total += 3
        elif structure.kind == "farm" and not here and structure.by == player and rp >= 2:
            total += 2
        else:
            total += 2 * civilians
    return total


def upkeep(game: Game, player: str) -> int:
    """1 per piece, a pair costing 1 for a Dictatorship, or for two civilians on a Resource
    hex or Farm at Resource Production 3; nothing in a grace turn."""
    if game.turn.grace:
        return 0
    total = 0
    hexes = {p.at for p in game.pieces if p.player == player}
    for hex_ in hexes:
        mine = game.mine(hex_, player)
        cheap_pair = game.cultures[player] == "dictatorship" or (
            all(p.kind == "civilian" for p in mine)
            and game.kind_at(hex_) in ("resource", "farm")
            and game.level(player, "resource") == 3
        )
        if len(mine) == 2 and cheap_pair:
            total += 1
        else:
            total += len(mine)
    return total


def check_win(game: Game) -> None:
    """A military piece (a civilian at Diplomacy 3) on the opponent's City wins at once."""
    if game.ending is not None:
        return
    mover = game.turn.player
    for player in (mover, game.opponent(mover)):
        city = game.city_of(game.opponent(player))
        for piece in game.mine(city, player):
            if piece.kind == "military" or game.level(player, "diplomacy") == 3:
                game.ending = Ending(player, "city")
                game.emit("won", player=player, by="city", at=city)
                return


def _convert(game: Game, player: str) -> None:
    """The Theocracy's d6 for each opponent piece next to one of its pieces."""
    near = {n for p in game.pieces if p.player == player for n in NEIGHBOURS[p.at]}
    eligible = sorted(
        (p for p in game.pieces if p.player != player and p.at in near), key=piece_order
    )
    converted = []
    for piece in eligible:
        roll = game.roll(6, "conversion")
        game.emit("conversion_roll", at=piece.at, kind=piece.kind, roll=roll, converted=roll == 6)
        if roll == 6:
            converted.append(piece)
    # Roll first, then change: the canonical order of the eligible pieces stays put.
    changed = [game.replace(piece, player=player, moved=True) for piece in converted]
    for piece in changed:
        if game.enemy_at(piece.at, player):
            game.take(piece)
            game.emit(
                "removed",
                player=player,
                at=piece.at,
                kind=piece.kind,
                why="converted into a mixed hex",
            )


def start_turn(game: Game, number: int) -> None:
    turn = game.turn
    player = game.players[(number - 1) % 2]
    turn.number, turn.player, turn.phase = number, player, "move"
    turn.grace = number <= GRACE_TURNS
    turn.spawns, turn.alien_spawn, turn.dice = 0, False, 0
    made, received = produced(game, player), game.incoming[player]
    game.incoming[player] = 0
    turn.production = made + received
    turn.upkeep = upkeep(game, player)
    turn.fed = turn.production >= turn.upkeep
    turn.available = turn.production - turn.upkeep if turn.fed else 0
    game.emit(
        "turn_started",
        turn=number,
        player=player,
        grace=turn.grace,
        produced=made,
        received=received,
        upkeep=turn.upkeep,
        fed=turn.fed,
        available=turn.available,
    )
    if game.cultures[player] == "theocracy":
        _convert(game, player)
    check_win(game)


def end_turn(game: Game) -> None:
    """The turn passes (after the Dictatorship's purge, if any): the next one starts, or the
    game is drawn at the round limit."""
    turn = game.turn
    game.emit("turn_ended", turn=turn.number, player=turn.player)
    game.pieces = [p if not p.moved else type(p)(p.at, p.player, p.kind) for p in game.pieces]
    if turn.number >= 2 * game.options.round_limit:
        game.ending = Ending(None, "round_limit")
        game.turn_over = True
        game.emit("drawn", by="round_limit")
        return
    start_turn(game, turn.number + 1)


def refeed(game: Game) -> None:
    """After a removal a starving player is fed as soon as the upkeep fits."""
    turn = game.turn
    if turn.fed:
        return
    cost = upkeep(game, turn.player)
    if cost <= turn.production:
        turn.fed, turn.upkeep, turn.available = True, cost, turn.production - cost
        game.emit("fed", player=turn.player, upkeep=cost, available=turn.available)
