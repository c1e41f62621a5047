"""Forking: who may fork which turns of a game, and the fork's first event and state."""

import pytest

from schema import errors as codes
from schema.commands import Actor, ForkGame
from schema.game_events import ForkedFrom, GameForked
from server.decide.fork import check_fork, forked_players
from tests.server.decide.given import (
    ADMIN,
    SECRET,
    T0,
    Game,
    account,
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
def test_a_fork_begins_running_with_the_sources_board_seats_and_vote(sandbox: bool) -> None:
    source = started(3)
    resolve(source)
    then = source.state
    settings = then.settings
    assert then.map is not None
    command = ForkGame(
        actor=Actor("acct-forker"),
        now=T0,
        game_id="g2",
        source_game=then.game_id,
        turn=then.turn,
        position=41,
        chain_hash="ab" * 32,
        settings=settings,
        map=then.map,
        board=then.board,
        players=forked_players(then, "acct-forker", sandbox=sandbox),
        effect=then.effect,
        vote=then.vote,
        secret=SECRET,
    )
    fork = Game()
    (event,) = fork.run(command)
    assert isinstance(event, GameForked)
    assert event.chain_hash == "ab" * 32
    state = fork.state
    assert (state.phase, state.turn, state.board, state.map) == (
        "running",
        then.turn,
        then.board,
        then.map,
    )
    assert (state.vote, state.effect, state.admins) == (then.vote, then.effect, ("acct-forker",))
    assert state.forked_from is not None
    assert state.forked_from == ForkedFrom(then.game_id, then.turn, 41, "ab" * 32)
    assert {p.id: p.vp for p in state.players.values()} == {
        p.id: p.vp for p in then.players.values()
    }
    holders = {p.id: p.accounts for p in state.players.values()}
    if sandbox:
        assert set(holders.values()) == {("acct-forker",)}
    else:
        assert holders == {p.id: p.accounts for p in then.players.values()}
    with refused(codes.GAME_EXISTS):
        fork.when(command)
