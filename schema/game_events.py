"""Everything that can happen to a game, as events. Tags are versioned and never change;
a new shape is a new tag (`*.v2`) or a new field with a default."""

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from rules.registry import DEFAULT_GAME
from rules.skirmish.board import GameMap
from rules.skirmish.effects import EffectName
from rules.skirmish.mapgen import MapType
from rules.skirmish.turn import Death, OrderReport
from rules.skirmish.verdicts import OrderKind
from schema.events import Event, EventCodec

Phase = Literal["joining", "running", "paused", "finished", "killed"]
PlayerStatus = Literal["active", "resigned", "eliminated"]
VoteFrequency = Literal["every_turn", "every_other_turn", "disabled"]
VotingMode = Literal["normal", "same_day"]


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's options, as advanced setup sets them."""

    name: str
    vp_target: int = 10
    map_type: MapType = "normal"
    # A built-in map by name instead of a generated one.
    map: str | None = None
    fast_mode: bool = False
    # The hour of the day, in the game's local time, at which turns resolve.
    resolution_hour: int = 12
    # Local time = UTC + utc_offset hours (set by giving the current local hour).
    utc_offset: int = 0
    votes: VoteFrequency = "every_other_turn"
    vote_start_turn: int = 3
    voting_mode: VotingMode = "normal"
    hints: bool = True
    sandbox: bool = False
    broadcasting: bool = True


class RecordedPosition(msgspec.Struct, frozen=True):
    """A `rules.skirmish.position.Position` as events record it, in the JSON form of
    docs/adjudicate.md: farms as a sorted list, so that its encoding is canonical."""

    armies: dict[str, str]
    control: dict[str, str]
    farms: list[str]


class RecordedOrder(msgspec.Struct, frozen=True, omit_defaults=True):
    """A `rules.skirmish.validate.CheckedOrder` as events record it: one order of a submission as
    validated when it was sent, by its army and kind rather than as a parsed order."""

    text: str
    unit: str | None
    kind: OrderKind | None
    valid: bool
    target: str | None = None
    supported_from: str | None = None
    reason: str | None = None


class Vote(msgspec.Struct, frozen=True):
    """A vote held during the period of `turn` between two effects."""

    turn: int
    candidates: tuple[EffectName, EffectName]
    tie_break: EffectName


class VoteOutcome(msgspec.Struct, frozen=True):
    vote: Vote
    tally: dict[EffectName, int]
    winner: EffectName
    # The turn whose resolution the winner changes.
    applies_to_turn: int


class GameCreated(Event, frozen=True, tag="game_created.v1"):
    game_id: str
    settings: Settings
    admin: str
    # Picks the generated map, nothing else: every other draw comes from the secret that
    # `game_started` commits to. (Games started before the secret existed draw from it.)
    seed: int
    at: datetime
    # The trusted client (a Discord bot) the game was set up through: it may vouch for
    # its users as admins of this game.
    client_id: str | None = None
    # The game played, and the version of its rules (rules/registry.py); games from before
    # the registry are Skirmish Society's first.
    game: str = DEFAULT_GAME
    game_version: int = 1
    # The game's own options (rules/game.py `check_options`); none for Skirmish Society,
    # whose options are `settings`.
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class PlayerJoined(Event, frozen=True, tag="player_joined.v1"):
    player_id: str
    account_id: str
    name: str
    color: int
    pattern: int


class PlayerLeft(Event, frozen=True, tag="player_left.v1"):
    """A player left in the join phase (resigned, or removed by a ban)."""

    player_id: str
    banned: bool = False


class GameStarted(Event, frozen=True, tag="game_started.v1"):
    # The map itself is recorded, so a game replays even if the generator changes.
    map: GameMap
    board: RecordedPosition
    # Home territories given to each player.
    homes: dict[str, tuple[str, ...]]
    at: datetime
    vote: Vote | None = None
    # The game's randomness (hex): every draw after the map comes from it. Hidden while
    # the game runs, revealed when it ends; `commitment` (its SHA-256, hex) is public.
    secret: str | None = None
    commitment: str | None = None


class OrdersSubmitted(Event, frozen=True, tag="orders_submitted.v1"):
    """One submission. Secret to its player until the turn resolves, then shown to all."""

    player_id: str
    turn: int
    text: str
    account_id: str
    checked: list[RecordedOrder]
    # The player's receipt (schema/receipts.py, hex) and its nonce (hex): fresh randomness
    # from the server's edge, so that nobody can check a guessed text against the receipt.
    # None in games recorded before receipts.
    receipt: str | None = None
    nonce: str | None = None


class VoteCast(Event, frozen=True, tag="vote_cast.v1"):
    """Public in normal mode; secret until resolution in same-day mode."""

    player_id: str
    turn: int
    effect: EffectName


class JoinForcesRequested(Event, frozen=True, tag="join_forces_requested.v1"):
    player_id: str
    with_player: str
    turn: int


