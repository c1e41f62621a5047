"""Which orders are carried out (§3.2, §3.4, §3.5): every line is checked against the
position at the start of the turn; per territory the newest valid one counts."""

from typing import Literal

import msgspec

from rules.artofwar.board import Board
from rules.artofwar.orders import Hold, Move, Order, Place, Unreadable, parse, split_lines
from rules.artofwar.state import State

Kind = Literal["transfer", "attack", "hold", "place"]
Verdict = Literal["carried", "replaced", "invalid"]


class Line(msgspec.Struct):
    """One submitted order line and what the checks made of it."""

    player: str
    text: str
    kind: Kind | None = None
    source: str | None = None
    target: str | None = None
    units: int | None = None
    verdict: Verdict = "carried"
    reason: str | None = None


class CarriedMove(msgspec.Struct, frozen=True):
    player: str
    source: str
    target: str
    units: int
    line: int


class Checked(msgspec.Struct, frozen=True):
    lines: list[Line]
    # Source territory -> its move (transfer or attack); holds carry nothing.
    moves: dict[str, CarriedMove]
    # Territory -> units placed there (free placement).
    placements: dict[str, int]


def check_orders(
    board: Board, state: State, free_placement: bool, orders: dict[str, list[str]]
) -> Checked:
    """Every player's lines, in the order sent; `orders` maps a player to its submissions."""
    lines: list[Line] = []
    moves: dict[str, CarriedMove] = {}
    placements: dict[str, int] = {}
    for player, submissions in orders.items():
        parsed = [(text, parse(text, board)) for s in submissions for text in split_lines(s)]
        mine = [(len(lines) + n, order) for n, (_, order) in enumerate(parsed)]
        lines.extend(_line(state, player, text, order) for text, order in parsed)
        if state.players[player].status == "eliminated":
            for i, _ in mine:
                _invalid(lines[i], "an eliminated player gives no orders")
            continue
        # Placements first, so that a move may use units placed on its territory (P39).
        pool = state.pending_builds.get(player, 0) if free_placement else 0
        placed = _placements(lines, state, player, free_placement, pool, mine)
        placements.update(placed)
        carried: dict[str, tuple[int, Move | Hold]] = {}
        for i, order in mine:
            if isinstance(order, Place):
                continue
            if isinstance(order, Unreadable):
                _invalid(lines[i], order.reason)
                continue
            fault = _fault(board, state, player, order, placed.get(order.source, 0))
            if fault:
                _invalid(lines[i], fault)
                continue
            if order.source in carried:
                lines[carried[order.source][0]].verdict = "replaced"
            carried[order.source] = (i, order)
        for source, (i, kept) in carried.items():
            if isinstance(kept, Move):
                moves[source] = CarriedMove(player, source, kept.target, kept.units, i)
    return Checked(lines, moves, placements)


def _line(state: State, player: str, text: str, order: Order) -> Line:
    # isinstance, not `match`: every line of a turn comes here, and class patterns are slower.
    if isinstance(order, Move):
        kind: Kind = "transfer" if state.owners.get(order.target) == player else "attack"
        return Line(player, text, kind, order.source, order.target, order.units)
    if isinstance(order, Hold):
        return Line(player, text, "hold", order.source)
    if isinstance(order, Place):
        return Line(player, text, "place", None, order.target, order.units)
    return Line(player, text)


def _invalid(line: Line, reason: str) -> None:
    line.verdict = "invalid"
    line.reason = reason


def _fault(board: Board, state: State, player: str, order: Move | Hold, placed: int) -> str:
    """Why a move or hold is invalid (§3.2, in the table's order), or ""."""
    source = order.source
    if state.owners.get(source) != player:
        return f"not your territory: {source}"
    if isinstance(order, Hold):
        return ""
    if order.target not in board.neighbours[source]:
        return f"not adjacent: {source} to {order.target}"
    if order.units < 1:
        return f"at least 1 unit: {source}"
    present = state.units.get(source, 0) + placed
    if order.units > present:
        return f"only {present} units in {source}"
    return ""


def _placements(
    lines: list[Line],
    state: State,
    player: str,
    free: bool,
    pool: int,
    mine: list[tuple[int, Order]],
) -> dict[str, int]:
    """Units placed per territory by the carried placement lines (§3.5); sets the verdict of
    every placement line."""
    carried: dict[str, tuple[int, int]] = {}  # territory -> (line, units)
    for i, order in mine:
        if not isinstance(order, Place):
            continue
        others = sum(n for t, (_, n) in carried.items() if t != order.target)
        if not free:
            _invalid(lines[i], "no units to place")
        elif state.owners.get(order.target) != player:
            _invalid(lines[i], f"not your territory: {order.target}")
        elif order.units < 1:
            _invalid(lines[i], f"at least 1 unit: {order.target}")
        elif order.units + others > pool:
            _invalid(lines[i], f"only {pool - others} units to place")
        else:
            if order.target in carried:
                lines[carried[order.target][0]].verdict = "replaced"
            carried[order.target] = (i, order.units)
    return {territory: units for territory, (_, units) in carried.items()}
