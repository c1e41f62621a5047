"""A typed, async Python client of the server's HTTP and websocket API (docs/client.md)."""

from client.errors import (
    ApiError,
    Conflict,
    Forbidden,
    Gone,
    Invalid,
    NotFound,
    RateLimited,
    TooLarge,
    Unauthorized,
    Unavailable,
    Unreachable,
)
from client.http import ActingUser
from client.live import Subscription
from client.receipts import verify_receipt
from client.skirmish import SkirmishClient

__all__ = [
    "ActingUser",
    "ApiError",
    "Conflict",
    "Forbidden",
    "Gone",
    "Invalid",
    "NotFound",
    "RateLimited",
    "SkirmishClient",
    "Subscription",
    "TooLarge",
    "Unauthorized",
    "Unavailable",
    "Unreachable",
    "verify_receipt",
]