class TurnResolved(Event, frozen=True, tag="turn_resolved.v1"):
    """Everything a turn produced, so that history reads without re-running the engine."""

    turn: int
    at: datetime
    effect: EffectName | None
    orders: list[OrderReport]
    board: RecordedPosition
    dead: list[Death]
    vp: dict[str, int]
    vp_gained: dict[str, int]
    eliminated: list[str]
    winner: str | None
    joined: dict[str, tuple[str, str]]
    vote_outcome: VoteOutcome | None
    next_vote: Vote | None
    next_effect: EffectName | None


class TurnRewound(Event, frozen=True, tag="turn_rewound.v1"):
    """An admin undid the resolution of `turn`; the events it removed are archived. It is
    public: `by` is the account that rewound, `reason` why, as they said (null if they gave
    none; both null in events recorded before they were).

    Rewinding a finished game, whose secret was revealed, gives it a new secret (and its
    commitment): the draws still to come must stay unknown."""

    turn: int
    at: datetime
    secret: str | None = None
    commitment: str | None = None
    by: str | None = None
    reason: str | None = None
    # How many rewinds the game has had, this one included: a later rewind may archive an
    # earlier one's event, so the count is carried on from one to the next.
    rewinds: int = 0


class PlayStarted(Event, frozen=True, tag="play_started.v1"):
    """A game run by its definition (rules/game.py) started: the events its setup made (the
    game's own, tagged), and the game's secret, as `game_started`'s."""

    at: datetime
    setup: list[dict[str, Any]]
    commitment: str
    secret: str | None = None


class MoveSealed(Event, frozen=True, tag="move_sealed.v1"):
    """A seat's move in a sealed wait (moves made at once, in secret): its own until the
    wait is resolved, then shown to all. A newer one of the same turn joins it as the game
    says (rules/game.py `seal`): in its place, or after it (the Art of War's submissions)."""

    player_id: str
    turn: int
    move: Any


# A step's own events, the game's (a JSON array of tagged objects), kept as their JSON: the
# room never reads them, and the game decodes them as its own types (projections/playing.py
# `step_events`). An Art of War turn's are some 90 kB, which as Python values cost more to
# make and read than the rest of its resolution. Read them as values with `event_values`.
StepEvents = Annotated[
    msgspec.Raw, msgspec.Meta(extra_json_schema={"type": "array", "items": {"type": "object"}})
]


class PlayRecorded(Event, frozen=True, tag="play_recorded.v1"):
    """One step of a game run by its definition, with the game's own events it made: a seat's
    move in its turn (`kind` "move"), a move played at once in a sealed wait ("act": a public
    message, a change of stance), the sealed moves of a wait resolved together
    ("resolution"), a wait whose time ran out ("timeout": the sealed moves that were in
    resolved together, or, with `player_id`, the game's move for the seat it waited for), or
    a seat leaving ("leave"). A move, a resolution or a timeout ends turn `turn`: rewinds and
    forks land between them. A step with an `audience` (a private message, the game's
    `Private`) is those seats' alone, for ever."""

    turn: int
    kind: Literal["move", "act", "resolution", "leave", "timeout"]
    events: StepEvents
    player_id: str | None = None
    move: Any = None
    # The rewinds of the game before this step: its draws' generation (rules/game.py Draws).
    generation: int = 0
    # The only seats that may ever see this step (sorted); None: everyone, once it is played.
    audience: list[str] | None = None
    # When the step was taken: a wait it begins is timed from then (None before clocks).
    at: datetime | None = None


class PlayerResigned(Event, frozen=True, tag="player_resigned.v1"):
    player_id: str


class PlayerBanned(Event, frozen=True, tag="player_banned.v1"):
    account_id: str
    player_id: str | None


class PlayerUnbanned(Event, frozen=True, tag="player_unbanned.v1"):
    account_id: str


class GamePaused(Event, frozen=True, tag="game_paused.v1"):
    at: datetime


class GameUnpaused(Event, frozen=True, tag="game_unpaused.v1"):
    at: datetime


class GameKilled(Event, frozen=True, tag="game_killed.v1"):
    at: datetime


class SettingsChanged(Event, frozen=True, tag="settings_changed.v1"):
    settings: Settings
    at: datetime


class PlayerLookChanged(Event, frozen=True, tag="player_look_changed.v1"):
    player_id: str
    name: str
    color: int
    pattern: int


class NotificationsChanged(Event, frozen=True, tag="notifications_changed.v1"):
    player_id: str
    enabled: bool


class PlayerNotified(Event, frozen=True, tag="player_notified.v1"):
    """What the bot would DM a player: a reminder before a resolution, their results after
    it, that another player sent them a private message, or, in a game run by its
    definition, that the game now waits for their move ("your_turn"; the text says until
    when). Private to that player."""

    player_id: str
    kind: Literal["reminder", "results", "message", "your_turn"]
    turn: int
    text: str


class MessageBroadcast(Event, frozen=True, tag="message_broadcast.v1"):
    """An anonymous public message; only the store's metadata knows its author."""

    message: str


