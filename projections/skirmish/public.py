"""Skirmish Society's own fields of the public game (schema.views.PublicGame): its players by
VP, its map, board, vote, effect, winner and last turn. Nothing secret: in same-day voting the
tally waits for the resolution. Pure."""

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from projections.seat_view import player_view
from projections.skirmish.state import SkirmishPlay
from schema.views import PlayerView, VoteView

if TYPE_CHECKING:
    from projections.game import Player


def public(play: SkirmishPlay | None, players: Mapping[str, "Player"]) -> dict[str, Any]:
    """The public game's fields of `play` (none before the game's creation: empty)."""
    play = SkirmishPlay() if play is None else play
    return {
        "players": _by_vp(play, players),
        "map": play.map,
        "board": play.board,
        "vote": _vote(play),
        "effect": play.effect,
        "winner": play.winner,
        "last_turn": play.last_turn,
    }


def _by_vp(play: SkirmishPlay, players: Mapping[str, "Player"]) -> list[PlayerView]:
    """The players by VP, then territories, then name: the side bar's order."""
    territories = Counter(play.board.control.values())
    armies = Counter(play.board.armies.values())
    views = [
        player_view(p, play.vp_of(p.id), territories[p.id], armies[p.id]) for p in players.values()
    ]
    return sorted(views, key=lambda v: (-v.vp, -v.territories, v.name.lower()))


def _vote(play: SkirmishPlay) -> VoteView | None:
    """This turn's vote, with its tally so far unless ballots are secret until the
    resolution (same-day voting)."""
    held = play.vote
    if held is None or held.turn != play.turn:
        return None
    tally = None
    if play.room.settings.voting_mode == "normal":
        counted = Counter(play.ballots.values())
        tally = {effect: counted[effect] for effect in held.candidates}
    return VoteView(held.turn, held.candidates, held.tie_break, tally)
