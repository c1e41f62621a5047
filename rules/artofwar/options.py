"""A game's options (§2.3): how it starts, where builds go, how diplomacy binds."""

from typing import Literal

import msgspec

Placement = Literal["automatic", "free"]
InitialTerritories = Literal["one", "fill"]
Independents = Literal["helpless", "self_defense"]
Diplomacy = Literal["free", "binding"]

MIN_PLAYERS = 2
MAX_PLAYERS = 20


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    initial: InitialTerritories = "one"
    placement: Placement = "automatic"
    independents: Independents = "self_defense"
    diplomacy: Diplomacy = "free"
    # Private messages: a matter of the server, not of the rules; kept with the options.
    intrigue: bool = False
