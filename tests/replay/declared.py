"""The replay corpus's declared changes: differences a rules change is meant to make, each
with its reason, which the corpus test lets through."""

import tomllib
from collections.abc import Iterable
from pathlib import Path

import msgspec

from schema.verification import TurnDifference


class DeclaredChange(msgspec.Struct, frozen=True):
    """A difference that is expected (a rules change meant to alter it), and why."""

    game: str
    turn: int
    reason: str


def load_declared(path: Path) -> list[DeclaredChange]:
    """The declared changes of a TOML file: `[[change]]` tables of `game`, `turn`, `reason`."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return msgspec.convert(data.get("change", []), list[DeclaredChange])


def undeclared(
    differences: Iterable[TurnDifference], declared: Iterable[DeclaredChange]
) -> list[TurnDifference]:
    """The differences no declared change expects."""
    expected = {(change.game, change.turn) for change in declared}
    return [d for d in differences if (d.game_id, d.turn) not in expected]
