"""The registry of error codes (schema/errors.py): its document is up to date, and every
code in it is one the server can answer."""

import pickle
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from schema import errors
from schema.errors import CODES, ErrorCode, Refusal
from schema.refusals import OrdersLocked, QuotaExceeded, WrongTurn

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("server", "projections", "eventstore", "rules", "schema")


def test_docs_errors_md_is_what_the_registry_generates() -> None:
    generated = subprocess.run(
        [sys.executable, "-m", "schema.errors"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert generated == errors.markdown()
    written = (ROOT / "docs" / "errors.md").read_text()
    assert written == generated, "run: python -m schema.errors > docs/errors.md"


def test_each_entry_is_named_after_its_code() -> None:
    named = {name: value for name, value in vars(errors).items() if isinstance(value, ErrorCode)}
    assert {name.lower() for name in named} == set(CODES)
    assert all(name.lower() == entry.code for name, entry in named.items())


def test_every_registered_code_is_used() -> None:
    used: set[str] = set()
    for source in SOURCES:
        for path in (ROOT / source).rglob("*.py"):
            used.update(m.lower() for m in re.findall(r"\bcodes\.([A-Z_]+)\b", path.read_text()))
    assert set(CODES) - used == set(), "codes nothing answers with"
    assert used - set(CODES) == set()


def test_each_code_has_a_status_and_a_meaning() -> None:
    for entry in CODES.values():
        assert re.fullmatch(r"[a-z][a-z_]*", entry.code), entry
        assert 400 <= entry.status < 600, entry
        assert entry.meaning.endswith("."), entry


@pytest.mark.parametrize(
    "refusal",
    [
        Refusal(errors.TOO_MANY_HEAVY_READS, "wait for yours", retry_after=1),
        WrongTurn("the game is at turn 3, not 2"),
        OrdersLocked("orders are locked", datetime(2026, 11, 27, 12, 5, tzinfo=UTC)),
        QuotaExceeded("100 submissions", retry_after=60),
    ],
    ids=lambda refusal: type(refusal).__name__,
)
def test_a_refusal_comes_back_whole_from_another_process(refusal: Refusal) -> None:
    # The heavy reads run in worker processes, which send their refusals back pickled.
    back = pickle.loads(pickle.dumps(refusal))
    assert type(back) is type(refusal)
    assert (back.entry, back.message, back.retry_after, str(back)) == (
        refusal.entry,
        refusal.message,
        refusal.retry_after,
        str(refusal),
    )
    assert back.details() == refusal.details()
