"""Voting events: the schedule, the seeded draw, the ballots and the outcome."""

import re
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from rules.skirmish.effects import draw_vote
from schema import errors as codes
from schema.commands import Actor, BanPlayer, CastVote, JoinGame, Resign, StartGame
from schema.game_events import (
    GameEvent,
    OrdersSubmitted,
    RecordedOrder,
    Vote,
    VoteCast,
    VoteOutcome,
)
from schema.refusals import OrdersLocked, WrongPhase
from tests.server.decide.given import (
    ADMIN,
    NOON,
    SECRET,
    T0,
    Game,
    account,
    created,
    during,
    joined,
    joint_players,
    noon,
    on_board,
    refused,
    resolve,
    start_event,
    started,
    submit,
)

# Votes in every turn from the first.
EVERY_TURN: dict[str, Any] = {"votes": "every_turn", "vote_start_turn": 1}


def _vote(game: Game) -> Vote:
    vote = game.state.skirmish.vote
    assert vote is not None
    assert vote.turn == game.state.turn
    return vote


def _ballot(player: int, effect: str, turn: int = 1) -> CastVote:
    return CastVote(actor=Actor(account(player)), now=during(turn), effect=effect)


def _checked(events: list[GameEvent]) -> RecordedOrder:
    """The one order of the one submission in `events`."""
    (event,) = events
    assert isinstance(event, OrdersSubmitted)
    (checked,) = event.checked
    return checked


def _other(vote: Vote) -> str:
    """The candidate that does not win a tie."""
    first, second = vote.candidates
    return second if vote.tie_break == first else first


def _announced(game: Game, turns: int) -> list[int | None]:
    """The turn of the vote announced at the start and by each of `turns` resolutions."""
    start = start_event(game).vote
    announced = [start.turn if start else None]
    for _ in range(turns):
        vote = resolve(game).next_vote
        announced.append(vote.turn if vote else None)
    return announced


# --- the schedule -------------------------------------------------------------------


def test_a_vote_starting_at_turn_one_is_announced_at_the_start() -> None:
    game = started(3, **EVERY_TURN)
    (candidates, tie_break) = draw_vote(SECRET, 1)
    assert start_event(game).vote == Vote(turn=1, candidates=candidates, tie_break=tie_break)


def test_every_turn_holds_a_vote_in_each_turn_from_the_start_turn() -> None:
    assert _announced(started(3, votes="every_turn", vote_start_turn=3), 4) == [
        None,
        None,
        3,
        4,
        5,
    ]


def test_every_other_turn_holds_a_vote_from_the_start_turn_then_every_two_turns() -> None:
    # The defaults: every other turn from turn 3.
    assert _announced(started(3), 5) == [None, None, 3, None, 5, None]


def test_every_other_turn_from_turn_one() -> None:
    assert _announced(started(3, votes="every_other_turn", vote_start_turn=1), 3) == [
        1,
        None,
        3,
        None,
    ]


def test_disabled_votes_are_never_held() -> None:
    assert _announced(started(3, votes="disabled", vote_start_turn=1), 3) == [None] * 4


def test_the_draw_comes_from_the_secret_two_distinct_effects_and_a_tie_break() -> None:
    first, second = started(3, seed=41, **EVERY_TURN), started(3, seed=41, **EVERY_TURN)
    votes_of_first, votes_of_second = [_vote(first)], [_vote(second)]
    for _ in range(4):
        resolve(first)
        resolve(second)
        votes_of_first.append(_vote(first))
        votes_of_second.append(_vote(second))
    assert votes_of_first == votes_of_second
    for turn, vote in enumerate(votes_of_first, start=1):
        assert (vote.candidates, vote.tie_break) == draw_vote(SECRET, turn)
        assert vote.candidates[0] != vote.candidates[1]
        assert vote.tie_break in vote.candidates
    assert len({v.candidates for v in votes_of_first}) > 1


def test_another_secret_draws_other_votes() -> None:
    draws = {draw_vote(bytes([n]) * 32, 1) for n in range(1, 9)}
    assert len(draws) > 1


def test_two_games_with_the_same_seed_draw_different_votes() -> None:
    """The creator's seed picks the map only; the draws come from each game's secret."""
    first = started(3, seed=41, **EVERY_TURN)
    second = joined(3, seed=41, **EVERY_TURN)
    second.run(StartGame(actor=Actor(ADMIN), now=T0, secret=bytes([5]) * 32))
    assert start_event(first).map == start_event(second).map
    first_votes: list[Vote | None] = [_vote(first)]
    second_votes: list[Vote | None] = [_vote(second)]
    for _ in range(4):
        first_votes.append(resolve(first).next_vote)
        second_votes.append(resolve(second).next_vote)
    assert first_votes != second_votes


