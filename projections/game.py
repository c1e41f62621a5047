"""The current state of a game, folded from its events: `evolve(state, event) -> state`.

Pure: no I/O, no clock. The state holds secrets (pending orders, same-day votes); what
may be shown to whom is decided in projections.visibility, never here.
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

import msgspec
from msgspec.structs import replace

from projections.schedule import (
    Due,
    earliest_after_unpause,
    earliest_resolution,
    orders_close,
    orders_open,
    reminder_lead,
    resolution_from,
    resolution_hour_utc,
)
from rules.board import GameMap
from rules.turn import OrderReport
from schema.commands import Actor
from schema.game_events import (
    AdminAdded,
    AdminRemoved,
    ForkedFrom,
    GameCreated,
    GameEvent,
    GameForked,
    GameKilled,
    GamePaused,
    GameStarted,
    GameUnpaused,
    JoinForcesRequested,
    MessageBroadcast,
    NotificationsChanged,
    OrdersSubmitted,
    Phase,
    PlayerBanned,
    PlayerJoined,
    PlayerLeft,
    PlayerLookChanged,
    PlayerNotified,
    PlayerResigned,
    PlayerStatus,
    PlayerUnbanned,
    PrivateEventsRead,
    RecordedPosition,
    Settings,
    SettingsChanged,
    TurnResolved,
    TurnRewound,
    Vote,
    VoteCast,
)

# Snapshots of GameState go by this name; a new name when the state's shape changes.
SNAPSHOT_NAME = "game-state.v2"


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    # The accounts that act for this player: one, or two for a joint player.
    accounts: tuple[str, ...]
    color: int
    pattern: int
    status: PlayerStatus = "active"
    banned: bool = False
    notifications: bool = True
    vp: int = 0
    has_joined_forces: bool = False

    @property
    def wants_notices(self) -> bool:
        return self.notifications and self.status == "active" and not self.banned


class GameState(msgspec.Struct, frozen=True):
    game_id: str = ""
    phase: Phase | Literal["new"] = "new"
    settings: Settings = Settings(name="")
    admins: tuple[str, ...] = ()
    # The trusted client the game was set up through (it may vouch for admins).
    client_id: str | None = None
    seed: int = 0
    # The game's secret randomness (hex) and its published SHA-256 (hex), from the start.
    secret: str | None = None
    commitment: str | None = None
    created_at: datetime | None = None
    players: dict[str, Player] = {}
    banned_accounts: frozenset[str] = frozenset()
    joined_so_far: int = 0
    map: GameMap | None = None
    board: RecordedPosition = RecordedPosition(armies={}, control={}, farms=[])
    turn: int = 0
    # When the current turn period began: the start, or the last resolution.
    turn_began_at: datetime | None = None
    # The next resolution is the first one at or after this moment (projections.schedule),
    # set by the start, a resolution, a rewind, an unpause or a change of schedule.
    earliest_resolution: datetime | None = None
    paused_at: datetime | None = None
    # This turn's submissions, per player, oldest first.
    submissions: dict[str, tuple[OrdersSubmitted, ...]] = {}
    vote: Vote | None = None
    ballots: dict[str, str] = {}
    effect: str | None = None
    join_requests: dict[str, str] = {}
    last_turn: TurnResolved | None = None
    winner: str | None = None
    # The last turn whose players were reminded that it resolves soon.
    reminded_turn: int = 0
    # The moderators whose read of this turn's private events is in the log already.
    private_readers: frozenset[str] = frozenset()
    # Where this state stands in its stream, and the versions of the resolutions in it
    # (a rewind truncates before the last one); set by `fold`, not by `evolve`.
    version: int = 0
    resolved_versions: tuple[int, ...] = ()
    # The game and turn this game was forked from, if it was.
    forked_from: ForkedFrom | None = None

    def player_of(self, account_id: str) -> Player | None:
        for player in self.players.values():
            if account_id in player.accounts and player.status != "eliminated":
                return player
        return None

    def is_admin(self, actor: Actor) -> bool:
        """The operator, an admin of the list, or a user whom the trusted client the game
        was set up through vouches for (a Discord bot, for a member with the admin role)."""
        return (
            actor.operator
            or actor.account in self.admins
            or (actor.vouched_by is not None and actor.vouched_by == self.client_id)
        )

    def plays(self, account_id: str) -> bool:
        """Whether the account acts for a seat of this game (eliminated or not)."""
        return any(account_id in p.accounts for p in self.players.values())

    def moderates(self, actor: Actor) -> bool:
        """May read players' secrets (rules.md): the operator, or an admin who plays no seat;
        an admin who plays sees what any player sees."""
        return actor.operator or (self.is_admin(actor) and not self.plays(actor.account))

    @property
    def randomness(self) -> bytes:
        """What every draw after the map derives from: the game's secret, or, for a game
        started before secrets existed, its seed."""
        if self.secret is not None:
            return bytes.fromhex(self.secret)
        return self.seed.to_bytes(8, "big")

    def last_turn_orders(self, player_id: str) -> list[OrderReport]:
        if self.last_turn is None:
            return []
        return [o for o in self.last_turn.orders if o.player == player_id]

    def next_resolution_at(self) -> datetime | None:
        if self.phase != "running" or self.earliest_resolution is None:
            return None
        return resolution_from(self.earliest_resolution, self.settings)

    def orders_open_at(self) -> datetime | None:
        """When this turn's orders open: the start, or the end of the lock window after the
        last resolution. None while no resolution is scheduled: in the join phase, paused
        (orders are taken then, with no lock), finished or killed."""
        if self.next_resolution_at() is None:
            return None
        if self.last_turn is None:
            return self.turn_began_at
        return orders_open(self.last_turn.at, self.settings)

    def orders_close_at(self) -> datetime | None:
        """When this turn's orders close: the lock window before its resolution begins.
        None while no resolution is scheduled."""
        resolves_at = self.next_resolution_at()
        return None if resolves_at is None else orders_close(resolves_at, self.settings)

    def next_reminder_at(self) -> datetime | None:
        """When this turn's reminders are due; None once sent, or if nobody wants one."""
        resolves_at = self.next_resolution_at()
        if resolves_at is None or self.reminded_turn >= self.turn:
            return None
        if not any(p.wants_notices for p in self.players.values()):
            return None
        return resolves_at - reminder_lead(self.settings)

    def due(self) -> Due:
        return Due(self.phase, self.turn, self.next_resolution_at(), self.next_reminder_at())


