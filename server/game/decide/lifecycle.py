"""Setting up, joining, starting, pausing and ending a game; admin moderation."""

from datetime import datetime
from typing import Any

from msgspec.structs import replace

from projections.evolve import fold
from projections.game import GameState
from projections.owned import own_events
from projections.schedule import utc_offset_for
from rules.game import Game
from rules.registry import UnknownGame, game_rules, newest
from rules.skirmish.board import MapError
from rules.skirmish.mapgen import MAX_PLAYERS, MIN_PLAYERS
from rules.skirmish.maps import builtin_map
from rules.skirmish.starting import player_counts
from schema import errors as codes
from schema.bounds import COLORS, MAX_VOTE_START_TURN, MAX_VP_TARGET, check_name, check_range
from schema.commands import (
    BanPlayer,
    ChangeSettings,
    CreateGame,
    JoinGame,
    KillGame,
    PauseGame,
    Resign,
    StartGame,
    UnbanPlayer,
    UnpauseGame,
)
from schema.game_events import (
    GameCreated,
    GameEvent,
    GameKilled,
    GamePaused,
    GameUnpaused,
    PlayerBanned,
    PlayerJoined,
    PlayerLeft,
    PlayerResigned,
    PlayerUnbanned,
    SeatDeclined,
    Settings,
    SettingsChanged,
)
from schema.refusals import Conflict, InvalidCommand, NotAllowed, NotFound
from server.game.decide.acting import acting_player, require_admin, require_phase
from server.game.decide.invites import start_fork
from server.game.decide.playing import (
    check_options,
    leave,
    resolve_sealed,
    seats_allowed,
    start_play,
)

MIN_SECRET_BYTES = 16


def check_settings(rules: Game[Any, Any], settings: Settings) -> Settings:
    name = check_name("the game's name", settings.name)
    check_range("vp_target", settings.vp_target, 1, MAX_VP_TARGET)
    check_range("resolution_hour", settings.resolution_hour, 0, 23)
    check_range("utc_offset", settings.utc_offset, -11, 12)
    check_range("vote_start_turn", settings.vote_start_turn, 1, MAX_VOTE_START_TURN)
    if settings.map is not None:
        if own_events(rules) is None:
            raise InvalidCommand(
                codes.OPTIONS_REFUSED,
                f"{rules.name} is not played on a Skirmish Society map: its options say its board",
            )
        try:
            counts = player_counts(settings.map)
        except MapError as error:
            raise NotFound(codes.MAP_NOT_FOUND, str(error)) from error
        if counts is None:
            # Refused now rather than at the start, once players have joined for nothing.
            homes = len(builtin_map(settings.map).homes)
            raise InvalidCommand(
                codes.MAP_UNUSABLE,
                f"map {settings.map!r} cannot host a game: it has starting homes for {homes} "
                f"players and a game needs at least {MIN_PLAYERS} (GET /v1/maps says which "
                "maps can, for how many players)",
            )
    return replace(settings, name=name)


def _seats(state: GameState) -> int:
    """How many players may join: on a built-in map, one per starting home, so that the
    start never lacks one; in a game run by its definition, its most seats."""
    if own_events(state.definition) is None:
        return seats_allowed(state)
    settings = state.settings
    counts = player_counts(settings.map) if settings.map is not None else None
    return counts[1] if counts is not None else MAX_PLAYERS


def create_game(state: GameState, command: CreateGame) -> list[GameEvent]:
    if state.phase != "new":
        raise Conflict(codes.GAME_EXISTS, f"game {command.game_id} already exists")
    try:
        rules = newest(command.game)
    except UnknownGame as error:
        raise InvalidCommand(codes.UNKNOWN_GAME, str(error)) from error
    settings = check_settings(rules, command.settings)
    if own_events(rules) is not None:
        if command.options:
            raise InvalidCommand(
                codes.OPTIONS_REFUSED, "Skirmish Society's options are its settings"
            )
        options = {}
    else:
        options = check_options(rules, command.options)
    return [
        GameCreated(
            game_id=command.game_id,
            settings=settings,
            admin=command.actor.account,
            seed=command.seed,
            at=command.now,
            client_id=command.client_id,
            game=rules.name,
            game_version=rules.version,
            options=options,
        )
    ]


def join_game(state: GameState, command: JoinGame) -> list[GameEvent]:
    require_phase(state, "joining")
    if state.awaiting_claims:
        raise Conflict(
            codes.FORK_NOT_JOINABLE,
            "nobody joins a real fork: its source's players claim their seats (/claim)",
        )
    name = check_name("a player's name", command.name)
    if command.actor.account in state.banned_accounts:
        raise NotAllowed(codes.BANNED, "you are banned from this game")
    sandbox = state.settings.sandbox
    if sandbox and not state.is_admin(command.actor):
        raise NotAllowed(
            codes.SANDBOX_ADMIN_ONLY, "a sandbox has no real players: its admin plays every seat"
        )
    if state.player_of(command.actor.account) is not None and not sandbox:
        raise Conflict(codes.ALREADY_JOINED, "you have already joined this game")
    seats = _seats(state)
    if len(state.players) >= seats:
        if state.settings.map is None:
            raise Conflict(codes.GAME_FULL, f"the game is full ({seats} players)")
        raise Conflict(
            codes.GAME_FULL, f"the game is full: map {state.settings.map!r} holds {seats} players"
        )
    if any(p.name.lower() == name.lower() for p in state.players.values()):
        raise Conflict(codes.NAME_TAKEN, f"the name {name!r} is taken in this game")
    used = {p.color for p in state.players.values()}
    color = next(c for c in range(1, COLORS + 1) if c not in used)
    return [
        PlayerJoined(
            player_id=f"p{state.joined_so_far + 1}",
            account_id=command.actor.account,
            name=name,
            color=color,
            pattern=1,
        )
    ]


