"""A real fork's invitations: claims, declines, its start, and what else a fork waiting for
its start refuses or does differently (joining, leaving, bans)."""

from schema import errors as codes
from schema.commands import (
    Actor,
    BanPlayer,
    ClaimSeat,
    DeclineSeat,
    JoinGame,
    Resign,
    StartGame,
)
from schema.game_events import ForkStarted, PlayerBanned, SeatClaimed, SeatDeclined
from tests.server.decide.given import (
    SECRET,
    T0,
    Game,
    account,
    at,
    forking,
    refused,
    resolve,
    started,
)

FORKER = account(1)


def _waiting(players: int = 3) -> Game:
    """A real fork of a game of `players` after its first turn, made by player 1, who is
    its admin (and invited too)."""
    source = started(players)
    resolve(source)
    fork = Game()
    fork.run(forking(source, sandbox=False, forker=FORKER))
    return fork


def _claim(game: Game, player: int) -> list[object]:
    return list(game.run(ClaimSeat(actor=Actor(account(player)), now=T0)))


def test_an_invited_player_claims_their_seat_once() -> None:
    fork = _waiting()
    assert _claim(fork, 2) == [SeatClaimed(player_id="p2", account_id=account(2))]
    state = fork.state
    assert state.players["p2"].accounts == (account(2),)
    assert "p2" not in state.invited
    assert state.invitation_of(account(3)) == "p3"
    with refused(codes.ALREADY_CLAIMED):
        _claim(fork, 2)
    with refused(codes.NOT_INVITED):
        fork.run(ClaimSeat(actor=Actor("acct-stranger"), now=T0))


def test_a_decline_is_for_good_and_gives_back_a_claimed_seat() -> None:
    fork = _waiting()
    declined = fork.run(DeclineSeat(actor=Actor(account(3)), now=T0))
    assert declined == [SeatDeclined(player_id="p3", account_id=account(3))]
    with refused(codes.NOT_INVITED):
        _claim(fork, 3)
    with refused(codes.NOT_INVITED):
        fork.run(DeclineSeat(actor=Actor(account(3)), now=T0))
    _claim(fork, 2)
    fork.run(DeclineSeat(actor=Actor(account(2)), now=T0))
    assert fork.state.players["p2"].accounts == ()
    # Leaving before the start gives the seat back the same way.
    _claim(fork, 1)
    assert fork.run(Resign(actor=Actor(FORKER), now=T0)) == [
        SeatDeclined(player_id="p1", account_id=FORKER)
    ]


def test_the_admin_starts_it_and_seats_nobody_claimed_play_as_resigned() -> None:
    fork = _waiting()
    _claim(fork, 1)
    _claim(fork, 3)
    with refused(codes.ADMIN_ONLY):
        fork.run(StartGame(actor=Actor(account(3)), now=T0, secret=SECRET))
    (started_event,) = fork.run(StartGame(actor=Actor(FORKER), now=at(5), secret=SECRET))
    assert started_event == ForkStarted(at=at(5), unclaimed=["p2"])
    state = fork.state
    assert (state.phase, state.invited, state.wait_began_at) == ("running", {}, at(5))
    assert state.next_resolution_at() is not None
    statuses = {p.id: (p.status, p.notifications) for p in state.players.values()}
    assert statuses == {"p1": ("active", True), "p2": ("resigned", False), "p3": ("active", True)}
    with refused(codes.WRONG_PHASE):
        _claim(fork, 2)
    with refused(codes.WRONG_PHASE):
        fork.run(StartGame(actor=Actor(FORKER), now=T0, secret=SECRET))


def test_nobody_joins_it_and_a_ban_keeps_the_seat() -> None:
    fork = _waiting()
    with refused(codes.FORK_NOT_JOINABLE):
        fork.run(JoinGame(actor=Actor("acct-stranger"), now=T0, name="Eve"))
    with refused(codes.CANNOT_BAN_YOURSELF):
        fork.run(BanPlayer(actor=Actor(FORKER), now=T0, player_id="p1"))
    banned = fork.run(BanPlayer(actor=Actor(FORKER), now=T0, player_id="p2"))
    assert banned == [PlayerBanned(account_id=account(2), player_id="p2")]
    assert len(fork.state.players) == 3
    assert fork.state.invitation_of(account(2)) is None
    with refused(codes.BANNED):
        _claim(fork, 2)


def test_a_game_that_is_no_waiting_fork_takes_no_claims() -> None:
    running = started(3)
    with refused(codes.WRONG_PHASE):
        running.run(ClaimSeat(actor=Actor(account(1)), now=T0))
    joining = Game(*running.events[:4])
    assert joining.state.phase == "joining"
    with refused(codes.NOT_INVITED):
        joining.run(DeclineSeat(actor=Actor(account(1)), now=T0))