def test_a_game_started_before_secrets_existed_draws_from_its_seed() -> None:
    game = on_board({"AE": "p1", "MA": "p2", "MJ": "p3"}, seed=41, **EVERY_TURN)
    game.events[-1] = msgspec.structs.replace(start_event(game), secret=None, commitment=None)
    vote = resolve(game).next_vote
    assert vote is not None
    assert (vote.candidates, vote.tie_break) == draw_vote((41).to_bytes(8, "big"), 2)


# --- casting a vote -----------------------------------------------------------------


def test_a_vote_names_a_candidate_in_any_case_or_spacing() -> None:
    game = started(3, **EVERY_TURN)
    vote = _vote(game)
    for player, spelling in enumerate(
        (vote.candidates[1].lower(), vote.candidates[1].title().replace(" ", "_")), start=1
    ):
        assert game.when(_ballot(player, spelling)) == [
            VoteCast(player_id=f"p{player}", turn=1, effect=vote.candidates[1])
        ]


def test_a_vote_for_an_effect_that_is_not_a_candidate_is_refused() -> None:
    game = started(3, **EVERY_TURN)
    first, second = _vote(game).candidates
    outsider = next(e for e in ("FEAST", "FAMINE", "STORM") if e not in (first, second))
    with refused(codes.NOT_A_CANDIDATE, f"this vote is between {first} and {second}"):
        game.when(_ballot(1, outsider))
    with refused(codes.UNKNOWN_EFFECT, "unknown effect: 'PIZZA'"):
        game.when(_ballot(1, "PIZZA"))


def test_no_vote_when_none_is_held_this_turn() -> None:
    with refused(codes.NO_VOTE, "there is no vote this turn"):
        started(3).when(_ballot(1, "FEAST"))


def test_one_vote_per_player() -> None:
    game = started(3, **EVERY_TURN)
    effect = _vote(game).candidates[0]
    game.run(_ballot(1, effect))
    with refused(codes.ALREADY_VOTED, "only vote once"):
        game.when(_ballot(1, _vote(game).candidates[1]))


def test_a_player_without_armies_cannot_vote() -> None:
    candidates, tie_break = draw_vote(SECRET, 1)
    vote = Vote(turn=1, candidates=candidates, tie_break=tie_break)
    # p3 holds a barracks but has no army.
    game = on_board({"EH": "p1", "MA": "p2"}, {"MJ": "p3"}, vote=vote, **EVERY_TURN)
    with refused(codes.VOTE_NEEDS_ARMIES, "must have armies on the board in order to vote"):
        game.when(_ballot(3, candidates[0]))
    assert len(game.when(_ballot(1, candidates[0]))) == 1


def test_a_joint_player_has_one_vote_for_both_accounts() -> None:
    game = joint_players(**EVERY_TURN)
    resolve(game)
    effect = _vote(game).candidates[0]
    assert game.run(_ballot(2, effect, turn=3)) == [
        VoteCast(player_id="p2/p4", turn=3, effect=effect)
    ]
    with refused(codes.ALREADY_VOTED, "only vote once"):
        game.when(_ballot(4, effect, turn=3))


def test_only_an_active_player_votes() -> None:
    game = started(3, **EVERY_TURN)
    effect = _vote(game).candidates[0]
    game.run(Resign(actor=Actor(account(1)), now=during(1)))
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p2"))
    with refused(codes.PLAYER_RESIGNED, "resigned"):
        game.when(_ballot(1, effect))
    with refused(codes.BANNED, "banned"):
        game.when(_ballot(2, effect))
    with refused(codes.NOT_A_PLAYER, "not a player"):
        game.when(CastVote(actor=Actor("acct-stranger"), now=during(1), effect=effect))


def test_no_vote_before_the_start() -> None:
    with pytest.raises(WrongPhase):
        joined(3, **EVERY_TURN).when(_ballot(1, "FEAST"))


def test_votes_are_locked_around_the_resolution() -> None:
    game = started(3, **EVERY_TURN)
    effect = _vote(game).candidates[0]
    with pytest.raises(
        OrdersLocked, match=re.escape("2026-11-21 12:05 UTC (12:05 local time, in 6m)")
    ):
        game.when(CastVote(actor=Actor(account(1)), now=NOON - timedelta(minutes=1), effect=effect))


