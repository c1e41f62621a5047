"""Voting events: when they are held, and who won (rules.md, "Voting events")."""

from collections import Counter

from projections.game import GameState
from rules.skirmish.effects import parse_effect
from schema import errors as codes
from schema.commands import CastVote
from schema.game_events import GameEvent, Settings, Vote, VoteCast, VoteOutcome
from server.game.decide.acting import active_player, require_phase, require_unlocked
from server.game.decide.errors import Conflict, InvalidCommand, NotAllowed


def vote_held_during(turn: int, settings: Settings) -> bool:
    if settings.votes == "disabled" or turn < settings.vote_start_turn:
        return False
    if settings.votes == "every_other_turn":
        return (turn - settings.vote_start_turn) % 2 == 0
    return True


def vote_for(state: GameState, turn: int, randomness: bytes) -> Vote | None:
    """The vote held during `turn`, drawn from the game's randomness, if one is due."""
    if not vote_held_during(turn, state.settings):
        return None
    candidates, tie_break = state.rules.draw_vote(randomness, turn)
    return Vote(turn=turn, candidates=candidates, tie_break=tie_break)


def outcome(state: GameState) -> VoteOutcome | None:
    """The result of the vote held during the current turn, counted now."""
    vote = state.skirmish.vote
    if vote is None or vote.turn != state.turn:
        return None
    counted = Counter(state.skirmish.ballots.values())
    tally = {effect: counted[effect] for effect in vote.candidates}
    first, second = vote.candidates
    if tally[first] == tally[second]:
        winner = vote.tie_break
    else:
        winner = first if tally[first] > tally[second] else second
    same_day = state.settings.voting_mode == "same_day"
    return VoteOutcome(
        vote=vote,
        tally=tally,
        winner=winner,
        applies_to_turn=state.turn if same_day else state.turn + 1,
    )


def cast_vote(state: GameState, command: CastVote) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command, command.as_player)
    vote = state.skirmish.vote
    if vote is None or vote.turn != state.turn:
        raise Conflict(codes.NO_VOTE, "there is no vote this turn")
    if player.id not in state.skirmish.board.armies.values():
        raise NotAllowed(
            codes.VOTE_NEEDS_ARMIES, "players must have armies on the board in order to vote"
        )
    if player.id in state.skirmish.ballots:
        raise Conflict(codes.ALREADY_VOTED, "you can only vote once in a given turn")
    require_unlocked(state, command.now)
    try:
        effect = parse_effect(command.effect).value
    except ValueError as error:
        raise InvalidCommand(codes.UNKNOWN_EFFECT, str(error)) from error
    if effect not in vote.candidates:
        first, second = vote.candidates
        raise InvalidCommand(codes.NOT_A_CANDIDATE, f"this vote is between {first} and {second}")
    return [VoteCast(player_id=player.id, turn=state.turn, effect=effect)]
