"""One turn, from a position and everyone's order texts to the next position and scores."""

from collections.abc import Mapping, Sequence

import msgspec

from rules.board import GameMap
from rules.effects import Effect
from rules.orders import Build, Farm, Move, Order, Reinforce, describe
from rules.position import Position, Situation
from rules.resolve import Resolution
from rules.scoring import score_turn
from rules.strengths import Explanation
from rules.validate import CheckedOrder, check_orders
from rules.verdicts import Result


class TurnInput(msgspec.Struct, frozen=True):
    game_map: GameMap
    position: Position
    # Every player in the game, with its VP before this turn.
    vp: dict[str, int]
    # Per player, the submissions in the order they were sent; later orders replace
    # earlier ones for the same army.
    orders: Mapping[str, Sequence[str]]
    effect: Effect | None = None
    vp_target: int = 10
    resigned: frozenset[str] = frozenset()
    # Pairs whose join-forces requests take effect at the end of this turn.
    joins: tuple[tuple[str, str], ...] = ()


class OrderReport(msgspec.Struct, frozen=True, omit_defaults=True):
    player: str
    text: str
    unit: str | None
    kind: str | None
    result: Result
    target: str | None = None
    supported_from: str | None = None
    reason: str | None = None
    explanation: Explanation | None = None


class Death(msgspec.Struct, frozen=True):
    territory: str
    player: str


class TurnOutcome(msgspec.Struct, frozen=True):
    orders: list[OrderReport]
    position: Position
    dead: list[Death]
    vp: dict[str, int]
    vp_gained: dict[str, int]
    eliminated: list[str]
    winner: str | None
    # Joint players formed this turn: joint id -> the two players it replaced.
    joined: dict[str, tuple[str, str]]


def resolve_turn(turn: TurnInput, *, explain: bool = False) -> TurnOutcome:
    board = turn.game_map.board
    start = turn.position
    situation = Situation(board, start, turn.effect)
    book = check_orders(turn.orders, board, situation, turn.resigned)
    army_orders = book.army_orders()
    resolution = Resolution(start.armies, army_orders, book.reinforcements(), turn.effect)

    used = book.used_indices()
    reports = [
        _report(checked, index in used, resolution, explain)
        for index, checked in enumerate(book.checked)
    ]
    arrivals = resolution.arrivals()
    moved = {source for source, _, _ in arrivals}
    dislodged = resolution.dislodged_territories
    dead = [Death(t, p) for t, p in start.armies.items() if t in dislodged] if dislodged else []
    armies = {t: p for t, p in start.armies.items() if t not in moved and t not in dislodged}
    control = dict(start.control)
    for _, target, player in arrivals:
        armies[target] = player
        control[target] = player
    farmed: list[str] = []
    built: list[str] = []
    for unit, order in army_orders.items():
        if isinstance(order, (Farm, Build)) and order.result(resolution) == "succeeded":
            (farmed if isinstance(order, Farm) else built).append(unit)
    farms = start.farms.union(built) if built else start.farms
    end = Position(armies=armies, control=control, farms=farms)

    scores = score_turn(
        vp_before=turn.vp,
        start=start,
        end=end,
        barracks=board.barracks,
        farmed=[start.armies[unit] for unit in farmed],
        built=[start.armies[unit] for unit in built],
        effect=turn.effect,
        joins=turn.joins,
        resigned=turn.resigned,
        vp_target=turn.vp_target,
    )
    return TurnOutcome(
        orders=reports,
        position=scores.position,
        dead=dead,
        vp=scores.vp,
        vp_gained=scores.vp_gained,
        eliminated=scores.eliminated,
        winner=scores.winner,
        joined=scores.joined,
    )


def _report(
    checked: CheckedOrder, used: bool, resolution: Resolution, explain: bool
) -> OrderReport:
    """`used`: the order is the one its army (or its player's reinforcement) carries out."""
    order = checked.order
    reason = checked.reason
    if order is None:
        return OrderReport(checked.player, checked.text, None, None, "invalid", reason=reason)
    unit, kind, target, supported_from = describe(order)
    result: Result
    explanation = None
    if reason is not None:
        result = "invalid"
    elif not used:
        result = "replaced"
    else:
        result = order.result(resolution)
        if explain:
            explanation = _explain(order, resolution)
    return OrderReport(
        checked.player,
        checked.text,
        unit,
        kind,
        result,
        target,
        supported_from,
        reason,
        explanation,
    )


def _explain(order: Order, resolution: Resolution) -> Explanation:
    if isinstance(order, Reinforce):
        return resolution.explain_move(resolution.ref_into[order.target])
    if isinstance(order, Move):
        return resolution.explain_move(resolution.move_from[order.unit])
    return resolution.explain_stand(order.unit)
