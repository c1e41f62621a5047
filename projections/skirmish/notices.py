"""What Skirmish Society's bot tells each player: their results after a resolution, and a
reminder before it, as functions of the game's state (`SkirmishPlay`, with the room's
facts it holds) and plain values. The room says when, and to whom.

Pure: no I/O, no clock.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from projections.skirmish.hints import HINTS
from projections.skirmish.orders import standing_orders
from projections.skirmish.state import SkirmishPlay
from rules.kit.prng import derived
from rules.skirmish.turn import OrderReport
from schema.game_events import PlayerNotified, TurnResolved

# A message, not the record: the turn's results hold every order.
MAX_LISTED = 40
_MARKS = {"succeeded": "✓", "failed": "✗", "cut": "✗", "invalid": "✗", "replaced": "·"}


def results(
    play: SkirmishPlay, resolved: TurnResolved, recipients: Iterable[str]
) -> list[PlayerNotified]:
    """The results of each of `recipients` (the seats that take notices, in the room's
    order), sent with the resolution itself, so that none is ever lost; `play` is the game
    before it."""
    joint_of = {member: joint for joint, pair in resolved.joined.items() for member in pair}
    # Each player's orders and deaths, gathered once rather than sought for every player.
    orders: dict[str, list[OrderReport]] = {}
    for order in resolved.orders:
        orders.setdefault(order.player, []).append(order)
    dead: dict[str, list[str]] = {}
    for death in resolved.dead:
        dead.setdefault(death.player, []).append(death.territory)
    return [
        PlayerNotified(
            player_id=joint_of.get(seat, seat),
            kind="results",
            turn=resolved.turn,
            text=results_text(play, seat, resolved, orders.get(seat, []), dead.get(seat, [])),
        )
        for seat in recipients
    ]


def results_text(
    play: SkirmishPlay,
    seat: str,
    resolved: TurnResolved,
    mine: list[OrderReport],
    killed_in: list[str],
) -> str:
    """The results of `seat`: `mine`, its orders of the turn; `killed_in`, where armies of
    its died."""
    room = play.room
    lines = [f"{room.settings.name}: turn {resolved.turn} resolved."]
    for order in mine[:MAX_LISTED]:
        detail = "" if order.result == "succeeded" else f" ({order.reason or order.result})"
        lines.append(f"{_MARKS[order.result]} {order.text}{detail}")
    if len(mine) > MAX_LISTED:
        lines.append(f"... and {len(mine) - MAX_LISTED} more orders: see the turn's results.")
    if not mine:
        lines.append("You gave no orders: your armies held.")
    lines.extend(f"Your army in {territory} was killed." for territory in killed_in)
    joint = next((j for j, pair in resolved.joined.items() if seat in pair), None)
    me = joint or seat
    gained = resolved.vp_gained.get(seat, 0)
    lines.append(f"You have {resolved.vp.get(me, play.vp_of(seat))} VP (+{gained} this turn).")
    if joint is not None:
        lines.append(f"You joined forces: you now play as {joint}.")
    if resolved.next_effect:
        lines.append(f"Next turn's effect: {resolved.next_effect}.")
    if resolved.winner is not None:
        winner = room.seats.get(resolved.winner)
        lines.append(f"{winner.name if winner else resolved.winner} has won the game!")
    return "\n".join(lines)


def reminder(
    play: SkirmishPlay,
    *,
    seat: str,
    turn: int,
    resolves_at: datetime,
    randomness: bytes,
) -> str:
    """The reminder of `seat` that `turn` resolves at `resolves_at`: how many of its armies
    have orders, and, if the settings say so, a hint."""
    settings = play.room.settings
    local = resolves_at + timedelta(hours=settings.utc_offset)
    armies = sum(1 for owner in play.board.armies.values() if owner == seat)
    ordered = len(standing_orders(play, seat))
    text = (
        f"{settings.name}: turn {turn} resolves at {local:%H:%M} local time "
        f"({resolves_at:%H:%M} UTC). You have orders for {ordered} of your {armies} armies; "
        "the others will hold. Orders lock a few minutes before."
    )
    if not settings.hints:
        return text
    # Drawn from the game's randomness, so that the log says which hint each player got.
    hint = derived(randomness, "hints", turn, seat).choice(HINTS)
    return f"{text}\nHint: {hint}"
