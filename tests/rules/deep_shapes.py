"""Adjudication requests whose decisions depend on one another a thousand deep: a ring of
moves, a chain of moves into a held territory, a chain of supported moves, a chain of
reinforcements each cutting a support by dislodging. Each on an inline map built for it,
written compactly enough that the largest still fits an HTTP body (64 KiB)."""

import string
from collections.abc import Iterator
from itertools import pairwise, product
from typing import Any

from rules.skirmish.board import ORDER_KEYWORDS

Request = dict[str, Any]


def ids(count: int) -> list[str]:
    """`count` distinct two-character territory ids (none an order keyword)."""
    alphabet = string.ascii_uppercase + string.digits
    codes: Iterator[str] = (
        a + b for a, b in product(alphabet, repeat=2) if a + b not in ORDER_KEYWORDS
    )
    return [next(codes) for _ in range(count)]


def inline_map(
    territories: list[str], edges: list[tuple[str, str]], barracks: frozenset[str] = frozenset()
) -> dict[str, Any]:
    return {
        "name": "deep",
        "territories": [
            {"id": t, "name": t, **({"barracks": True} if t in barracks else {})}
            for t in territories
        ],
        "edges": [list(edge) for edge in edges],
    }


def _moves(sources: list[str], targets: list[str]) -> str:
    return ",".join(f"{a} > {b}" for a, b in zip(sources, targets, strict=True))


def ring(length: int, players: tuple[str, ...] = ("red",)) -> Request:
    """`length` armies in a ring of territories, each moving to the next one; the armies
    belong to `players` in turn. A circular movement: every army moves."""
    ring = ids(length)
    following = ring[1:] + ring[:1]
    armies = {t: players[k % len(players)] for k, t in enumerate(ring)}
    orders: dict[str, list[str]] = {}
    for k, player in enumerate(players):
        mine = range(k, length, len(players))
        orders[player] = [_moves([ring[i] for i in mine], [following[i] for i in mine])]
    return {
        "map": inline_map(ring, list(zip(ring, following, strict=True))),
        "players": {p: {} for p in players},
        "armies": armies,
        "orders": orders,
    }


def chain(length: int) -> Request:
    """`length` armies in a line, each but the last moving into the next one's territory;
    the last (another player's) holds. The first move bonks, and so does every one after."""
    line = ids(length)
    armies = dict.fromkeys(line[:-1], "red") | {line[-1]: "blue"}
    return {
        "map": inline_map(line, list(pairwise(line))),
        "players": {"red": {}, "blue": {}},
        "armies": armies,
        "orders": {"red": [_moves(line[:-1], line[1:])]},
    }


def supported_chain(length: int) -> Request:
    """A line of `length` armies of red and blue in turn, each but the last moving into
    the next one's territory with the support of an army beside the line; the last holds.
    The move into the last territory wins 2 to 1, so every move arrives and the army at
    the end dies."""
    territories = ids(2 * length)
    line, beside = territories[:length], territories[length:]
    edges = list(pairwise(line))
    for k in range(length - 1):
        edges += [(beside[k], line[k]), (beside[k], line[k + 1])]
    armies = {t: ("red", "blue")[k % 2] for k, t in enumerate(line)}
    armies |= {beside[k]: "green" for k in range(length - 1)}
    supports = ",".join(f"{beside[k]} S {line[k]} > {line[k + 1]}" for k in range(length - 1))
    orders: dict[str, list[str]] = {"green": [supports]}
    for player in ("red", "blue"):
        mine = [k for k in range(length - 1) if armies[line[k]] == player]
        orders[player] = [_moves([line[k] for k in mine], [line[k + 1] for k in mine])]
    return {
        "map": inline_map(territories, edges),
        "players": {"red": {}, "blue": {}, "green": {}},
        "armies": armies,
        "orders": orders,
    }


def reinforcement_chain(length: int) -> Request:
    """Barracks in a line, each held by a `guard` army that supports the hold of the
    previous one; every barracks is controlled by a player of its own (`r0`, `r1`, ...)
    who reinforces into it, supported by a `helper` army beside it. The last guard has no
    support: the reinforcement into it wins 2 to 1 and dislodges it, which cuts its
    support, so the reinforcement into the barracks before it wins too, and so on down
    the line: whether each one arrives depends on the next one."""
    territories = ids(2 * length)
    line, beside = territories[:length], territories[length:]
    edges = list(pairwise(line)) + list(zip(beside, line, strict=True))
    players = [f"r{k}" for k in range(length)]
    orders: dict[str, list[str]] = {p: [f"REF to {line[k]}"] for k, p in enumerate(players)}
    orders["guard"] = [",".join(f"{line[k + 1]} S {line[k]}" for k in range(length - 1))]
    orders["helper"] = [",".join(f"{beside[k]} S REF > {line[k]}" for k in range(length))]
    return {
        "map": inline_map(territories, edges, frozenset(line)),
        "players": {p: {} for p in (*players, "guard", "helper")},
        "armies": dict.fromkeys(line, "guard") | dict.fromkeys(beside, "helper"),
        "control": dict(zip(line, players, strict=True)),
        "orders": orders,
    }
