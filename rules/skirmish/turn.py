"""One turn, from a position and everyone's order texts to the next position and scores."""

from collections.abc import Mapping, Sequence

import msgspec

from rules.skirmish.board import GameMap
from rules.skirmish.effects import Effect
from rules.skirmish.position import REF, Position, Situation
from rules.skirmish.resolve import Resolution
from rules.skirmish.scoring import score_turn
from rules.skirmish.strengths import Explanation, explain_order
from rules.skirmish.validate import OrderBook, check_orders
from rules.skirmish.verdicts import OrderKind, Result


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


# Reports and deaths hold strings, numbers and an Explanation, which can form no reference
# cycle: `gc=False` spares the garbage collector from tracking one per order.
class OrderReport(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    player: str
    text: str
    unit: str | None
    kind: OrderKind | None
    result: Result
    target: str | None = None
    supported_from: str | None = None
    reason: str | None = None
    explanation: Explanation | None = None


class Death(msgspec.Struct, frozen=True, gc=False):
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
    resolution = Resolution(start.armies, book.army_orders, book.reinforcements, turn.effect)
    reports, farmed, built = _reports(book, resolution, explain)

    # The armies that left or died, then the arrivals: a dict keeps its order when a key is
    # deleted, and a key put back goes last, just as building it anew would place it.
    dislodged = resolution.dislodged_territories
    armies = dict(start.armies)
    dead = []
    if dislodged:
        dead = [Death(t, p) for t, p in start.armies.items() if t in dislodged]
        for territory in dislodged:
            del armies[territory]
    control = dict(start.control)
    arrivals = resolution.arrivals()
    for source, _, _ in arrivals:
        if source is not None:
            del armies[source]
    for _, target, player in arrivals:
        armies[target] = player
        control[target] = player
    farms = start.farms.union(built) if built else start.farms
    end = Position(armies=armies, control=control, farms=farms)

    # (`map` rather than comprehensions: both are nearly always empty.)
    player_of = start.armies.__getitem__
    scores = score_turn(
        vp_before=turn.vp,
        end=end,
        barracks=board.barracks,
        farmed=map(player_of, farmed),
        built=map(player_of, built),
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


def _reports(
    book: OrderBook, resolution: Resolution, explain: bool
) -> tuple[list[OrderReport], list[str], list[str]]:
    """One report per submitted order; and, found on the way, the armies whose farm and
    build orders succeeded."""
    army_orders, reinforcements = book.army_orders, book.reinforcements
    any_replaced = book.any_replaced
    reports: list[OrderReport] = []
    farmed: list[str] = []
    built: list[str] = []
    for checked in book.checked:
        order, reason = checked.order, checked.reason
        if order is None:
            reports.append(
                OrderReport(checked.player, checked.text, None, None, "invalid", reason=reason)
            )
            continue
        unit, kind, target, supported_from = order.shown()
        result: Result
        explanation = None
        if reason is not None:
            result = "invalid"
        # Replaced, unless it is the very order the book keeps for its army (or its
        # player's reinforcement).
        elif (
            any_replaced
            and (reinforcements.get(checked.player) if unit == REF else army_orders.get(unit))
            is not order
        ):
            result = "replaced"
        else:
            result = order.result(resolution)
            if explain:
                explanation = explain_order(order, resolution)
            if result == "succeeded" and kind in _SCORED_KINDS:
                (farmed if kind == "farm" else built).append(unit)
        reports.append(
            OrderReport(
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
        )
    return reports, farmed, built


# The kinds of the orders that score when they succeed.
_SCORED_KINDS = frozenset(("farm", "build"))
