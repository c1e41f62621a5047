"""Receipts for order submissions (rules.md, "Receipts"): a commitment the player is given
when the server accepts their orders, checked against the submission revealed once the turn
resolves. Pure and standalone, so that any client can reproduce it.

The receipt is the SHA-256, in lowercase hex, of these six fields in this order, each
written as its length in bytes (4 bytes, big-endian) followed by the bytes themselves:

1. `skirmish-society/receipt/v1` (ASCII): what is hashed, and in which version;
2. the game id, UTF-8;
3. the turn, in decimal ASCII digits (`7`);
4. the player id, UTF-8;
5. the submission's text exactly as recorded (`orders_submitted.v1`'s `text`), UTF-8;
6. the nonce's bytes (the `nonce` field is their lowercase hex).

The length prefixes make the encoding unambiguous whatever the texts hold."""

import hashlib
import hmac

DOMAIN = b"skirmish-society/receipt/v1"


def encode(game_id: str, turn: int, player_id: str, text: str, nonce: bytes) -> bytes:
    """The bytes a receipt hashes."""
    fields = (DOMAIN, game_id.encode(), str(turn).encode(), player_id.encode(), text.encode())
    return b"".join(len(f).to_bytes(4, "big") + f for f in (*fields, nonce))


def receipt(game_id: str, turn: int, player_id: str, text: str, nonce: bytes) -> str:
    return hashlib.sha256(encode(game_id, turn, player_id, text, nonce)).hexdigest()


def verify(given: str, game_id: str, turn: int, player_id: str, text: str, nonce: str) -> bool:
    """Whether `given`, the receipt a player was handed, commits to this submission, as
    revealed with its `nonce` (hex)."""
    try:
        raw = bytes.fromhex(nonce)
    except ValueError:
        return False
    return hmac.compare_digest(given.lower(), receipt(game_id, turn, player_id, text, raw))
