"""Skirmish Society's orders and requests to join forces, as functions of the game's state
(`SkirmishPlay`, with the room's facts it holds): a submission is checked line by line
and recorded whole, an invalid order with its reason (the resolution checks it again), and
refused only past its bounds. The room (server/game/decide/playing.py) checks the phase, who
acts and the lock window first.

Pure: no I/O, no clock.
"""

from collections import Counter

from msgspec.structs import replace

from projections.skirmish.state import SkirmishPlay
from rules.skirmish.effects import parse_effect
from rules.skirmish.joining import join_forces_problem
from rules.skirmish.orders import describe
from rules.skirmish.position import Position, Situation
from rules.skirmish.validate import CheckedOrder, check_submission
from schema import errors as codes
from schema.bounds import MAX_ORDER_TEXT, check_text
from schema.game_events import JoinForcesRequested, OrdersSubmitted, RecordedOrder
from schema.receipts import receipt
from schema.refusals import Conflict, NotAllowed, NotFound, QuotaExceeded

# rules.md, "Resubmissions are bounded": per player (each seat of a sandbox) and turn.
MAX_SUBMISSIONS = 100
MAX_ORDER_LINES = 1000
_JOIN_FORCES_CODES = {
    "itself": codes.JOIN_FORCES_WITH_ITSELF,
    "joined_before": codes.JOINED_FORCES_BEFORE,
    "too_large": codes.JOIN_FORCES_TOO_LARGE,
    "not_behind": codes.JOIN_FORCES_NOT_BEHIND,
}


def position_of(play: SkirmishPlay) -> Position:
    board = play.board
    return Position(armies=board.armies, control=board.control, farms=frozenset(board.farms))


def submit(play: SkirmishPlay, *, seat: str, text: str) -> OrdersSubmitted:
    """`seat`'s submission of `text` this turn, its account and receipt still to come
    (`signed`). Past a quota, a `QuotaExceeded` whose `retry_after` the room fills: when the
    turn resolves is its clock's."""
    text = check_text("the orders", text, MAX_ORDER_TEXT)
    sent = play.submissions.get(seat, ())
    if len(sent) >= MAX_SUBMISSIONS:
        raise _quota(f"{MAX_SUBMISSIONS} submissions")
    assert play.map is not None
    # In same-day voting the effect is not known yet: orders are checked without one now,
    # and checked again under the effect when the turn resolves.
    effect = play.effect if play.room.settings.voting_mode == "normal" else None
    board = play.map.board
    situation = Situation(board, position_of(play), parse_effect(effect) if effect else None)
    checked = check_submission(seat, text, board, situation)
    if sum(len(s.checked) for s in sent) + len(checked) > MAX_ORDER_LINES:
        raise _quota(f"{MAX_ORDER_LINES} order lines")
    return OrdersSubmitted(
        player_id=seat,
        turn=play.turn,
        text=text,
        account_id="",
        checked=[_recorded(c) for c in checked],
    )


def signed(
    submitted: OrdersSubmitted, *, game_id: str, account: str, nonce: bytes
) -> OrdersSubmitted:
    """A submission with the account that sent it and its receipt (schema/receipts.py), from
    the edge's `nonce`."""
    seat, turn, text = submitted.player_id, submitted.turn, submitted.text
    return replace(
        submitted,
        account_id=account,
        receipt=receipt(game_id, turn, seat, text, nonce),
        nonce=nonce.hex(),
    )


def _quota(bound: str) -> QuotaExceeded:
    """The refusal past a quota; orders already in stay, and the quota resets when the turn
    resolves, which is when to come back."""
    return QuotaExceeded(
        f"a player may send at most {bound} in a turn; your orders so far stand, the newest "
        "valid one for each army; the quota resets when the turn resolves",
        retry_after=None,
    )


def _recorded(checked: CheckedOrder) -> RecordedOrder:
    if checked.order is None:
        return RecordedOrder(checked.text, None, None, valid=False, reason=checked.reason)
    unit, kind, target, supported_from = describe(checked.order)
    return RecordedOrder(
        checked.text,
        unit,
        kind,
        valid=checked.reason is None,
        target=target,
        supported_from=supported_from,
        reason=checked.reason,
    )


def standing_orders(play: SkirmishPlay, seat: str) -> list[RecordedOrder]:
    """The orders of `seat` that stand this turn: the newest valid one for each army."""
    current: dict[str, RecordedOrder] = {}
    for submission in play.submissions.get(seat, ()):
        for order in submission.checked:
            if order.valid and order.unit is not None:
                current[order.unit] = order
    return list(current.values())


def join_forces(play: SkirmishPlay, *, seat: str, partner: str) -> JoinForcesRequested:
    """`seat`'s request this turn to join forces with `partner` (rules.md, "Joining forces")."""
    room = play.room
    other = room.seats.get(partner)
    if other is None or other.status != "active":
        raise NotFound(codes.PLAYER_NOT_FOUND, f"no such player in the game: {partner}")
    if other.banned:
        raise NotAllowed(
            codes.JOIN_FORCES_PARTNER_BANNED,
            f"{other.name} is banned from this game and cannot join forces",
        )
    in_game = {s: facts for s, facts in room.seats.items() if facts.status == "active"}
    counts = Counter(play.board.control.values())
    problem = join_forces_problem(
        seat,
        partner,
        territories={s: counts[s] for s in in_game},
        vp={s: play.vp_of(s) for s in in_game},
        joined_before={s for s in in_game if s in play.joined_forces},
        names={s: facts.name for s, facts in in_game.items()},
    )
    if problem is not None:
        raise Conflict(_JOIN_FORCES_CODES[problem.kind], problem.reason)
    return JoinForcesRequested(player_id=seat, with_player=partner, turn=play.turn)
