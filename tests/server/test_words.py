"""The bot's fixed words: enough distinct hints and quotes, and a complete cheat sheet."""

import random

import pytest

from server.textcommands.text import DISCORD_LIMIT
from server.words import CHEAT_SHEET, HINTS, QUOTES, pick


@pytest.mark.parametrize("words", [HINTS, QUOTES])
def test_at_least_fifteen_distinct_short_entries(words: tuple[str, ...]) -> None:
    assert len(set(words)) == len(words) >= 15
    assert all(0 < len(w) <= 300 for w in words)


def test_pick_takes_its_randomness_from_the_generator_it_is_given() -> None:
    first = [pick(HINTS, random.Random(7)) for _ in range(3)]
    assert len(set(first)) == 1
    seen = {pick(HINTS, random.Random(seed)) for seed in range(200)}
    assert seen == set(HINTS)


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