def test_a_sandbox_admin_votes_for_each_player() -> None:
    game = created(sandbox=True, **EVERY_TURN)
    for name in ("Red", "Blue", "Green"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    game.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    effect = _vote(game).candidates[0]
    for player in ("p1", "p2"):
        game.run(CastVote(actor=Actor(ADMIN), now=during(1), effect=effect, as_player=player))
    assert game.state.skirmish.ballots == {"p1": effect, "p2": effect}


# --- the outcome --------------------------------------------------------------------


def test_the_majority_wins_over_the_tie_break() -> None:
    game = started(3, **EVERY_TURN)
    vote = _vote(game)
    game.run(_ballot(1, _other(vote)))
    game.run(_ballot(2, _other(vote)))
    game.run(_ballot(3, vote.tie_break))
    outcome = resolve(game).vote_outcome
    assert outcome == VoteOutcome(
        vote=vote,
        tally={_other(vote): 2, vote.tie_break: 1},
        winner=_other(vote),
        applies_to_turn=2,
    )


@pytest.mark.parametrize("ballots", [0, 2])
def test_a_tie_goes_to_the_tie_break(ballots: int) -> None:
    game = started(3, **EVERY_TURN)
    vote = _vote(game)
    if ballots:
        game.run(_ballot(1, vote.candidates[0]))
        game.run(_ballot(2, vote.candidates[1]))
    outcome = resolve(game).vote_outcome
    assert outcome is not None
    assert outcome.winner == vote.tie_break
    assert outcome.tally == dict.fromkeys(vote.candidates, ballots // 2)


def test_in_normal_mode_the_winner_applies_to_the_turn_after_the_vote() -> None:
    game = started(3, **EVERY_TURN)
    winner = _other(_vote(game))
    game.run(_ballot(1, winner))
    first = resolve(game)
    assert first.effect is None
    assert first.next_effect == winner
    assert game.state.skirmish.effect == winner
    second = resolve(game)
    assert second.effect == winner
    assert second.vote_outcome is not None
    assert second.next_effect == second.vote_outcome.winner


def test_in_same_day_mode_the_winner_applies_to_the_same_turn() -> None:
    game = started(3, voting_mode="same_day", **EVERY_TURN)
    winner = _other(_vote(game))
    game.run(_ballot(1, winner))
    event = resolve(game)
    assert event.effect == winner
    assert event.vote_outcome is not None
    assert event.vote_outcome.applies_to_turn == 1
    assert event.next_effect is None
    assert game.state.skirmish.effect is None


# The rulebook's map, where p1 controls five territories (the most) and so earns the
# expansion award each turn. This secret's first vote offers LAND GRAB, which doubles it;
# its second is FEAST or TRUCE, TRUCE on a tie.
LAND_GRAB_THEN_TRUCE = bytes([11]) * 32
FIVE_TERRITORIES = (
    {"EH": "p1", "MA": "p2", "MJ": "p3"},
    {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
)


def _first_vote() -> Vote:
    candidates, tie_break = draw_vote(LAND_GRAB_THEN_TRUCE, 1)
    assert "LAND GRAB" in candidates
    return Vote(turn=1, candidates=candidates, tie_break=tie_break)


def test_an_effect_won_in_normal_mode_changes_the_next_turns_scoring() -> None:
    armies, control = FIVE_TERRITORIES
    game = on_board(armies, control, vote=_first_vote(), **EVERY_TURN)
    game.run(_ballot(1, "land grab"))
    assert resolve(game).vp_gained["p1"] == 1
    assert resolve(game).vp_gained["p1"] == 2


def test_an_effect_won_in_same_day_mode_changes_that_turns_scoring() -> None:
    armies, control = FIVE_TERRITORIES
    game = on_board(armies, control, vote=_first_vote(), voting_mode="same_day", **EVERY_TURN)
    game.run(_ballot(1, "land grab"))
    assert resolve(game).vp_gained["p1"] == 2


def test_same_day_orders_are_checked_again_under_the_effect_at_resolution() -> None:
    # The second vote is FEAST or TRUCE, TRUCE on a tie: nobody votes, so TRUCE forbids
    # p1's attack on p2's army, although the order was valid when sent.
    game = on_board(
        {"AE": "p1", "MA": "p2", "MJ": "p3"},
        voting_mode="same_day",
        secret=LAND_GRAB_THEN_TRUCE,
        **EVERY_TURN,
    )
    resolve(game)
    assert _vote(game).tie_break == "TRUCE"
    assert _checked(submit(game, 1, "AE to MA")).valid
    (report,) = resolve(game, now=noon(2)).orders
    assert report.result == "invalid"
    assert report.reason == "TRUCE forbids moving into another player's army: MA"


def test_normal_mode_orders_are_checked_under_the_effect_in_force() -> None:
    game = on_board(
        {"AE": "p1", "MA": "p2", "MJ": "p3"},
        votes="every_turn",
        vote_start_turn=2,
        secret=LAND_GRAB_THEN_TRUCE,
    )
    resolve(game)
    assert _vote(game).tie_break == "TRUCE"
    resolve(game)
    assert game.state.skirmish.effect == "TRUCE"
    checked = _checked(submit(game, 1, "AE to MA"))
    assert checked.reason == "TRUCE forbids moving into another player's army: MA"
