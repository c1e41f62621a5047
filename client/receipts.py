"""Checking a receipt (rules.md, "Receipts"): keep each OrdersAccepted answer, and once its
turn has resolved, check the submission the feed reveals against it."""

from schema.api import OrdersAccepted
from schema.game_events import OrdersSubmitted
from schema.receipts import verify


def verify_receipt(game_id: str, accepted: OrdersAccepted, revealed: OrdersSubmitted) -> bool:
    """Whether `revealed`, a submission of game `game_id` as the feed shows it after its
    turn resolved, is exactly the one the server acknowledged with `accepted`."""
    return (
        revealed.nonce is not None
        and revealed.turn == accepted.turn
        and verify(
            accepted.receipt,
            game_id,
            revealed.turn,
            revealed.player_id,
            revealed.text,
            revealed.nonce,
        )
    )
