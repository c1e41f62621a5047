"""The reply helpers: defused mentions, Discord's length limit, counts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.commands.text import DISCORD_LIMIT, clip, fit, ordinal, plural, safe

ZW = "\u200b"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("hello @everyone", f"hello @{ZW}everyone"),
        ("@HERE now", f"@{ZW}HERE now"),
        ("ask <@123> or <@!456>", f"ask <{ZW}@123> or <{ZW}@!456>"),
        ("the <@&789> role", f"the <{ZW}@&789> role"),
        ("/join_forces <@name or player id>", "/join_forces <@name or player id>"),
        ("mail me at ann@example.com", "mail me at ann@example.com"),
    ],
)
def test_safe_defuses_mentions_only(text: str, shown: str) -> None:
    assert safe(text) == shown


def test_fit_keeps_short_text_as_it_is() -> None:
    assert fit(["a", "b"]) == "a\nb"


def test_fit_cuts_at_whole_lines_and_says_how_many_were_left_out() -> None:
    lines = [f"line {i:03d} " + "x" * 90 for i in range(100)]
    text = fit(lines)
    assert len(text) <= DISCORD_LIMIT
    kept = text.split("\n")
    assert kept[:-1] == lines[: len(kept) - 1]
    assert kept[-1] == f"... and {100 - (len(kept) - 1)} more lines"


def test_fit_cuts_a_single_overlong_line() -> None:
    text = fit(["y" * 5000, "z"])
    assert len(text) == DISCORD_LIMIT
    first, note = text.split("\n")
    assert first.startswith("yyy")
    assert first.endswith("y...")
    assert note == "... and 2 more lines"


def test_clip() -> None:
    assert clip("short", 10) == "short"
    assert clip("a" * 20, 10) == "aaaaaaa..."


def test_ordinal_and_plural() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th",
    ]  # fmt: skip
    assert plural(1, "army", "armies") == "1 army"
    assert plural(2, "army", "armies") == "2 armies"
    assert plural(0, "order") == "0 orders"


@given(st.lists(st.text(max_size=3000), max_size=30))
def test_fit_always_fits(lines: list[str]) -> None:
    assert len(fit(lines)) <= DISCORD_LIMIT