def fold(state: GameState, events: Iterable[tuple[int, GameEvent]]) -> GameState:
    """Apply (version, event) pairs in order."""
    for version, event in events:
        state = replace(evolve(state, event), version=version)
        if isinstance(event, TurnResolved):
            state = replace(state, resolved_versions=(*state.resolved_versions, version))
    return state


def evolve(state: GameState, event: GameEvent) -> GameState:
    match event:
        # Each case is an isinstance test, in order: the events of every turn come first (a
        # rebuild folds hundreds of thousands of them).
        case OrdersSubmitted():
            mine = (*state.submissions.get(event.player_id, ()), event)
            return replace(state, submissions={**state.submissions, event.player_id: mine})
        case PlayerNotified():
            if event.kind == "reminder" and event.turn > state.reminded_turn:
                return replace(state, reminded_turn=event.turn)
            return state
        case TurnResolved():
            return _resolved(state, event)
        case GameCreated():
            return replace(
                state,
                game_id=event.game_id,
                phase="joining",
                settings=event.settings,
                admins=(event.admin,),
                client_id=event.client_id,
                seed=event.seed,
                created_at=event.at,
            )
        case PlayerJoined():
            player = Player(
                event.player_id, event.name, (event.account_id,), event.color, event.pattern
            )
            return replace(
                state,
                players={**state.players, player.id: player},
                joined_so_far=state.joined_so_far + 1,
            )
        case PlayerLeft():
            players = dict(state.players)
            del players[event.player_id]
            return replace(state, players=players)
        case GameStarted():
            return replace(
                state,
                phase="running",
                map=event.map,
                board=event.board,
                turn=1,
                turn_began_at=event.at,
                earliest_resolution=earliest_resolution(event.at, state.settings),
                vote=event.vote,
                secret=event.secret,
                commitment=event.commitment,
            )
        case VoteCast():
            return replace(state, ballots={**state.ballots, event.player_id: event.effect})
        case JoinForcesRequested():
            requests = {**state.join_requests, event.player_id: event.with_player}
            return replace(state, join_requests=requests)
        case TurnRewound():
            # The resolution itself is gone from the stream; what remains is to forget the
            # votes of the turn, as rules.md says, and to reckon the next resolution from
            # now rather than from a resolution long past.
            state = replace(
                state,
                ballots={},
                earliest_resolution=earliest_resolution(event.at, state.settings),
            )
            if event.secret is None:
                return state
            return replace(state, secret=event.secret, commitment=event.commitment)
        case PlayerResigned():
            return _update_player(state, event.player_id, status="resigned", notifications=False)
        case PlayerBanned():
            state = replace(state, banned_accounts=state.banned_accounts | {event.account_id})
            if event.player_id is None:
                return state
            return _void_turn_of(
                _update_player(state, event.player_id, banned=True), event.player_id
            )
        case PlayerUnbanned():
            state = replace(state, banned_accounts=state.banned_accounts - {event.account_id})
            players = {
                pid: replace(p, banned=False) if event.account_id in p.accounts else p
                for pid, p in state.players.items()
            }
            return replace(state, players=players)
        case GamePaused():
            return replace(state, phase="paused", paused_at=event.at)
        case GameUnpaused():
            return replace(
                state,
                phase="running",
                paused_at=None,
                earliest_resolution=earliest_after_unpause(event.at, state.settings),
            )
        case GameKilled():
            return replace(state, phase="killed")
        case SettingsChanged():
            old, new = state.settings, event.settings
            # Local time only names the hour: a new time zone that keeps the resolution's
            # hour in UTC keeps the next resolution where it was (rules.md).
            moved = (old.fast_mode, resolution_hour_utc(old)) != (
                new.fast_mode,
                resolution_hour_utc(new),
            )
            if moved and state.earliest_resolution is not None:
                return replace(
                    state, settings=new, earliest_resolution=earliest_resolution(event.at, new)
                )
            return replace(state, settings=new)
        case PlayerLookChanged():
            return _update_player(
                state, event.player_id, name=event.name, color=event.color, pattern=event.pattern
            )
        case NotificationsChanged():
            return _update_player(state, event.player_id, notifications=event.enabled)
        case MessageBroadcast():
            return state
        case AdminAdded():
            return replace(state, admins=(*state.admins, event.account_id))
        case AdminRemoved():
            return replace(state, admins=tuple(a for a in state.admins if a != event.account_id))
        case PrivateEventsRead():
            return replace(state, private_readers=state.private_readers | {event.reader})
        case GameForked():
            return _forked(event)


