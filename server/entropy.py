"""Where games' secrets come from (rules.md: "nobody's to know in advance"). Nothing else
in the server draws a game's randomness, so that tests can inject a fixed source, as they
inject the clock."""

import secrets
from collections.abc import Callable

SECRET_BYTES = 32
# Fresh random bytes for one game's secret.
Entropy = Callable[[], bytes]


def system_entropy() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)
