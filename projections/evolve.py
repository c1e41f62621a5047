"""How a game's events make its state: `evolve(state, event) -> state`, and `fold` for a
stream of them (projections.game holds the state).

Pure: no I/O, no clock.
"""

from collections.abc import Iterable
from datetime import datetime

from msgspec.structs import replace

from projections import own_play
from projections.game import GameState, Player, with_typed_play
from projections.owned import own_events
from projections.playing import began, sealed_with, started_play, stepped
from rules.game import Daily
from schema.game_events import (
    AdminAdded,
    AdminRemoved,
    ForkedFrom,
    ForkStarted,
    GameCreated,
    GameEvent,
    GameForked,
    GameKilled,
    GamePaused,
    GameStarted,
    GameUnpaused,
    JoinForcesRequested,
    MessageBroadcast,
    MoveSealed,
    NotificationsChanged,
    OrdersSubmitted,
    PlayerBanned,
    PlayerJoined,
    PlayerLeft,
    PlayerLookChanged,
    PlayerNotified,
    PlayerResigned,
    PlayerUnbanned,
    PlayRecorded,
    PlayStarted,
    PrivateEventsRead,
    SeatClaimed,
    SeatDeclined,
    SettingsChanged,
    TurnResolved,
    TurnRewound,
    VoteCast,
)


def fold(state: GameState, events: Iterable[tuple[int, GameEvent]]) -> GameState:
    """Apply (version, event) pairs in order."""
    for version, event in events:
        state = replace(evolve(state, event), version=version)
        # A turn ends with a step of a definition's play that moves or resolves, or with the
        # resolution of a game whose events are the room's own.
        if isinstance(event, TurnResolved) or (
            isinstance(event, PlayRecorded) and event.kind in _TURN_ENDS
        ):
            state = replace(state, resolved_versions=(*state.resolved_versions, version))
    return state


_TURN_ENDS = frozenset({"move", "resolution", "timeout"})


def evolve(state: GameState, event: GameEvent) -> GameState:
    match event:
        # Each case is an isinstance test, in order: the events of every turn come first (a
        # rebuild folds hundreds of thousands of them).
        case OrdersSubmitted():
            return own_play.played(state, event)
        case PlayerNotified():
            # Once a wait, or once a turn (`Reminder.once_a_turn`): both kept, from the
            # first of a wait's reminders (one a seat).
            if event.kind != "reminder" or (
                state.wait_reminded and event.turn <= state.reminded_turn
            ):
                return state
            turn = max(event.turn, state.reminded_turn)
            return replace(state, wait_reminded=True, reminded_turn=turn)
        case TurnResolved():
            # The steps of a game whose events are the room's own (`OwnEvents`) are the
            # room's own two: its resolution and its start.
            return own_play.resolved(state, event)
        case GameStarted():
            return own_play.played(began(state, event.at, event.secret, event.commitment), event)
        case MoveSealed():
            return replace(state, sealed=sealed_with(state, event.player_id, event.move))
        case PlayRecorded():
            return stepped(state, event)
        case GameCreated():
            state = replace(
                state,
                game_id=event.game_id,
                phase="joining",
                settings=event.settings,
                admins=(event.admin,),
                client_id=event.client_id,
                seed=event.seed,
                created_at=event.at,
                game=event.game,
                game_version=event.game_version,
                options=event.options,
            )
            return state if own_events(state.definition) is None else own_play.created(state)
        case PlayerJoined():
            player = Player(
                event.player_id, event.name, (event.account_id,), event.color, event.pattern
            )
            return own_play.seated(
                replace(
                    state,
                    players={**state.players, player.id: player},
                    joined_so_far=state.joined_so_far + 1,
                ),
                player.id,
            )
        case PlayerLeft():
            players = dict(state.players)
            del players[event.player_id]
            return own_play.seated(replace(state, players=players))
        case PlayStarted():
            return started_play(state, event)
        case VoteCast() | JoinForcesRequested():
            return own_play.played(state, event)
        case TurnRewound():
            # The resolution itself is gone from the stream; what remains is for the game
            # to forget the votes of the turn, as rules.md says, and to reckon the next
            # resolution from now rather than from a resolution long past.
            state = replace(
                own_play.played(state, event),
                # The wait the rewind goes back to begins afresh: its time is all there, and
                # its reminder is yet to come.
                wait_began_at=event.at,
                wait_reminded=False,
                resumed_at=None,
                # A rewound wait's sealed moves were shown when it resolved: its seats move
                # again rather than resolve at once what everyone has seen.
                sealed={},
                rewinds=event.rewinds,
            )
            if event.secret is None:
                return state
            return replace(state, secret=event.secret, commitment=event.commitment)
        case PlayerResigned():
            return own_play.seated(
                _update_player(state, event.player_id, status="resigned", notifications=False),
                event.player_id,
            )
        case PlayerBanned():
            state = replace(state, banned_accounts=state.banned_accounts | {event.account_id})
            if event.player_id is None:
                return state
            state = _update_player(state, event.player_id, banned=True)
            return own_play.played(own_play.seated(state, event.player_id), event)
        case PlayerUnbanned():
            state = replace(state, banned_accounts=state.banned_accounts - {event.account_id})
            players = {
                pid: replace(p, banned=False) if event.account_id in p.accounts else p
                for pid, p in state.players.items()
            }
            return own_play.seated(replace(state, players=players))
        case GamePaused():
            return replace(state, phase="paused", paused_at=event.at)
        case GameUnpaused():
            return replace(
                state,
                phase="running",
                wait_began_at=_resumed(state, event.at),
                resumed_at=event.at,
                paused_at=None,
            )
        case GameKilled():
            return replace(state, phase="killed")
        case SettingsChanged():
            return _settings_changed(state, event)
        case PlayerLookChanged():
            look = {"name": event.name, "color": event.color, "pattern": event.pattern}
            return own_play.seated(_update_player(state, event.player_id, **look), event.player_id)
        case NotificationsChanged():
            return _update_player(state, event.player_id, notifications=event.enabled)
        case MessageBroadcast():
            return state
        case AdminAdded():
            return replace(state, admins=(*state.admins, event.account_id))
        case AdminRemoved():
            return replace(state, admins=tuple(a for a in state.admins if a != event.account_id))
        case PrivateEventsRead():
            # A moderator's read, which older servers recorded; it changes nothing.
            return state
        case GameForked():
            return _forked(event)
        case SeatClaimed():
            player = state.players[event.player_id]
            state = _uninvited(state, event.player_id, event.account_id)
            return _update_player(
                state, event.player_id, accounts=(*player.accounts, event.account_id)
            )
        case SeatDeclined():
            player = state.players[event.player_id]
            state = _uninvited(state, event.player_id, event.account_id)
            accounts = tuple(a for a in player.accounts if a != event.account_id)
            return _update_player(state, event.player_id, accounts=accounts)
        case ForkStarted():
            for player_id in event.unclaimed:
                state = _update_player(state, player_id, status="resigned", notifications=False)
            return replace(
                own_play.seated(state),
                phase="running",
                invited={},
                wait_began_at=event.at,
                resumed_at=None,
            )


