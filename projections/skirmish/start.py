"""Skirmish Society's start: the map (built in, or generated from the game's seed), each
seat's home drawn from the game's randomness with an army on each of its barracks, and the
first turn's vote, if one is held. The room (server/game/decide/lifecycle.py) checks who
starts and how many play, and stamps the start with its time and the game's secret.

Pure: no I/O, no clock.
"""

from collections.abc import Sequence

from msgspec.structs import replace

from projections.owned import UNSTAMPED
from projections.skirmish.votes import vote_for
from rules.skirmish.starting import starting_board, starting_map
from schema.game_events import GameStarted, RecordedPosition, Settings


def started(settings: Settings, seed: int, seats: Sequence[str], randomness: bytes) -> GameStarted:
    """The start of a game with these settings and seed for `seats`, in the order they
    joined; MapError or MapGenerationError when its map cannot host them."""
    count = len(seats)
    game_map = starting_map(
        players=count, map_type=settings.map_type, builtin=settings.map, seed=seed
    )
    position, homes = starting_board(game_map, list(seats), randomness)
    if settings.map is None:
        # The generator names its map after the seed; a plainer name says what it is.
        game_map = replace(
            game_map,
            name=f"generated-{settings.map_type}-{count}p",
            description=f"Generated {settings.map_type} map for {count} players.",
        )
    return GameStarted(
        map=game_map,
        board=RecordedPosition(armies=position.armies, control=position.control, farms=[]),
        homes=homes,
        at=UNSTAMPED,
        vote=vote_for(settings, 1, randomness),
    )
