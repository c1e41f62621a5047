"""Skor's picture (docs/skor.md, "The board picture"): the 40 flat-topped hexes at their
axial coordinates (x = 1.5·q, y = √3·(r + q/2), §2.1), each structure's terrain, a City in its
player's colour, a built structure ringed in its builder's, the pieces in their owners'
colours (a disc a civilian, a square a military piece, side by side when two share a hex),
and a legend: whose turn it is, the cultures, and the dice of the last action."""

import math
from collections.abc import Callable, Mapping, Sequence

from rules.kit.picture import (
    INK,
    WHITE,
    Look,
    Picture,
    Point,
    Polygon,
    Shape,
    Text,
    colors,
    legend_row,
    regular,
)
from rules.skor.board import COORDS, HEXES, territory_of
from rules.skor.dice import DieRecord
from rules.skor.state import Piece, State, Structure

Colors = Callable[[str | None], str]
RADIUS = 36.0  # a hex's centre to its corners, in pixels
MARGIN = 24
ROW = 24
SHOWN_DICE = 8  # the legend's line holds no more
UNKNOWN = "#7c8587"
LAND = "#efe9d8"
BETWEEN = "#d9d2bd"  # X1 and X2, nobody's
# The terrain each kind of structure paints its hex with (a City: its player's colour).
TERRAIN: Mapping[str, str] = {
    "resource": "#e8c547",
    "obstruction": "#6e6a64",
    "farm": "#9fcf6a",
    "base": "#b59a7a",
    "fortification": "#8c7d6b",
    "debris": "#a7a29a",
    "turret": "#c77d5a",
    "road": "#d8c8a8",
}


def centre(name: str) -> Point:
    """A hex's centre in the picture's pixels."""
    q, r = COORDS[name]
    left = min(q for q, _ in COORDS.values())
    top = min(math.sqrt(3) * (r + q / 2) for q, r in COORDS.values())
    x = MARGIN + RADIUS + RADIUS * 1.5 * (q - left)
    y = MARGIN + RADIUS * math.sqrt(3) / 2 + RADIUS * (math.sqrt(3) * (r + q / 2) - top)
    return x, y


def _size() -> tuple[int, int]:
    xs = [centre(name)[0] for name in HEXES]
    ys = [centre(name)[1] for name in HEXES]
    return math.ceil(max(xs) + RADIUS + MARGIN), math.ceil(max(ys) + RADIUS + MARGIN)


def picture(
    game: State | None, dice: Sequence[DieRecord], looks: Mapping[str, Look]
) -> Picture | None:
    """The board and the dice of the last action; None before both players chose, since
    their choices make the board."""
    if game is None:
        return None
    color = colors(looks, UNKNOWN)
    width, height = _size()
    shapes: list[Shape] = []
    for name in HEXES:
        shapes += _hex(name, game.structures.get(name), color)
    for name in HEXES:
        shapes += _pieces(name, [p for p in game.pieces if p.at == name], color)
    rows = _legend(game, dice, looks, height)
    return Picture(
        width, height + ROW * (len(rows) + 1), WHITE, shapes + [s for r in rows for s in r]
    )


def _hex(name: str, structure: Structure | None, color: Colors) -> list[Shape]:
    at = centre(name)
    fill = LAND if territory_of(name) else BETWEEN
    if structure is not None:
        fill = color(structure.by) if structure.kind == "city" else TERRAIN[structure.kind]
    shapes: list[Shape] = [Polygon(regular(at, RADIUS - 1, 6), fill, INK, 1.5)]
    if structure is not None and structure.by is not None and structure.kind != "city":
        shapes.append(Polygon(regular(at, RADIUS - 6, 6), None, color(structure.by), 3.0))
    if structure is not None:
        shapes.append(Text((at[0], at[1] - 13), structure.kind, 9.5, bold=False))
    shapes.append(Text((at[0], at[1] + RADIUS * 0.78), name, 9, color="#5d5244", bold=False))
    return shapes


def _pieces(name: str, pieces: list[Piece], color: Colors) -> list[Shape]:
    x, y = centre(name)
    shapes: list[Shape] = []
    for k, piece in enumerate(pieces):
        at = (x + (k - (len(pieces) - 1) / 2) * 20, y + 8)
        # Ringed in white, to stand out on its own City too.
        if piece.kind == "civilian":
            ring, body = regular(at, 10, 16), regular(at, 7.5, 16)
        else:
            ring, body = regular(at, 12, 4, math.pi / 4), regular(at, 9, 4, math.pi / 4)
        shapes += [Polygon(ring, WHITE, INK, 1.5), Polygon(body, color(piece.player))]
    return shapes


def _legend(
    game: State, dice: Sequence[DieRecord], looks: Mapping[str, Look], top: int
) -> list[list[Polygon | Text]]:
    def name(seat: str) -> str:
        look = looks.get(seat)
        return look.name if look is not None else seat

    turn = game.turn
    if game.ending is not None:
        winner = game.ending.winner
        said = f"won by {name(winner)}" if winner is not None else "drawn"
        heading = f"Turn {turn.number}: the game is over, {said} ({game.ending.by})"
    else:
        phase = f", {turn.phase} phase" if turn.phase else ""
        heading = f"Turn {turn.number}: {name(turn.player)} to play{phase}"
    rows = [legend_row((MARGIN, top + ROW), None, heading)]
    for seat, territory in zip(game.players, ("A", "B"), strict=True):
        look = looks.get(seat, Look(seat, UNKNOWN))
        words = f"{look.name} ({seat}): {game.cultures.get(seat, '?')}, territory {territory}"
        rows.append(legend_row((MARGIN, top + ROW * (len(rows) + 1)), look.color, words))
    rows.append(legend_row((MARGIN, top + ROW * (len(rows) + 1)), None, _dice(dice)))
    return rows


def _dice(dice: Sequence[DieRecord]) -> str:
    if not dice:
        return "The last action rolled no dice"
    rolled = ", ".join(f"d{die.sides} {die.value} ({die.purpose})" for die in dice[:SHOWN_DICE])
    more = f" and {len(dice) - SHOWN_DICE} more" if len(dice) > SHOWN_DICE else ""
    return f"The last action's dice: {rolled}{more}"
