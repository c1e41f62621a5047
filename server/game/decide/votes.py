"""A ballot in a vote of Skirmish Society: the room's checks (phase, who acts, the lock
window) around the game's own (projections/skirmish/votes.py)."""

from projections.game import GameState
from projections.skirmish.votes import ballot, open_vote
from schema.commands import CastVote
from schema.game_events import GameEvent
from server.game.decide.acting import active_player, require_phase, require_unlocked


def cast_vote(state: GameState, command: CastVote) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command, command.as_player)
    vote = open_vote(state.skirmish, player.id)
    require_unlocked(state, command.now)
    return [ballot(vote, player.id, command.effect)]