def _settings_changed(state: GameState, event: SettingsChanged) -> GameState:
    new = event.settings
    before = _clock(state)
    state = own_play.seated(replace(state, settings=new))
    if before != _clock(state):
        # A wait whose hour or length the new settings change begins afresh, at the change.
        # Local time only names the hour: a new time zone that keeps the hour in UTC keeps
        # the deadline where it was (rules.md).
        state = replace(state, wait_began_at=event.at, resumed_at=None)
    return own_play.optioned(state)


def _clock(state: GameState) -> tuple[Daily | None, float | None] | None:
    """The hour or length of the game's current wait (None before it began), as its
    definition reads them from its state (Skirmish Society's, from the room's settings)."""
    if state.wait_began_at is None:
        return None
    wait = state.definition.to_move(state.play)
    return wait.daily, wait.seconds


def _resumed(state: GameState, unpaused: datetime) -> datetime | None:
    """When the wait began, moved on by the time the game stood paused: the clock stood
    still, and the wait keeps the time it had left (a wait begun during the pause, by a
    seat leaving, begins at the unpause); a wait that `restarts` begins at the unpause."""
    began, paused = state.wait_began_at, state.paused_at
    if began is None or paused is None:
        return began
    if state.definition.to_move(state.play).restarts:
        return unpaused
    return began + (unpaused - max(paused, began))


def _update_player(state: GameState, player_id: str, **changes: object) -> GameState:
    player = replace(state.players[player_id], **changes)
    return replace(state, players={**state.players, player_id: player})


def _uninvited(state: GameState, player_id: str, account_id: str) -> GameState:
    """The account answered its invitation to the seat: it is invited no more."""
    invited = dict(state.invited)
    left = tuple(a for a in invited.pop(player_id, ()) if a != account_id)
    if left:
        invited[player_id] = left
    return replace(state, invited=invited)


def _forked(event: GameForked) -> GameState:
    """A fork, running at once; or one that invites, waiting for claims and its start, with
    nobody seated and no resolution due."""
    waits = event.invites
    players = {
        p.id: Player(
            p.id,
            p.name,
            () if waits else p.accounts,
            p.color,
            p.pattern,
            status=p.status,
        )
        for p in event.players
    }
    invited = {p.id: p.accounts for p in event.players if p.accounts} if waits else {}
    state = GameState(
        game_id=event.game_id,
        game=event.game,
        game_version=event.game_version,
        phase="joining" if waits else "running",
        settings=event.settings,
        admins=(event.admin,),
        secret=event.secret,
        commitment=event.commitment,
        created_at=event.at,
        players=players,
        joined_so_far=len(players),
        turn=event.turn,
        wait_began_at=None if waits else event.at,
        invited=invited,
        options=event.options,
        play=event.play,
        forked_from=ForkedFrom(
            game=event.source_game,
            turn=event.turn,
            position=event.position,
            chain_hash=event.chain_hash,
        ),
    )
    if own_events(state.definition) is not None:
        return own_play.forked(state, event)
    return with_typed_play(state)
