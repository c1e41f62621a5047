"""A game's admins, and the log's record of a moderator reading secrets."""

from schema import errors as codes
from schema.commands import Actor, AddAdmin, BanPlayer, RecordPrivateRead, RemoveAdmin, StartGame
from schema.game_events import AdminAdded, AdminRemoved, PrivateEventsRead
from server.decide.admins import MAX_ADMINS
from tests.server.decide.given import (
    ADMIN,
    SECRET,
    T0,
    account,
    created,
    during,
    joined,
    refused,
    resolve,
    started,
)

# The Discord bot's client, through which a game may be set up.
BOT = "client_bot"


def test_an_admin_adds_and_removes_admins() -> None:
    game = started(3)
    assert game.run(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(account(1),))) == [
        AdminAdded(account_id=account(1))
    ]
    assert list(game.state.admins) == [ADMIN, account(1)]
    # The new admin may act as one, and remove the first.
    assert game.run(RemoveAdmin(actor=Actor(account(1)), now=T0, accounts=(ADMIN,))) == [
        AdminRemoved(account_id=ADMIN)
    ]
    assert list(game.state.admins) == [account(1)]
    with refused(codes.ADMIN_ONLY, "only an admin"):
        game.when(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(ADMIN,)))


def test_at_least_one_admin_always_remains() -> None:
    game = joined(3)
    with refused(codes.LAST_ADMIN, "keeps at least one admin"):
        game.when(RemoveAdmin(actor=Actor(ADMIN), now=T0, accounts=(ADMIN,)))
    game.run(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(account(1), account(2))))
    with refused(codes.LAST_ADMIN, "keeps at least one admin"):
        game.when(RemoveAdmin(actor=Actor(ADMIN), now=T0, accounts=(ADMIN, account(1), account(2))))


def test_adding_an_admin_twice_or_nobody_is_refused() -> None:
    game = joined(3)
    with refused(codes.ALREADY_ADMIN, "already an admin"):
        game.when(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(ADMIN,)))
    with refused(codes.NO_ACCOUNT_NAMED, "name the account"):
        game.when(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=()))
    with refused(codes.NOT_ADMIN, "not an admin"):
        game.when(RemoveAdmin(actor=Actor(ADMIN), now=T0, accounts=(account(3),)))


def test_a_game_has_a_bounded_number_of_admins() -> None:
    game = joined(3)
    others = tuple(f"acct-admin-{n}" for n in range(MAX_ADMINS - 1))
    game.run(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=others))
    with refused(codes.TOO_MANY_ADMINS, f"at most {MAX_ADMINS} admins"):
        game.when(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=("acct-one-more",)))


def test_a_trusted_client_vouches_for_admins_of_the_games_set_up_through_it() -> None:
    """The rulebook's admin role: a Discord bot vouches for a member who has it."""
    game = joined(3, client_id=BOT)
    moderator = "acct-moderator"
    start = StartGame(
        actor=Actor(moderator, vouched_by=BOT),
        now=T0,
        secret=SECRET,
    )
    assert len(game.when(start)) == 1
    with refused(codes.ADMIN_ONLY, "only an admin"):
        game.when(
            StartGame(
                actor=Actor(moderator, vouched_by="client_other"),
                now=T0,
                secret=SECRET,
            )
        )
    with refused(codes.ADMIN_ONLY, "only an admin"):
        game.when(StartGame(actor=Actor(moderator), now=T0, secret=SECRET))
    # A game set up without the client does not take its word.
    with refused(codes.ADMIN_ONLY, "only an admin"):
        joined(3).when(start)


def test_a_moderators_read_of_secrets_is_recorded_once_a_turn() -> None:
    game = started(3)
    (read,) = game.run(RecordPrivateRead(actor=Actor(ADMIN), now=during(1)))
    assert read == PrivateEventsRead(reader=ADMIN, turn=1)
    assert game.when(RecordPrivateRead(actor=Actor(ADMIN), now=during(1))) == []
    operator = RecordPrivateRead(
        actor=Actor("operator", operator=True),
        now=during(1),
    )
    assert game.run(operator) == [PrivateEventsRead(reader="operator", turn=1)]
    resolve(game)
    assert game.run(RecordPrivateRead(actor=Actor(ADMIN), now=during(2))) == [
        PrivateEventsRead(reader=ADMIN, turn=2)
    ]


def test_an_admin_who_plays_or_a_player_reads_no_secrets() -> None:
    game = started(3)
    game.run(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(account(1),)))
    for actor in (account(1), account(2)):
        with refused(codes.MODERATORS_ONLY, "admin who plays no seat"):
            game.when(RecordPrivateRead(actor=Actor(actor), now=during(1)))


def test_no_read_is_recorded_when_no_turn_is_pending() -> None:
    assert joined(3).when(RecordPrivateRead(actor=Actor(ADMIN), now=T0)) == []
    game = created(sandbox=True)
    assert game.when(RecordPrivateRead(actor=Actor(ADMIN), now=T0)) == []


def test_a_banned_admin_still_moderates_no_seat() -> None:
    game = started(3)
    game.run(AddAdmin(actor=Actor(ADMIN), now=T0, accounts=(account(1),)))
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p1"))
    with refused(codes.MODERATORS_ONLY, "admin who plays no seat"):
        game.when(RecordPrivateRead(actor=Actor(account(1)), now=during(1)))
