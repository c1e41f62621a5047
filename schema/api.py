"""The HTTP API's bodies and answers (docs/api.md). Client bodies refuse unknown fields, and
declare the bounds of schema/bounds.py: their decoder refuses a value out of bounds (422), and
/openapi.json shows each bound."""

import functools
import operator
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast, get_args

import msgspec
from msgspec import Meta

from rules.registry import DEFAULT_GAME
from rules.skirmish.effects import EffectName
from rules.skirmish.mapgen import MapType
from schema.bounds import (
    COLORS,
    MAX_MESSAGE,
    MAX_NAME,
    MAX_ORDER_TEXT,
    MAX_REASON,
    MAX_SEED,
    MAX_VOTE_START_TURN,
    MAX_VP_TARGET,
    PATTERNS,
)
from schema.events import Event, event_type
from schema.game_events import (
    GameEvent,
    OrdersSubmitted,
    Phase,
    RecordedOrder,
    RecordedPosition,
    TurnResolved,
    VoteFrequency,
    VotingMode,
)

Name = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=MAX_NAME,
        description="One line of printable text; surrounding spaces are trimmed",
    ),
]
GameName = Annotated[
    str, Meta(max_length=40, description="A game this server plays (`unknown_game` if not)")
]
Hour = Annotated[int, Meta(ge=0, le=23, description="An hour of the day, 0-23")]
VpTarget = Annotated[int, Meta(ge=1, le=MAX_VP_TARGET)]
Seed = Annotated[int, Meta(ge=0, le=MAX_SEED)]
Turn = Annotated[int, Meta(ge=1)]
# The longest step of the fake clock: it stops at every resolution on the way.
LONGEST_CLOCK_STEP = 7 * 24 * 3600