def start_game(state: GameState, command: StartGame) -> list[GameEvent]:
    require_admin(state, command.actor)
    require_phase(state, "joining")
    if state.awaiting_claims:
        return start_fork(state, command)
    randomness = command.secret
    if len(randomness) < MIN_SECRET_BYTES:
        raise InvalidCommand(
            codes.SECRET_TOO_SHORT, f"a game's secret is at least {MIN_SECRET_BYTES} random bytes"
        )
    return start_play(state, command, randomness)


def resign(state: GameState, command: Resign) -> list[GameEvent]:
    player = acting_player(state, command.actor)
    if state.awaiting_claims:
        # Leaving a fork before its start gives the seat back.
        return [SeatDeclined(player_id=player.id, account_id=command.actor.account)]
    if state.phase == "joining":
        return [PlayerLeft(player_id=player.id)]
    require_phase(state, "running", "paused")
    if player.status != "active":
        raise Conflict(codes.ALREADY_RESIGNED, f"{player.name} has already {player.status}")
    return left(state, player.id, [PlayerResigned(player_id=player.id)], command.now)


def left(
    state: GameState, player_id: str, events: list[GameEvent], now: datetime
) -> list[GameEvent]:
    """`events` (a seat resigned or banned), what the seat leaving changes in the game (none
    in Skirmish Society), and the sealed wait resolved if it waited only for that seat."""
    events = [*events, *leave(state, player_id, now)]
    after = fold(state, enumerate(events, start=state.version + 1))
    return [*events, *resolve_sealed(after, now)]


def ban_player(state: GameState, command: BanPlayer) -> list[GameEvent]:
    require_admin(state, command.actor)
    require_phase(state, "joining", "running", "paused")
    player = state.players.get(command.player_id)
    if player is None:
        raise NotFound(codes.PLAYER_NOT_FOUND, f"no such player: {command.player_id}")
    # In a fork before its start, whoever is still invited to the seat is banned with it.
    accounts = (*player.accounts, *state.invited.get(player.id, ()))
    if command.actor.account in accounts:
        raise Conflict(codes.CANNOT_BAN_YOURSELF, "you cannot ban yourself")
    if player.banned:
        raise Conflict(codes.ALREADY_BANNED, f"{player.name} is already banned")
    if state.phase == "joining" and not state.awaiting_claims:
        return [
            PlayerLeft(player_id=player.id, banned=True),
            PlayerBanned(account_id=player.accounts[0], player_id=None),
        ]
    # Both people behind a joint player are banned with it; a fork's seat stays, banned.
    banned: list[GameEvent] = [PlayerBanned(account_id=a, player_id=player.id) for a in accounts]
    return left(state, player.id, banned, command.now) if state.phase != "joining" else banned


def unban_player(state: GameState, command: UnbanPlayer) -> list[GameEvent]:
    require_admin(state, command.actor)
    player = state.players.get(command.player_id)
    # A player removed by a ban in the join phase is named by its account.
    accounts = player.accounts if player is not None else (command.player_id,)
    banned = [a for a in accounts if a in state.banned_accounts]
    if not banned:
        name = player.name if player is not None else command.player_id
        raise Conflict(codes.NOT_BANNED, f"{name} is not banned")
    return [PlayerUnbanned(account_id=a) for a in banned]


def pause_game(state: GameState, command: PauseGame) -> list[GameEvent]:
    require_admin(state, command.actor)
    require_phase(state, "running")
    return [GamePaused(at=command.now)]


def unpause_game(state: GameState, command: UnpauseGame) -> list[GameEvent]:
    require_admin(state, command.actor)
    require_phase(state, "paused")
    return [GameUnpaused(at=command.now)]


def kill_game(state: GameState, command: KillGame) -> list[GameEvent]:
    require_admin(state, command.actor)
    return [GameKilled(at=command.now)]


def change_settings(state: GameState, command: ChangeSettings) -> list[GameEvent]:
    require_admin(state, command.actor)
    require_phase(state, "joining", "running", "paused")
    settings = state.settings
    if command.vp_target is not None:
        if state.phase != "joining":
            raise Conflict(
                codes.VP_TARGET_FIXED, "the VP target can only change before the game starts"
            )
        settings = replace(settings, vp_target=command.vp_target)
    if command.fast_mode is not None:
        settings = replace(settings, fast_mode=command.fast_mode)
    if command.resolution_hour is not None:
        settings = replace(settings, resolution_hour=command.resolution_hour)
    if command.current_hour is not None:
        check_range("current_hour", command.current_hour, 0, 23)
        offset = utc_offset_for(command.current_hour, command.now)
        # The rulebook: changing the local time does not alter when the game resolves. The
        # resolution hour, kept in local time, moves with the offset, unless it is set too.
        hour = settings.resolution_hour
        if command.resolution_hour is None:
            hour = (hour + offset - settings.utc_offset) % 24
        settings = replace(settings, utc_offset=offset, resolution_hour=hour)
    if command.broadcasting is not None:
        settings = replace(settings, broadcasting=command.broadcasting)
    settings = check_settings(game_rules(state.game, state.game_version), settings)
    if settings == state.settings:
        return []
    return [SettingsChanged(settings=settings, at=command.now)]
