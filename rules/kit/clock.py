"""How long a game run by the room may wait for a move (rules/game.py, `Wait.seconds`): the
one bound and default of every game's clock option, in whole seconds. The option is the
room's matter more than the rules': a game keeps it beside its rules' options, in its own
event and state, so that its rules' options and their contract stay as they were."""

from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from rules.game import OptionsRefused

MINUTE = 60
DAY = 24 * 60 * MINUTE
# A minute for a live game; a month for the slowest correspondence game.
SHORTEST = MINUTE
LONGEST = 30 * DAY
Seconds = Annotated[int, msgspec.Meta(ge=SHORTEST, le=LONGEST)]
BOUNDS = f"{SHORTEST} to {LONGEST} seconds (a minute to 30 days), or null for no clock"


class _Clock(msgspec.Struct, frozen=True):
    seconds: Seconds | None


def clock_option(options: Mapping[str, Any], name: str) -> int | None:
    """The clock option `name` of new options: a day when not given, None (no clock) when
    null; OptionsRefused out of bounds. A game recorded before the option existed has none:
    its setup reads the option as kept (`options.get(name)`), never this default."""
    try:
        return msgspec.convert({"seconds": options.get(name, DAY)}, _Clock).seconds
    except msgspec.ValidationError as error:
        raise OptionsRefused(f"{name} is {BOUNDS}: {error}") from error


def without(options: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The options but the clock option `name`: those the game's rules play by."""
    return {key: value for key, value in options.items() if key != name}