class Body(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A client's body. What it leaves at its default it leaves out, so that a client speaks
    to a server from before a field was added, which refuses fields it does not know."""


class ForkBody(Body, frozen=True):
    """Fork a game at the start of turn `turn`; a sandbox by default."""

    turn: int
    sandbox: bool = True
    # The fork's name; "<source's name> (fork, turn n)" when absent.
    name: Name | None = None


class NewGame(Body, frozen=True):
    """Advanced setup; every option but the name has the simple setup's default."""

    name: Name
    # The game to play (`GET /v1/games/{game}` names it back): Skirmish Society unless
    # told, or another game this server has (rules/registry.py), with its own options.
    game: GameName = DEFAULT_GAME
    options: Annotated[dict[str, Any], Meta(max_length=64)] = {}
    vp_target: VpTarget = 10
    map_type: MapType = "normal"
    map: str | None = None
    fast_mode: bool = False
    resolution_hour: Hour = 12
    # Sets the game's local time: the hour it is there now.
    current_hour: Hour | None = None
    votes: VoteFrequency = "every_other_turn"
    vote_start_turn: Annotated[int, Meta(ge=1, le=MAX_VOTE_START_TURN)] = 3
    voting_mode: VotingMode = "normal"
    hints: bool = True
    sandbox: bool = False
    broadcasting: bool = True
    seed: Seed | None = None


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
    """What an action appended: the event types, but for the notices it made (whether a
    player takes notices is theirs alone to know), and the position after them."""

    events: list[str]
    position: int


class Joined(Done, frozen=True):
    """A join: what it appended, and the caller's player id in the game."""

    player: str


class OrdersBody(Body, frozen=True):
    orders: Annotated[str, Meta(min_length=1, max_length=MAX_ORDER_TEXT)]
    # The turn the sender means: 409 if the game has moved on.
    turn: Turn | None = None
    # In a sandbox, the admin orders for any player.
    player: str | None = None


class OrdersAccepted(msgspec.Struct, frozen=True):
    turn: int
    orders: list[RecordedOrder]
    position: int
    # The submission's receipt and its nonce, both hex (schema/receipts.py): keep them to
    # check the submission the feed reveals once the turn resolves.
    receipt: str
    nonce: str

    @classmethod
    def of(cls, submitted: OrdersSubmitted, position: int) -> "OrdersAccepted":
        assert submitted.receipt is not None, "a new submission has its receipt"
        assert submitted.nonce is not None, "and its nonce"
        turn, orders = submitted.turn, submitted.checked
        return cls(turn, orders, position, submitted.receipt, submitted.nonce)


class MoveBody(Body, frozen=True):
    # The move, in the form its game gives (its docs): a JSON value of the body's size.
    move: Any
    # The turn the sender means: 409 if the game has moved on.
    turn: Turn | None = None
    # In a sandbox, the admin moves for any seat.
    player: str | None = None


class VoteBody(Body, frozen=True):
    # An effect's name (GET /v1/effects), in any case; `LAND_GRAB` and `landgrab` work too.
    effect: str
    player: str | None = None


class JoinForcesBody(Body, frozen=True):
    with_player: str = msgspec.field(name="with")


class BroadcastBody(Body, frozen=True):
    message: Annotated[str, Meta(min_length=1, max_length=MAX_MESSAGE)]


class PlayerPatch(Body, frozen=True):
    color: Annotated[int, Meta(ge=1, le=COLORS)] | None = None
    pattern: Annotated[int, Meta(ge=1, le=PATTERNS)] | None = None
    name: Name | None = None
    notifications: bool | None = None
    player: str | None = None


class SettingsPatch(Body, frozen=True):
    fast_mode: bool | None = None
    resolution_hour: Hour | None = None
    current_hour: Hour | None = None
    broadcasting: bool | None = None
    vp_target: VpTarget | None = None


class RewindBody(Body, frozen=True):
    """Why: shown to every player with the rewind (`turn_rewound.v1`), and kept in the
    archive. The reason, and the whole body, may be left out."""

    reason: Annotated[str, Meta(max_length=MAX_REASON)] | None = None


class BanBody(Body, frozen=True):
    """The player to ban or unban, by id (`p2`); to unban someone whom a ban removed in the
    join phase, their account's id."""

    player: str


class NewAdmin(Body, frozen=True):
    """Give exactly one: a player of the game (all its accounts), or an account id."""

    player: str | None = None
    account: str | None = None


class FeedEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """An event as a reader may see it; `type` is its tag (`orders_submitted.v1`). Each tag
    has a subclass of its own (FEED_EVENTS) whose `data` is typed as that event, so that the
    schema says what `data` holds for each; `data` itself is the event as the reader may see
    it (projections/visibility.py: a secret not yet revealed is left out)."""

    position: int
    version: int
    at: datetime
    data: dict[str, Any]
    # Only moderators see who acted.
    actor: str | None = None
    # The event's link in the game's hash chain (hex): keep the last one read to anchor a
    # later verification on it (GET /v1/games/{game}/verify?expected_head=).
    hash: str | None = None

    @property
    def type(self) -> str:
        """The event's tag, the JSON's `type`."""
        return cast(str, self.__struct_config__.tag)


def _feed_event_type(event: type[Event]) -> type[FeedEvent]:
    tagged = msgspec.defstruct(
        f"{event.__name__}FeedEvent",
        [("data", event)],
        bases=(FeedEvent,),
        tag=event_type(event),
        frozen=True,
        kw_only=True,
        module=__name__,
    )
    return cast(type[FeedEvent], tagged)


# The feed's form of every event type, by tag.
FEED_EVENTS: dict[str, type[FeedEvent]] = {
    event_type(event): _feed_event_type(event) for event in get_args(GameEvent)
}
# A FeedEvent as its schema knows it: one of FEED_EVENTS, told apart by `type`. (For mypy,
# which cannot follow a union built at run time, the common base.)
if TYPE_CHECKING:
    AnyFeedEvent = FeedEvent
else:
    AnyFeedEvent = functools.reduce(operator.or_, FEED_EVENTS.values())


class EventPage(msgspec.Struct, frozen=True):
    events: list[AnyFeedEvent]
    # Pass as `after` to read on.
    position: int
    # Whether the game has stored events after `position` (some may be hidden from you).
    has_more: bool


class TurnView(msgspec.Struct, frozen=True):
    turn: int
    start_board: RecordedPosition
    effect: EffectName | None
    # Everything the turn produced; null while it is being played.
    resolution: TurnResolved | None
    # The game's last event that this answer takes into account (at least the game's
    # position when the call came in).
    position: int


class PlayTurn(msgspec.Struct, frozen=True):
    """A turn of a game run by its definition (rules/game.py), as its reader may see it."""

    turn: int
    # The game's `view` at the start of the turn, for the reader's seats (none: anyone's).
    play: Any
    # The game's own events (tagged) of the step that began the turn: the move or the
    # resolution of the turn before, the setup's for the game's first turn, none for a fork's.
    events: list[dict[str, Any]]
    # The last event of the game that the start of the turn folds in.
    position: int


class ArchivedTruncation(msgspec.Struct, frozen=True):
    truncation_id: int
    after_version: int
    truncated_by: str
    reason: str
    truncated_at: datetime
    events: list[AnyFeedEvent]


class Archive(msgspec.Struct, frozen=True):
    truncations: list[ArchivedTruncation]


class CommandBody(Body, frozen=True):
    text: str


class CommandReply(msgspec.Struct, frozen=True):
    reply: str
    ok: bool
    result: dict[str, Any] | None = None


class ClockBody(Body, frozen=True):
    advance_seconds: Annotated[float, Meta(ge=0, le=LONGEST_CLOCK_STEP)] | None = None
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


class ReadModelLag(msgspec.Struct, frozen=True):
    """How far the read models are behind the event log (docs/operations.md)."""

    # Events committed that they have not applied (counted up to 100,000).
    events: int
    # The age of the oldest of those, by the server's clock.
    seconds: float
    # Behind by more than the server allows (seconds over 10): the status is "degraded".
    lagging: bool


class Health(msgspec.Struct, frozen=True):
    # "degraded" while some game's read models fail, they lag, or a background loop of this
    # process is not running: the server still serves (200).
    status: Literal["ok", "degraded"]
    database: Literal["ok"]
    # The failing games, the oldest failures first (at most 100 listed).
    read_models: Literal["ok"] | list[FailingGame]
    lag: ReadModelLag
    # This process's background loops that are not running ("the scheduler", ...).
    stopped: list[str]


class WebhookBody(Body, frozen=True):
    url: str


class WebhookSet(msgspec.Struct, frozen=True):
    url: str
    # Signs every delivery (header X-Skirmish-Signature: sha256=HMAC of the body); shown
    # only now.
    secret: str
    # Set through the trusted client the game was set up through (its bot, which DMs each
    # player their own): also receives players' reminders (docs/api.md, "Webhooks").
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