class AdminAdded(Event, frozen=True, tag="admin_added.v1"):
    account_id: str


class AdminRemoved(Event, frozen=True, tag="admin_removed.v1"):
    account_id: str


class PrivateEventsRead(Event, frozen=True, tag="private_events_read.v1"):
    """A moderator (an admin who plays no seat, or the operator) read players' private
    events of `turn` before it resolved. Shown to everyone once the turn has resolved."""

    reader: str
    turn: int


class ForkedPlayer(msgspec.Struct, frozen=True):
    """A seat as a fork takes it over from its source game."""

    id: str
    name: str
    # Who holds the seat in the fork: the accounts that held it in the source (its admin,
    # in a sandbox); in a fork that invites (GameForked.invites), who is invited to it.
    accounts: tuple[str, ...]
    color: int
    pattern: int
    status: PlayerStatus
    vp: int
    has_joined_forces: bool


class ForkedFrom(msgspec.Struct, frozen=True):
    game: str
    turn: int
    # Where in the source's log, and its hash chain there (GameForked's); null in states
    # folded before they were kept.
    position: int | None = None
    chain_hash: str | None = None


class GameForked(Event, frozen=True, kw_only=True, tag="game_forked.v1"):
    """The first event of a game forked from another at the start of one of its turns: the
    game begins there with the source's board, seats, VP, effect and vote; running at once,
    unless it invites."""

    game_id: str
    source_game: str
    turn: int
    # The global position of the source's last event folded into the fork's state.
    position: int
    settings: Settings
    admin: str
    # Skirmish Society's map (null for the other games, whose state is `play`).
    map: GameMap | None
    board: RecordedPosition
    players: list[ForkedPlayer]
    effect: EffectName | None
    vote: Vote | None
    at: datetime
    # The fork's randomness (hex), and its SHA-256 (hex), as GameStarted's: always recorded,
    # hidden from the feed's readers while the game runs (so the feed's form may lack it).
    secret: str | None = None
    commitment: str
    # The hash (hex) of the source's event at `position` (eventstore/chain.py): the source's
    # history the fork came from, which `GET /verify` of the source shows is still there.
    # Null only in forks recorded before games had a hash chain.
    chain_hash: str | None = None
    # A real fork invites (rules.md, "Forks"): the accounts of `players` may claim their seat
    # (seat_claimed) or decline it (seat_declined), and the fork waits, in the join phase,
    # for its admin to start it (fork_started). False in a sandbox, and in the real forks
    # recorded before invitations, which seated those accounts, running at once.
    invites: bool = False
    # The source's game and version of its rules: a fork plays what its source played.
    game: str = DEFAULT_GAME
    game_version: int = 1
    # A game run by its definition (rules/game.py): its options, and its own state at `turn`.
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    play: Any = None


class SeatClaimed(Event, frozen=True, tag="seat_claimed.v1"):
    """An account invited to a seat of a real fork took it: it plays that seat."""

    player_id: str
    account_id: str


class SeatDeclined(Event, frozen=True, tag="seat_declined.v1"):
    """An account invited to a seat of a real fork declined it, or gave back the seat it had
    claimed (before the start): it is invited no more."""

    player_id: str
    account_id: str


class ForkStarted(Event, frozen=True, tag="fork_started.v1"):
    """A real fork's admin started it: its turn begins now, and the seats nobody claimed
    (`unclaimed`) play as resigned."""

    at: datetime
    unclaimed: list[str]


GameEvent = (
    GameCreated
    | PlayerJoined
    | PlayerLeft
    | GameStarted
    | OrdersSubmitted
    | VoteCast
    | JoinForcesRequested
    | TurnResolved
    | TurnRewound
    | PlayerResigned
    | PlayerBanned
    | PlayerUnbanned
    | GamePaused
    | GameUnpaused
    | GameKilled
    | SettingsChanged
    | PlayerLookChanged
    | NotificationsChanged
    | PlayerNotified
    | MessageBroadcast
    | AdminAdded
    | AdminRemoved
    | PrivateEventsRead
    | GameForked
    | SeatClaimed
    | SeatDeclined
    | ForkStarted
    | PlayStarted
    | MoveSealed
    | PlayRecorded
)

game_codec: EventCodec[GameEvent] = EventCodec(
    GameCreated,
    PlayerJoined,
    PlayerLeft,
    GameStarted,
    OrdersSubmitted,
    VoteCast,
    JoinForcesRequested,
    TurnResolved,
    TurnRewound,
    PlayerResigned,
    PlayerBanned,
    PlayerUnbanned,
    GamePaused,
    GameUnpaused,
    GameKilled,
    SettingsChanged,
    PlayerLookChanged,
    NotificationsChanged,
    PlayerNotified,
    MessageBroadcast,
    AdminAdded,
    AdminRemoved,
    PrivateEventsRead,
    GameForked,
    SeatClaimed,
    SeatDeclined,
    ForkStarted,
    PlayStarted,
    MoveSealed,
    PlayRecorded,
)
