"""What an Art of War bot does in a turn: pure functions of the game's public view (the
`play` of `GET /v1/games/{game}`, rules/artofwar/definition.py's `view`), the bot's seat and
an explicit random stream, to the moves it makes: a change of stance (an act, public at
once) if it wants one, then its orders (the sealed move). Nothing here does I/O.

Legality is the engine's own: every order is kept only when `rules.artofwar.validate`'s
`check_orders`, the check the turn's resolution makes, carries it; a stance change only when
`change_stance` allows it under the game's diplomacy.
"""

from collections.abc import Callable
from typing import Any

import msgspec

from rules.artofwar.board import Board
from rules.artofwar.diplomacy import Stance, StanceRefused, change_stance
from rules.artofwar.play import Play, play_board
from rules.artofwar.state import State
from rules.artofwar.validate import check_orders
from rules.kit.prng import SeededRandom

# From this turn on every bot offers a draw (any number of signers): a war of bots that no
# conquest ended by then ends by treaty the turn after.
WEARY_TURN = 30
# How much stronger than a neighbour's garrison a greedy attack must be.
ODDS = 2

# The view, the seat, its randomness, the turn the bots grow weary -> its moves of the turn.
Turn = Callable[[Play, str, SeededRandom, int], list[Any]]


def read_view(view: Any) -> Play:
    """The game as the engine keeps it, from its public view."""
    return msgspec.convert(view, Play)


def carried(board: Board, state: State, free: bool, seat: str, lines: list[str]) -> list[str]:
    """The lines the engine would carry out, in order (the invalid and replaced dropped)."""
    checked = check_orders(board, state, free, {seat: lines})
    return [line.text for line in checked.lines if line.verdict == "carried"]


def _stance_move(play: Play, seat: str, wanted: Stance) -> list[Any]:
    """The stance change to `wanted`, when it is a change and the diplomacy allows it."""
    current = play.position.players[seat].stance
    if wanted == current:
        return []
    try:
        change_stance(current, wanted, binding=play.options.diplomacy == "binding")
    except StanceRefused:
        return []
    change: dict[str, Any] = {"stance": wanted.kind}
    if wanted.draw_max is not None:
        change["draw_max"] = wanted.draw_max
    return [change]


def _mine(state: State, seat: str) -> list[str]:
    return sorted(t for t, owner in state.owners.items() if owner == seat)


def _spread(rng: SeededRandom, pool: int, places: list[str]) -> dict[str, int]:
    """`pool` units placed one by one on territories drawn from `places`."""
    placed: dict[str, int] = {}
    for _ in range(pool if places else 0):
        target = rng.choice(places)
        placed[target] = placed.get(target, 0) + 1
    return placed


def random_turn(play: Play, seat: str, rng: SeededRandom, weary: int = WEARY_TURN) -> list[Any]:
    """Its pending units (free placement) spread at random over its territories; then each
    of its territories with units holds (1 in 5), gives no order (1 in 5) or moves 1 to all
    of its units to a neighbour, drawn. One turn in ten it takes a stance drawn among the
    four; once weary, it offers a draw."""
    board, state = play_board(play), play.position
    free = play.options.placement == "free"
    mine = _mine(state, seat)
    placed = _spread(rng, state.pending_builds.get(seat, 0) if free else 0, mine)
    lines = [f"place {n} {t}" for t, n in sorted(placed.items())]
    for territory in mine:
        units = state.units.get(territory, 0) + placed.get(territory, 0)
        roll = rng.below(5)
        if units == 0 or roll == 0:
            continue
        if roll == 1:
            lines.append(f"{territory} hold")
        else:
            target = rng.choice(sorted(board.neighbours[territory]))
            lines.append(f"{territory} {rng.between(1, units)} to {target}")
    moves: list[Any] = []
    if state.turn >= weary:
        moves = _stance_move(play, seat, Stance("draw"))
    elif rng.below(10) == 0:
        kind = rng.choice(["no_mercy", "offer_mercy", "draw", "surrender"])
        moves = _stance_move(play, seat, Stance(kind))  # type: ignore[arg-type]
    return [*moves, carried(board, state, free, seat, lines)]


def _border_distance(board: Board, state: State, seat: str) -> dict[str, int]:
    """Steps from each of the seat's territories to its nearest border (0 on a border)."""
    mine = set(_mine(state, seat))
    frontier = [
        t for t in sorted(mine) if any(state.owners.get(n) != seat for n in board.neighbours[t])
    ]
    distance = dict.fromkeys(frontier, 0)
    while frontier:
        following = []
        for territory in frontier:
            for near in sorted(board.neighbours[territory]):
                if near in mine and near not in distance:
                    distance[near] = distance[territory] + 1
                    following.append(near)
        frontier = following
    return distance


def greedy_turn(play: Play, seat: str, rng: SeededRandom, weary: int = WEARY_TURN) -> list[Any]:
    """Pending units go to its border territory facing the most foreign units. A territory
    attacks its weakest foreign neighbour (fewest units, then the most populous) with all
    its units but one when they outnumber its garrison ODDS to 1; an inland territory sends
    all its units a step toward the nearest border; the rest hold. No mercy until weary,
    then it offers a draw."""
    board, state = play_board(play), play.position
    free = play.options.placement == "free"
    mine = _mine(state, seat)
    distance = _border_distance(board, state, seat)
    units = {t: state.units.get(t, 0) for t in mine}
    lines: list[str] = []
    pool = state.pending_builds.get(seat, 0) if free else 0
    border = [t for t in mine if distance.get(t) == 0]
    if pool and border:

        def threat(territory: str) -> tuple[int, float]:
            foreign = [n for n in board.neighbours[territory] if state.owners.get(n) != seat]
            return sum(state.units.get(n, 0) for n in foreign), rng.unit()

        target = max(border, key=threat)
        lines.append(f"place {pool} {target}")
        units[target] += pool
    for territory in mine:
        here = units[territory]
        foreign = [n for n in sorted(board.neighbours[territory]) if state.owners.get(n) != seat]
        if foreign:
            weakest = min(foreign, key=lambda n: (state.units.get(n, 0), -board.population(n), n))
            if here - 1 > ODDS * state.units.get(weakest, 0) and here > 1:
                lines.append(f"{territory} {here - 1} to {weakest}")
                continue
        elif here and territory in distance:
            closer = [
                n
                for n in sorted(board.neighbours[territory])
                if distance.get(n, 0) < distance[territory]
            ]
            if closer:
                lines.append(f"{territory} {here} to {rng.choice(closer)}")
                continue
        if here:
            lines.append(f"{territory} hold")
    wanted = Stance("draw") if state.turn >= weary else Stance("no_mercy")
    return [*_stance_move(play, seat, wanted), carried(board, state, free, seat, lines)]


STRATEGIES: dict[str, Turn] = {"random": random_turn, "greedy": greedy_turn}
