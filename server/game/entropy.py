"""Where games' secrets and the nonces of order receipts come from (rules.md: "nobody's to
know in advance", "Receipts"). Nothing else in the server draws a game's randomness, so that
tests can inject a fixed source, as they inject the clock."""

import secrets
from collections.abc import Callable

SECRET_BYTES = 32
# Fresh random bytes: one game's secret, or one receipt's nonce.
Entropy = Callable[[], bytes]


def system_entropy() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)
