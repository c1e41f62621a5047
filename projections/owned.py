"""What the room tells a definition whose events are the room's own (Skirmish Society's,
recorded bare rather than wrapped in `play_recorded.v1`): the room's facts a move or a
resolution of such a game reads, since the seam (rules/game.py) hands a definition its own
state only. docs/design/games.md, "Skirmish Society as a definition: the plan", S2.

Pure: no I/O, no clock.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from schema.game_events import PlayerStatus, Settings

if TYPE_CHECKING:
    # For its type only: projections.game imports the games that read these facts.
    from projections.game import Player


class SeatFacts(msgspec.Struct, frozen=True):
    """A seat as the room keeps it."""

    name: str
    status: PlayerStatus
    banned: bool


class RoomFacts(msgspec.Struct, frozen=True):
    """The game's settings and seats, as the room has them now."""

    settings: Settings
    seats: dict[str, SeatFacts]


def room_facts(settings: Settings, players: Mapping[str, "Player"]) -> RoomFacts:
    """The room's facts of a game with these settings and players."""
    return RoomFacts(
        settings=settings,
        seats={
            seat: SeatFacts(name=p.name, status=p.status, banned=p.banned)
            for seat, p in players.items()
        },
    )
