"""A seat as the public game and the standings list it (`PlayerView`), shared by every game's
standings: Skirmish Society's by VP and a definition's own. Pure."""

from typing import TYPE_CHECKING

from schema.views import PlayerView

if TYPE_CHECKING:
    # For its type only: projections.game imports the games that list their seats.
    from projections.game import Player


def player_view(player: "Player", vp: int = 0, territories: int = 0, armies: int = 0) -> PlayerView:
    """`player` with Skirmish Society's numbers (0 for every other game)."""
    return PlayerView(
        id=player.id,
        name=player.name,
        color=player.color,
        pattern=player.pattern,
        vp=vp,
        territories=territories,
        armies=armies,
        status=player.status,
        banned=player.banned,
    )
