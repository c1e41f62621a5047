"""Hypothesis strategies of hostile values for the fuzz tests (test_fuzz.py): numbers and
strings at the edges of their types, any JSON, text of a parser's words in any order, and
moves of every form for the games run by their definitions, the Art of War and Skor."""

import json
from typing import Any

import msgspec
from hypothesis import strategies as st

from rules.artofwar.maps import builtin_board
from rules.skor.actions import KINDS
from rules.skor.board import NEIGHBOURS
from tests.api.game import OTHER_GAMES

Json = Any

# Numbers at the edges of every type. None between 2 s and two weeks, which as
# advance_seconds would move the fake clock and resolve every game on the way, slowly.
EDGES = [0, -1, 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]
NUMBERS = st.one_of(
    st.sampled_from(EDGES),
    st.integers(max_value=1),
    st.integers(min_value=2_000_000),
    st.floats(max_value=1.0),
    st.floats(min_value=2e6),
)
INTEGERS = st.one_of(st.sampled_from(EDGES), st.integers(-5, 30), st.integers())
PRINTABLE = st.characters(categories=("L", "M", "N", "P", "S")) | st.sampled_from(" ,\n")
STRINGS = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "NaN",
            "Infinity",
            "-Infinity",
            "1e999",
            "null",
            "0",
            "9" * 400,
            "x" * 20_000,
            "\x00",
            "line\nbreak",
            "\u202eevil",
            "🏳️‍🌈" * 100,
            "\ud800",
            "../../etc/passwd",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59+14:00",
            "2030-03-04T08:00:00",
            "rulebook",
            "p1",
            "p2",
            "FEAST",
            "http://127.0.0.1:9/hook",
        ]
    ),
    st.text(PRINTABLE, max_size=100),
    st.text(max_size=300),
)
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    NUMBERS,
    STRINGS,
    st.sampled_from([[], {}, [[[[]]]], {"a": {"b": {"c": None}}}]),
    st.lists(STRINGS, max_size=5),
)
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=20), inner),
    max_leaves=30,
)


def encoded(value: Json, ascii_only: bool) -> bytes:
    # A lone surrogate in a string is written as it is: not UTF-8 at all.
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def soup(words: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Text of the words in any order, with separators and bits of anything between: what
    gets past the checks to a parser."""
    return st.lists(
        st.one_of(
            words,
            st.sampled_from([",", "\n", "\r", " ", "  ", "->", ">", "-", "via", "(", '"', ";"]),
            st.text(PRINTABLE, max_size=8),
        ),
        max_size=30,
    ).map(" ".join)


# Resigning, or surrendering, would end the game, and the test's reach with it.
ACTIONS = sorted(set(KINDS) - {"resign"})
STANCES = ["no_mercy", "no mercy", "offer_mercy", "draw", "Draw", "peace", ""]
# The words of each game's moves: the Art of War's orders and stances, Skor's actions.
MOVE_WORDS = {
    "art-of-war": [
        "hold",
        *(f"stance {stance}" for stance in STANCES),
        *builtin_board(OTHER_GAMES["art-of-war"]["options"]["map"]).territories,
        *["to", "place", "all", *map(str, EDGES)],
    ],
    "skor": [
        *ACTIONS,
        *NEIGHBOURS,
        *["military", "civilian", "city", "farm", "road", "covert", *map(str, EDGES)],
    ],
}
# The fields of every form of move: Skor's actions, the Art of War's order objects and
# stances, Skor's setup choice; and one that no form has.
MOVE_FIELDS = sorted(
    {field.encode_name for kind in KINDS.values() for field in msgspec.structs.fields(kind)}
    | {"units", "territory", "stance", "draw_max", "culture", "side", "tech", "x"}
)


def moves(words: list[str]) -> st.SearchStrategy[Json]:
    """A move of any form, mostly the forms the games read with their words in them."""
    word = st.sampled_from(words)
    value = st.one_of(word, INTEGERS, ANYTHING, st.lists(word, max_size=5))
    fields = st.dictionaries(st.sampled_from(MOVE_FIELDS), value, max_size=3)
    tagged = st.tuples(
        st.sampled_from(["action", "kind"]),
        st.sampled_from([*ACTIONS, "move", "hold", "place", "resign!", ""]) | STRINGS,
        fields,
    ).map(lambda t: {t[0]: t[1], **t[2]})
    stance = st.fixed_dictionaries(
        {"stance": st.sampled_from(STANCES) | ANYTHING}, optional={"draw_max": INTEGERS}
    )
    text = soup(word)
    return st.one_of(
        tagged,
        # A word or three: some of them a move the game takes (`end`, `spawn`, `AK hold`).
        st.lists(word, min_size=1, max_size=3).map(" ".join),
        stance,
        text,
        fields,
        st.lists(st.one_of(text, tagged, fields), max_size=5),
        ANY_JSON,
        ANYTHING,
    )
