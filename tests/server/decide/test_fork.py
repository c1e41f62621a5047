"""Forking: who may fork which turns of a game, and the fork's first event and state."""

import pytest
from msgspec.structs import replace

from schema import errors as codes
from schema.bounds import MAX_NAME
from schema.commands import Actor, Resign
from schema.game_events import ForkedFrom, GameForked
from server.game.decide.fork import check_fork, fork_name
from tests.server.decide.given import (
    ADMIN,
    T0,
    Game,
    account,
    forking,
    joined,
    on_board,
    refused,
    resolve,
    started,
)


def test_an_admin_forks_a_game_being_played_up_to_its_current_turn() -> None:
    game = started(3)
    resolve(game)
    check_fork(game.state, Actor(ADMIN), 1, sandbox=False)
    check_fork(game.state, Actor(ADMIN), 2, sandbox=True)
    for turn in (0, 3):
        with refused(codes.TURN_NOT_FOUND, f"turn {turn} cannot be forked"):
            check_fork(game.state, Actor(ADMIN), turn, sandbox=True)
    with refused(codes.ADMIN_ONLY):
        check_fork(game.state, Actor(account(1)), 1, sandbox=True)
    with refused(codes.WRONG_PHASE):
        check_fork(joined(3).state, Actor(ADMIN), 1, sandbox=True)


def test_anyone_makes_a_sandbox_of_a_finished_game_up_to_its_last_turn() -> None:
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3"},
        {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
        vp_target=1,
    )
    resolve(game)
    assert game.state.phase == "finished"
    last = game.state.turn - 1
    check_fork(game.state, Actor("acct-stranger"), last, sandbox=True)
    check_fork(game.state, Actor(ADMIN), last, sandbox=False)
    with refused(codes.ADMIN_ONLY, "or make a real fork"):
        check_fork(game.state, Actor("acct-stranger"), last, sandbox=False)
    with refused(codes.TURN_NOT_FOUND):
        check_fork(game.state, Actor("acct-stranger"), last + 1, sandbox=True)


@pytest.mark.parametrize("sandbox", [True, False])
def test_a_fork_begins_with_the_sources_board_seats_and_vote(sandbox: bool) -> None:
    source = started(3)
    resolve(source)
    then = source.state
    fork = Game()
    (event,) = fork.run(forking(source, sandbox=sandbox))
    assert isinstance(event, GameForked)
    assert (event.chain_hash, event.invites) == ("ab" * 32, not sandbox)
    state = fork.state
    assert (state.turn, state.skirmish.board, state.skirmish.map) == (
        then.turn,
        then.skirmish.board,
        then.skirmish.map,
    )
    assert (state.skirmish.vote, state.skirmish.effect, state.admins) == (
        then.skirmish.vote,
        then.skirmish.effect,
        ("acct-forker",),
    )
    assert state.forked_from == ForkedFrom(then.game_id, then.turn, 41, "ab" * 32)
    assert {p.id: state.skirmish.vp_of(p.id) for p in state.players.values()} == {
        p.id: then.skirmish.vp_of(p.id) for p in then.players.values()
    }
    holders = {p.id: p.accounts for p in state.players.values()}
    if sandbox:
        # Running at once, its admin in every seat.
        assert state.phase == "running"
        assert set(holders.values()) == {("acct-forker",)}
        assert state.invited == {}
    else:
        # Waiting for claims: nobody seated, nothing due, the source's holders invited.
        assert (state.phase, state.awaiting_claims, state.next_resolution_at()) == (
            "joining",
            True,
            None,
        )
        assert set(holders.values()) == {()}
        assert state.invited == {p.id: p.accounts for p in then.players.values()}
    with refused(codes.GAME_EXISTS):
        fork.when(forking(source, sandbox=sandbox))


def test_a_fork_plays_its_sources_game_by_the_sources_rules() -> None:
    source = started(3)
    resolve(source)
    fork = Game()
    (event,) = fork.run(forking(source, sandbox=True))
    assert isinstance(event, GameForked)
    assert (event.game, event.game_version) == ("skirmish-society", 1)
    assert (fork.state.game, fork.state.game_version) == ("skirmish-society", 1)
    unknown = replace(forking(source, sandbox=True), game_version=2)
    with refused(codes.UNKNOWN_GAME, "does not know version 2 of 'skirmish-society'"):
        Game().when(unknown)


def test_a_real_fork_invites_the_holders_of_the_seats_still_playing() -> None:
    source = started(3)
    source.run(Resign(actor=Actor(account(2)), now=T0))
    resolve(source)
    invited = forking(source, sandbox=False).players
    assert {p.id: p.accounts for p in invited} == {
        "p1": (account(1),),
        "p2": (),
        "p3": (account(3),),
    }


def test_a_sandbox_forks_as_a_sandbox_only() -> None:
    sandbox = Game(*Game().run(forking(started(3), sandbox=True)))
    check_fork(sandbox.state, Actor("acct-forker"), 1, sandbox=True)
    with refused(codes.REAL_FORK_OF_SANDBOX):
        check_fork(sandbox.state, Actor("acct-forker"), 1, sandbox=False)


@pytest.mark.parametrize(
    ("name", "turn", "expected"),
    [
        ("Test game", 2, "Test game (fork, turn 2)"),
        ("Seventeen letters", 2, "Seventeen letters (fork, turn 2)"),
        ("Eighteen letters!!", 2, "Eighteen letters… (fork, turn 2)"),
        ("Ends in a space here", 2, "Ends in a space… (fork, turn 2)"),
        ("x" * 32, 1_000_000, "x" * 10 + "… (fork, turn 1000000)"),
    ],
)
def test_a_forks_default_name_gives_way_to_fit(name: str, turn: int, expected: str) -> None:
    assert fork_name(name, turn) == expected
    assert len(fork_name(name, turn)) <= MAX_NAME
