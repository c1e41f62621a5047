"""How long a game run by the room may wait for a move (rules/game.py, `Wait.seconds`): the
one bound and default of every game's clock option, in whole seconds."""

from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

MINUTE = 60
DAY = 24 * 60 * MINUTE
# A minute for a live game; a month for the slowest correspondence game.
SHORTEST = MINUTE
LONGEST = 30 * DAY
Seconds = Annotated[int, msgspec.Meta(ge=SHORTEST, le=LONGEST)]
BOUNDS = f"{SHORTEST} to {LONGEST} seconds (a minute to 30 days), or null for no clock"


def with_clock(options: Mapping[str, Any], name: str, default: int = DAY) -> dict[str, Any]:
    """The options with the clock option `name` at its default when not given: a day. A game
    recorded before the option existed keeps none (the Struct's own default, None)."""
    return {name: default, **options}
