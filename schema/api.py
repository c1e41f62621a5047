"""The HTTP API's bodies and answers (docs/api.md). Client bodies refuse unknown fields."""

from datetime import datetime
from typing import Any, Literal

import msgspec

from rules.mapgen import MapType
from schema.game_events import Phase, PlayerStatus, RecordedOrder, VoteFrequency, VotingMode


class Body(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class NewAccount(Body, frozen=True):
    name: str


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
    name: str


class TokenCreated(msgspec.Struct, frozen=True):
    """A new token: `token` is shown now and never again."""

    id: str
    name: str
    created_at: datetime
    token: str


class MyGame(msgspec.Struct, frozen=True):
    """A game the caller plays or administers, from the read models."""

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
    name: str


class ClientCreated(msgspec.Struct, frozen=True):
    client_id: str
    token: str


class NewGame(Body, frozen=True):
    """Advanced setup; every option but the name has the simple setup's default."""

    name: str
    vp_target: int = 10
    map_type: MapType = "normal"
    map: str | None = None
    fast_mode: bool = False
    resolution_hour: int = 12
    current_hour: int | None = None
    votes: VoteFrequency = "every_other_turn"
    vote_start_turn: int = 3
    voting_mode: VotingMode = "normal"
    hints: bool = True
    sandbox: bool = False
    broadcasting: bool = True
    seed: int | None = None


class GameSummary(msgspec.Struct, frozen=True):
    id: str
    name: str
    phase: Phase
    turn: int
    players: int
    position: int


class GameList(msgspec.Struct, frozen=True):
    games: list[GameSummary]
    # Pass as `after` for the next page; null on the last one.
    next: str | None


class Done(msgspec.Struct, frozen=True):
    """What an action appended: the event types, and the position after them."""

    events: list[str]
    position: int


class Joined(Done, frozen=True):
    """A join: what it appended, and the caller's player id in the game."""

    player: str


class OrdersBody(Body, frozen=True):
    orders: str
    # The turn the sender means: 409 if the game has moved on.
    turn: int | None = None
    # In a sandbox, the admin orders for any player.
    player: str | None = None


class OrdersAccepted(msgspec.Struct, frozen=True):
    turn: int
    orders: list[RecordedOrder]
    position: int


class VoteBody(Body, frozen=True):
    effect: str
    player: str | None = None


class JoinForcesBody(Body, frozen=True):
    with_player: str = msgspec.field(name="with")


class BroadcastBody(Body, frozen=True):
    message: str


class PlayerPatch(Body, frozen=True):
    color: int | None = None
    pattern: int | None = None
    name: str | None = None
    notifications: bool | None = None
    player: str | None = None


class SettingsPatch(Body, frozen=True):
    fast_mode: bool | None = None
    resolution_hour: int | None = None
    current_hour: int | None = None
    broadcasting: bool | None = None
    vp_target: int | None = None


class AdminBody(Body, frozen=True):
    """For `ban` and `unban`: the player; for `rewind`: why."""

    player: str | None = None
    reason: str | None = None


class NewAdmin(Body, frozen=True):
    """Give exactly one: a player of the game (all its accounts), or an account id."""

    player: str | None = None
    account: str | None = None


AdminAction = Literal["pause", "unpause", "resolve", "rewind", "ban", "unban", "kill"]


class FeedEvent(msgspec.Struct, frozen=True):
    position: int
    version: int
    type: str
    at: datetime
    data: dict[str, Any]
    # Only admins see who acted.
    actor: str | None = None


class EventPage(msgspec.Struct, frozen=True):
    events: list[FeedEvent]
    # Pass as `after` to read on.
    position: int
    # Whether the game has stored events after `position` (some may be hidden from you).
    has_more: bool


class TurnView(msgspec.Struct, frozen=True):
    turn: int
    start_board: dict[str, Any]
    effect: str | None
    # Everything the turn produced; null while it is being played.
    resolution: dict[str, Any] | None
    # The game's last event that this answer takes into account (at least the game's
    # position when the call came in).
    position: int


class ArchivedTruncation(msgspec.Struct, frozen=True):
    truncation_id: int
    after_version: int
    truncated_by: str
    reason: str
    truncated_at: datetime
    events: list[FeedEvent]


class Archive(msgspec.Struct, frozen=True):
    truncations: list[ArchivedTruncation]


class CommandBody(Body, frozen=True):
    text: str


class CommandReply(msgspec.Struct, frozen=True):
    reply: str
    ok: bool
    result: dict[str, Any] | None = None


class ClockBody(Body, frozen=True):
    advance_seconds: float | None = None
    set: datetime | None = None


class ClockNow(msgspec.Struct, frozen=True):
    now: datetime


class FailingGame(msgspec.Struct, frozen=True):
    """A game whose read models could not be written: its list entry, public view and turn
    history stay as they were until a retry succeeds (docs/operations.md)."""

    game: str
    # The event up to which its read models are being rewritten.
    version: int
    # The exception's class only: its message may quote a game's secrets, and is in the log.
    error: str
    since: datetime
    attempts: int


class Health(msgspec.Struct, frozen=True):
    # "degraded" while some game's read models fail: the server still serves (200).
    status: Literal["ok", "degraded"]
    database: Literal["ok"]
    # The failing games, the oldest failures first (at most 100 listed).
    read_models: Literal["ok"] | list[FailingGame]


class WebhookBody(Body, frozen=True):
    url: str


class WebhookSet(msgspec.Struct, frozen=True):
    url: str
    # Signs every delivery (header X-Skirmish-Signature: sha256=HMAC of the body); shown
    # only now.
    secret: str
    # Set by the operator or through a trusted client: also receives players' reminders.
    trusted: bool


class WebhookView(msgspec.Struct, frozen=True):
    url: str | None
    pending: int
    delivered: int
    failed: int
    trusted: bool
    # Why a delivery failed (its receiver's answer, a timeout, a refused address): of those
    # that did, the one to be tried last.
    last_error: str | None
