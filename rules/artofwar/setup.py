"""The starting position (§2.4): `one` or `fill` territories from the setup stream, 12 -
population units on each (or a pool to place), independents with 0 or 5."""

from rules.artofwar.board import Board
from rules.artofwar.options import MAX_PLAYERS, MIN_PLAYERS, Options
from rules.artofwar.state import Player, State
from rules.kit.prng import SeededRandom

START_UNITS = 12
SELF_DEFENCE = 5


class SetupError(ValueError):
    """The game cannot start with these players on this map."""


def setup(board: Board, seats: list[str], options: Options, stream: SeededRandom) -> State:
    """Turn 1's state; `seats` are the players in the order they joined."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or len(set(seats)) != len(seats):
        raise SetupError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players, each once")
    shuffled = stream.shuffled(board.ids)
    starts = _one(board, seats, shuffled) if options.initial == "one" else _fill(seats, shuffled)
    owners = {t: player for player, ts in starts.items() for t in ts}
    garrison = SELF_DEFENCE if options.independents == "self_defense" else 0
    units = {t: garrison for t in board.ids if t not in owners}
    pending: dict[str, int] = {}
    for player, territories in starts.items():
        for t in territories:
            start = START_UNITS - board.population(t)
            if options.placement == "free":
                pending[player] = pending.get(player, 0) + start  # P6: all a pool to place
            else:
                units[t] = start
    return State(
        turn=1,
        players={player: Player() for player in seats},
        owners=dict(sorted(owners.items())),
        units={t: n for t, n in sorted(units.items()) if n},
        pending_builds=pending,
    )


def _one(board: Board, seats: list[str], shuffled: list[str]) -> dict[str, list[str]]:
    """Each seat in turn: the first shuffled territory neither taken nor next to a taken one
    (P4)."""
    taken: set[str] = set()
    starts = {}
    for player in seats:
        free = (t for t in shuffled if t not in taken and not board.neighbours[t] & taken)
        start = next(free, None)
        if start is None:
            raise SetupError(f"this map cannot seat {len(seats)} players apart")
        taken.add(start)
        starts[player] = [start]
    return starts


def _fill(seats: list[str], shuffled: list[str]) -> dict[str, list[str]]:
    """⌊T/n⌋ each, in shuffled order; the rest stay independent (P5)."""
    q = len(shuffled) // len(seats)
    if q == 0:
        raise SetupError(f"{len(seats)} players need at least as many territories")
    return {player: shuffled[k * q : k * q + q] for k, player in enumerate(seats)}