def _update_player(state: GameState, player_id: str, **changes: object) -> GameState:
    player = replace(state.players[player_id], **changes)
    return replace(state, players={**state.players, player_id: player})


def _void_turn_of(state: GameState, player_id: str) -> GameState:
    """A ban voids what the player sent this turn that is not resolved yet (rules.md):
    their orders, their vote, and join-forces requests from or to them."""
    return replace(
        state,
        submissions={p: s for p, s in state.submissions.items() if p != player_id},
        ballots={p: b for p, b in state.ballots.items() if p != player_id},
        join_requests={
            p: other for p, other in state.join_requests.items() if player_id not in (p, other)
        },
    )


def _resolved(state: GameState, event: TurnResolved) -> GameState:
    players = dict(state.players)
    for joint, (a, b) in event.joined.items():
        first, second = players.pop(a), players.pop(b)
        players[joint] = replace(
            first,
            id=joint,
            name=f"{first.name}/{second.name}",
            accounts=first.accounts + second.accounts,
            notifications=first.notifications or second.notifications,
            banned=first.banned and second.banned,
            has_joined_forces=True,
        )
    for player_id, vp in event.vp.items():
        players[player_id] = replace(players[player_id], vp=vp)
    for player_id in event.eliminated:
        if players[player_id].status == "active":
            players[player_id] = replace(players[player_id], status="eliminated")
    return replace(
        state,
        phase="finished" if event.winner is not None else state.phase,
        players=players,
        board=event.board,
        turn=event.turn + 1,
        turn_began_at=event.at,
        earliest_resolution=earliest_resolution(event.at, state.settings),
        submissions={},
        vote=event.next_vote,
        ballots={},
        effect=event.next_effect,
        join_requests={},
        last_turn=event,
        winner=event.winner,
        private_readers=frozenset(),
    )


def _forked(event: GameForked) -> GameState:
    players = {
        p.id: Player(
            p.id,
            p.name,
            p.accounts,
            p.color,
            p.pattern,
            status=p.status,
            vp=p.vp,
            has_joined_forces=p.has_joined_forces,
        )
        for p in event.players
    }
    return GameState(
        game_id=event.game_id,
        phase="running",
        settings=event.settings,
        admins=(event.admin,),
        secret=event.secret,
        commitment=event.commitment,
        created_at=event.at,
        players=players,
        joined_so_far=len(players),
        map=event.map,
        board=event.board,
        turn=event.turn,
        turn_began_at=event.at,
        earliest_resolution=earliest_resolution(event.at, event.settings),
        vote=event.vote,
        effect=event.effect,
        forked_from=ForkedFrom(
            game=event.source_game,
            turn=event.turn,
            position=event.position,
            chain_hash=event.chain_hash,
        ),
    )


_state_decoder = msgspec.json.Decoder(GameState)


def decode_snapshot(data: bytes, version: int) -> GameState | None:
    """A snapshot's state, or None when it no longer decodes as the current shape (then
    fold from the start instead)."""
    try:
        state = _state_decoder.decode(data)
    except msgspec.DecodeError:
        return None
    return state if state.version == version else None
