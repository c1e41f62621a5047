"""Naming a player: id, name or @name, case-insensitive, spaces optional; mentions."""

import pytest

from projections.game import Player
from schema import errors as codes
from server.commands.lookup import mentioned_user
from server.game.decide.names import find_player
from tests.server.decide.given import refused

FIONA = Player("p1", "Fictitious Fiona", ("acct-1",), 1, 1)
BOB = Player("p2", "Bob", ("acct-2",), 2, 1)
JOINT = Player("p3/p4", "Cy/Dee", ("acct-3", "acct-4"), 3, 1)
PLAYERS = [FIONA, BOB, JOINT]


@pytest.mark.parametrize(
    ("reference", "player"),
    [
        ("p2", BOB),
        ("P2", BOB),
        ("@p2", BOB),
        ("Bob", BOB),
        ("@bob", BOB),
        ("  @BOB ", BOB),
        ("Fictitious Fiona", FIONA),
        ("@FictitiousFiona", FIONA),
        ("@fictitiousfiona", FIONA),
        ("cy/dee", JOINT),
        ("p3/p4", JOINT),
    ],
)
def test_find_player(reference: str, player: Player) -> None:
    assert find_player(PLAYERS, reference) == player


def test_an_id_wins_over_a_name() -> None:
    named_like_an_id = Player("p9", "p2", ("acct-9",), 9, 1)
    assert find_player([BOB, named_like_an_id], "p2") == BOB


def test_an_exact_name_wins_over_a_squeezed_one() -> None:
    spaced = Player("p5", "Ann Lee", ("acct-5",), 5, 1)
    squeezed = Player("p6", "AnnLee", ("acct-6",), 6, 1)
    assert find_player([spaced, squeezed], "@AnnLee") == squeezed
    assert find_player([spaced, squeezed], "ann lee") == spaced


def test_a_squeezed_name_that_fits_two_players_is_ambiguous() -> None:
    first = Player("p5", "Ann Lee", ("acct-5",), 5, 1)
    second = Player("p6", "AnnL ee", ("acct-6",), 6, 1)
    with refused(codes.PLAYER_AMBIGUOUS, r"could be any of Ann Lee \(p5\), AnnL ee \(p6\)"):
        find_player([first, second], "@annlee")


def test_an_unknown_name_lists_the_players() -> None:
    with refused(codes.PLAYER_NOT_FOUND) as raised:
        find_player(PLAYERS, "@Zed")
    assert raised.value.message == (
        "no player called Zed in this game (players: Fictitious Fiona, Bob, Cy/Dee)"
    )


@pytest.mark.parametrize("reference", ["@", "  ", "@ "])
def test_an_empty_reference_asks_for_a_player(reference: str) -> None:
    with refused(codes.PLAYER_UNNAMED, "name a player"):
        find_player(PLAYERS, reference)


@pytest.mark.parametrize(
    ("reference", "user"),
    [("<@123>", "123"), ("<@!456>", "456"), (" <@789> ", "789"), ("@Bob", None),
     ("<@abc>", None), ("<@&123>", None)],
)  # fmt: skip
def test_mentioned_user(reference: str, user: str | None) -> None:
    assert mentioned_user(reference) == user
