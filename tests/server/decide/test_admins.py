"""A game's admins; the record of a moderator's read that older logs hold."""

from msgspec.structs import replace

from schema import errors as codes
from schema.commands import Actor, AddAdmin, RemoveAdmin, StartGame
from schema.game_events import AdminAdded, AdminRemoved, PrivateEventsRead
from server.game.decide.admins import MAX_ADMINS
from tests.server.decide.given import (
    ADMIN,
    SECRET,
    T0,
    account,
    joined,
    refused,
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


def test_an_old_log_with_a_moderators_read_still_folds_and_the_read_changes_nothing() -> None:
    # Older servers recorded a moderator's read of secrets; nobody reads them any more
    # (rules.md, "Decisions added after the second release"), but their logs still load.
    game = started(3)
    before = game.state
    game.given(PrivateEventsRead(reader=ADMIN, turn=1))
    assert game.state == replace(before, version=before.version + 1)
