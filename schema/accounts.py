"""Who calls: accounts, their tokens, trusted clients, and `GET /v1/me` (docs/api.md,
"Identity")."""

from datetime import datetime

import msgspec

from schema.api import Body, Name
from schema.game_events import Phase, PlayerStatus


class NewAccount(Body, frozen=True):
    name: Name


class AccountCreated(msgspec.Struct, frozen=True):
    account_id: str
    token: str


class TokenInfo(msgspec.Struct, frozen=True):
    """One of an account's tokens, as listed: never the token itself."""

    id: str
    # The device it is for, as its owner named it.
    name: str
    created_at: datetime
    # When it was last used, to the hour (null if never since it was made).
    last_used_at: datetime | None


class TokenList(msgspec.Struct, frozen=True):
    tokens: list[TokenInfo]


class NewToken(Body, frozen=True):
    name: Name


class TokenCreated(msgspec.Struct, frozen=True):
    """A new token: `token` is shown now and never again."""

    id: str
    name: str
    created_at: datetime
    token: str


class MyGame(msgspec.Struct, frozen=True):
    """A game the caller plays, administers or is invited to, from the read models."""

    id: str
    name: str
    phase: Phase
    turn: int
    # The seat the caller plays; null for an admin who plays none, and in a sandbox, where
    # the admin plays every seat.
    player: str | None
    player_status: PlayerStatus | None
    admin: bool
    # Of the game's last event that the read models hold (compare a game's `position`).
    position: int
    # A real fork waiting for its start: the seat the caller is invited to claim (POST
    # /v1/games/{game}/claim) or decline (POST .../decline); null otherwise.
    invited_to: str | None = None


class ClientUser(msgspec.Struct, frozen=True):
    """For a trusted client's user: the client and the user's id there."""

    client_id: str
    external_id: str
    # The client vouches for the user as an admin on this call (X-Acting-User-Admin).
    vouched_admin: bool


class Me(msgspec.Struct, frozen=True):
    account_id: str
    name: str
    operator: bool
    # Set for a trusted client's user, who acts through the client and has no token of
    # their own.
    client: ClientUser | None
    games: list[MyGame]
    # Pass as `after` for the next page of games; null on the last one.
    next: str | None


class NewClient(Body, frozen=True):
    name: Name


class ClientCreated(msgspec.Struct, frozen=True):
    """A trusted client's token, made or rotated: shown now and never again."""

    client_id: str
    token: str


class ClientInfo(msgspec.Struct, frozen=True):
    """A trusted client, as the operator lists it: never its token."""

    client_id: str
    name: str
    created_at: datetime
    # When its token was last replaced (POST /v1/clients/{client_id}/rotate), or null.
    rotated_at: datetime | None
    # When its token was taken away (DELETE /v1/clients/{client_id}); null while it has one.
    revoked_at: datetime | None
    # How many of its users have an account (made on first sight of each).
    users: int


class ClientList(msgspec.Struct, frozen=True):
    clients: list[ClientInfo]
