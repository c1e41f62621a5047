"""The registry of error codes (schema/errors.py): its document is up to date, and every
code in it is one the server can answer."""

import re
import subprocess
import sys
from pathlib import Path

from schema import errors
from schema.errors import CODES, ErrorCode

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("server", "projections", "eventstore", "rules")


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
