"""The bot's fixed words: enough distinct hints and quotes, and a complete cheat sheet."""

from pathlib import Path

import pytest

from projections.skirmish.hints import HINTS
from server.commands.text import DISCORD_LIMIT
from server.game.words import CHEAT_SHEET, QUOTES


@pytest.mark.parametrize("words", [HINTS, QUOTES])
def test_at_least_fifteen_distinct_short_entries(words: tuple[str, ...]) -> None:
    assert len(set(words)) == len(words) >= 15
    assert all(0 < len(w) <= 300 for w in words)


@pytest.mark.parametrize(
    "form",
    ["SI H", "SI hold", "EH to AE", "EH -> AE", "EH > AE", "FI S SI", "FI S SI H",
     "OG S RG to SI", "AE S REF to MA", "EH B", "EH build", "EH F", "EH farm",
     "REF to MA", "REF MA", "/submit BL S CR to SL, TR H"],
)  # fmt: skip
def test_the_cheat_sheet_shows_every_order_form(form: str) -> None:
    assert form in CHEAT_SHEET


def test_the_cheat_sheet_fits_one_message() -> None:
    assert len(CHEAT_SHEET) <= DISCORD_LIMIT


DOCS = Path(__file__).parents[2] / "docs"


def test_the_rules_page_holds_the_cheat_sheet_word_for_word() -> None:
    """Where the two say the same thing they say it in the same words: the rules page
    quotes the cheat sheet whole."""
    rules = (DOCS / "rules.md").read_text()
    quoted = rules.split("```text\n", 1)[1].split("\n```", 1)[0]
    assert quoted == CHEAT_SHEET


def test_every_hint_agrees_with_the_rules_page_on_which_order_an_army_carries_out() -> None:
    rules = (DOCS / "rules.md").read_text()
    assert "Each army carries out its newest valid order" in rules
    assert not [h for h in HINTS if "replace" in h and "valid" not in h]
