"""Skirmish Society's votes (rules.md, "Voting events"): when one is held, its draw, a
ballot, and who won, as functions of the game's state (`SkirmishPlay`) and settings. The
room (server/game/decide/playing.py) checks the phase, who acts and the lock window.

Pure: no I/O, no clock.
"""

from collections import Counter

from projections.skirmish.state import SkirmishPlay
from rules.skirmish.effects import draw_vote, parse_effect
from schema import errors as codes
from schema.game_events import Settings, Vote, VoteCast, VoteOutcome
from schema.refusals import Conflict, InvalidCommand, NotAllowed


def vote_held_during(turn: int, settings: Settings) -> bool:
    if settings.votes == "disabled" or turn < settings.vote_start_turn:
        return False
    if settings.votes == "every_other_turn":
        return (turn - settings.vote_start_turn) % 2 == 0
    return True


def vote_for(settings: Settings, turn: int, randomness: bytes) -> Vote | None:
    """The vote held during `turn`, drawn from the game's randomness, if one is due."""
    if not vote_held_during(turn, settings):
        return None
    candidates, tie_break = draw_vote(randomness, turn)
    return Vote(turn=turn, candidates=candidates, tie_break=tie_break)


def outcome(play: SkirmishPlay, settings: Settings, turn: int) -> VoteOutcome | None:
    """The result of the vote held during `turn`, the current one, counted now."""
    vote = play.vote
    if vote is None or vote.turn != turn:
        return None
    counted = Counter(play.ballots.values())
    tally = {effect: counted[effect] for effect in vote.candidates}
    first, second = vote.candidates
    if tally[first] == tally[second]:
        winner = vote.tie_break
    else:
        winner = first if tally[first] > tally[second] else second
    same_day = settings.voting_mode == "same_day"
    return VoteOutcome(
        vote=vote,
        tally=tally,
        winner=winner,
        applies_to_turn=turn if same_day else turn + 1,
    )


def open_vote(play: SkirmishPlay, seat: str) -> Vote:
    """The vote of this turn that `seat` may still cast a ballot in."""
    vote = play.vote
    if vote is None or vote.turn != play.turn:
        raise Conflict(codes.NO_VOTE, "there is no vote this turn")
    if seat not in play.board.armies.values():
        raise NotAllowed(
            codes.VOTE_NEEDS_ARMIES, "players must have armies on the board in order to vote"
        )
    if seat in play.ballots:
        raise Conflict(codes.ALREADY_VOTED, "you can only vote once in a given turn")
    return vote


def ballot(vote: Vote, seat: str, effect: str) -> VoteCast:
    """`seat`'s ballot for `effect` in `vote` (from `open_vote`)."""
    try:
        chosen = parse_effect(effect).value
    except ValueError as error:
        raise InvalidCommand(codes.UNKNOWN_EFFECT, str(error)) from error
    if chosen not in vote.candidates:
        first, second = vote.candidates
        raise InvalidCommand(codes.NOT_A_CANDIDATE, f"this vote is between {first} and {second}")
    return VoteCast(player_id=seat, turn=vote.turn, effect=chosen)
