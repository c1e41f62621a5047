"""Skor positions in the notation of docs/skor.md's worked examples, as contract states.

"red: c A4 x2, m* X1; blue: c B6" lists pieces (c civilian, m military, `*` moved this
turn, `x2` two alike). A position is the golden board of example E1 plus what a case adds:
the `turn` block (defaults as the examples' conventions say: fed, 0 spawns, 0 dice, upkeep
one per piece outside grace turns, production = available + upkeep), cultures (alien by
default), tech, structures, options and incoming Resource.
"""

from collections import Counter
from typing import Any

PLAYERS = ["red", "blue"]
KINDS = {"c": "civilian", "m": "military"}
LETTERS = {kind: letter for letter, kind in KINDS.items()}

# The board of example E1: `*` City, `$` Resource hex, `#` obstruction in the example's map.
GOLDEN_BOARD: dict[str, dict[str, Any]] = {
    "A0": {"kind": "city", "by": "red"},
    "A2": {"kind": "obstruction", "by": None},
    "A4": {"kind": "resource", "by": None},
    "A6": {"kind": "resource", "by": None},
    "A8": {"kind": "resource", "by": None},
    "A14": {"kind": "obstruction", "by": None},
    "B0": {"kind": "city", "by": "blue"},
    "B3": {"kind": "resource", "by": None},
    "B6": {"kind": "resource", "by": None},
    "B8": {"kind": "obstruction", "by": None},
    "B9": {"kind": "resource", "by": None},
    "B12": {"kind": "obstruction", "by": None},
}

Piece = tuple[str, str, str, bool]


def parse_pieces(text: str) -> Counter[Piece]:
    """(player, kind, hex, moved) of every piece the notation lists."""
    pieces: Counter[Piece] = Counter()
    for part in filter(None, (p.strip() for p in text.split(";"))):
        player, listed = part.split(":")
        for item in filter(None, (i.strip() for i in listed.split(","))):
            words = item.split()
            letter, at = words[0], words[1]
            count = int(words[2][1:]) if len(words) > 2 else 1
            piece = (player.strip(), KINDS[letter.rstrip("*")], at, letter.endswith("*"))
            pieces[piece] += count
    return pieces


def pieces_of(state: dict[str, Any]) -> Counter[Piece]:
    return Counter((p["player"], p["kind"], p["at"], p["moved"]) for p in state["pieces"])


def state_of(position: dict[str, Any]) -> dict[str, Any]:
    pieces = parse_pieces(position["pieces"])
    turn = dict(position["turn"])
    number, player = turn["number"], turn["player"]
    grace = number <= 4
    upkeep = 0 if grace else sum(n for (p, *_), n in pieces.items() if p == player)
    available = turn.get("available", 0)
    defaults = {
        "grace": grace,
        "phase": "move",
        "production": available + upkeep,
        "upkeep": upkeep,
        "fed": True,
        "available": available,
        "spawns": 0,
        "alien_spawn": False,
        "dice": 0,
    }
    structures = dict(GOLDEN_BOARD)
    for at, (kind, by) in position.get("structures", {}).items():
        structures[at] = {"kind": kind, "by": by}
    return {
        "options": position.get("options", {}),
        "players": PLAYERS,
        "cultures": {"red": "alien", "blue": "alien"} | position.get("cultures", {}),
        "tech": position.get("tech", {}),
        "structures": structures,
        "pieces": [
            {"at": at, "player": p, "kind": kind, "moved": moved}
            for (p, kind, at, moved), n in pieces.items()
            for _ in range(n)
        ],
        "turn": defaults | turn,
        "incoming": position.get("incoming", {}),
        "generation": 0,
        "ending": position.get("ending"),
    }
