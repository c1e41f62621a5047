"""A Nomadic City's move (docs/skor.md, "Cultures"): the fewest steps through hexes with no
piece and no structure but a Road, 1 Resource a step; its pieces travel with it."""

from collections import deque

from rules.skor.actions import City
from rules.skor.board import NEIGHBOURS
from rules.skor.game import Game, Refused
from rules.skor.movement import check_hexes


def _steps(game: Game, start: str, end: str) -> int | None:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for near in NEIGHBOURS[here]:
            free = not game.at(near) and game.kind_at(near) in (None, "road")
            if near not in seen and free:
                seen[near] = seen[here] + 1
                queue.append(near)
    return seen.get(end)


def move_city(game: Game, player: str, action: City) -> None:
    game.check_phase("move")
    if game.cultures[player] != "nomadic":
        raise Refused("only a nomadic culture moves its City")
    end = action.to
    check_hexes(end)
    city = game.city_of(player)
    if game.enemy_at(city, player):
        raise Refused("an opponent's piece stands on your City")
    if game.at(end) or end in game.structures:
        raise Refused(f"{end} is not empty")
    steps = _steps(game, city, end)
    if steps is None:
        raise Refused(f"no free way for the City to {end}")
    game.check_pay(steps)
    game.turn.available -= steps
    game.enter_phase("move")
    carried = game.mine(city, player)
    for piece in carried:
        game.replace(piece, at=end)
    game.structures[end] = game.structures.pop(city)
    game.emit(
        "city_moved",
        player=player,
        **{"from": city},
        to=end,
        cost=steps,
        carried=[p.kind for p in carried],
    )
