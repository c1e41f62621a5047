"""Commit and reveal (rules.md, "Receipts"): every player keeps the receipts of their
answers; after each resolution anyone reads the feed and checks each revealed submission
against the receipt its player was given."""

import msgspec
from msgspec.structs import replace

from client import verify_receipt
from schema.api import OrdersAccepted
from schema.game_events import OrdersSubmitted
from tests.api.game import ORDERS, ScriptedGame
from tests.api.support import Server, data


async def _revealed(game: ScriptedGame, turn: int) -> list[OrdersSubmitted]:
    """The submissions of `turn` as a spectator reads them in the feed."""
    feed = await game.api.events(game.game_id)
    return [
        msgspec.convert(data(e), OrdersSubmitted)
        for e in feed
        if e.type == "orders_submitted.v1" and data(e)["turn"] == turn
    ]


async def test_every_revealed_submission_matches_the_receipt_its_player_was_given(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    kept: dict[str, list[OrdersAccepted]] = {}
    for turn in ORDERS:
        # Each player keeps the answers to their submissions.
        for index, accepted in zip(ORDERS[turn], await game.submit(turn), strict=True):
            kept.setdefault(f"p{index + 1}", []).append(accepted)
        assert await _revealed(game, turn) == []
        await game.resolve()

        revealed = await _revealed(game, turn)
        assert sorted(s.player_id for s in revealed) == sorted(f"p{i + 1}" for i in ORDERS[turn])
        for submission in revealed:
            (accepted,) = [a for a in kept[submission.player_id] if a.turn == turn]
            assert submission.receipt == accepted.receipt
            assert submission.nonce == accepted.nonce
            assert verify_receipt(game.game_id, accepted, submission)
            # A text altered after the receipt, or moved to another player, would not verify.
            tampered = replace(submission, text=submission.text + ", XX H")
            assert not verify_receipt(game.game_id, accepted, tampered)
            assert not verify_receipt(game.game_id, accepted, replace(submission, player_id="p9"))
            assert not verify_receipt("another-game", accepted, submission)
    assert sum(len(answers) for answers in kept.values()) == sum(map(len, ORDERS.values()))
