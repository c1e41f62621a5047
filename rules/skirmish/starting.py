"""Skirmish Society's start, as far as the engine says it: a starting map and board from
settings and a seed, and how many players a built-in map seats. Its definition
(projections/skirmish/) calls these, and the engine's check of a submission, its resolution
of a turn and its draw of a vote, directly."""

from collections.abc import Sequence

from rules.kit.prng import derived
from rules.skirmish.board import GameMap, MapError
from rules.skirmish.mapgen import MAX_PLAYERS, MIN_PLAYERS, MapType, generate
from rules.skirmish.maps import builtin_map
from rules.skirmish.position import Position


def starting_map(*, players: int, map_type: MapType, builtin: str | None, seed: int) -> GameMap:
    if builtin is None:
        return generate(players=players, map_type=map_type, seed=seed)
    game_map = builtin_map(builtin)
    if len(game_map.homes) < players:
        raise MapError(
            f"map {builtin!r} has starting homes for {len(game_map.homes)} players, not {players}"
        )
    return game_map


def starting_board(
    game_map: GameMap, players: Sequence[str], randomness: bytes
) -> tuple[Position, dict[str, tuple[str, ...]]]:
    """Each player gets a home, drawn from the game's randomness, with an army on each of its
    barracks."""
    seats = derived(randomness, "seats").sample(game_map.homes, len(players))
    homes = dict(zip(players, seats, strict=True))
    barracks = game_map.board.barracks
    armies = {t: p for p, home in homes.items() for t in home if t in barracks}
    control = {t: p for p, home in homes.items() for t in home}
    return Position(armies=armies, control=control), homes


def player_counts(builtin: str) -> tuple[int, int] | None:
    """The fewest and the most players a game on the built-in map `builtin` can start with
    (one starting home each), or None if it cannot host a game. MapError for an unknown map."""
    homes = len(builtin_map(builtin).homes)
    return (MIN_PLAYERS, min(homes, MAX_PLAYERS)) if homes >= MIN_PLAYERS else None
