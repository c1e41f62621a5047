"""The application layer: what every entry point (the HTTP routes, the text commands, the
adapters to come) does over `GameService`, so that none of them holds game logic of its own
or borrows another's. Entry points decode their input, call these, and encode the answer."""

import secrets
from typing import Any

import msgspec
from msgspec.structs import replace

from eventstore.records import RecordedEvent
from projections.game import GameState
from projections.loading import state_until, stream_of
from projections.owned import own_events
from projections.playing import step_values
from projections.schedule import Due, utc_offset_for
from projections.states import Loaded
from schema import errors as codes
from schema.api import Done, ForkBody, NewGame, PlayTurn, TurnView
from schema.bounds import MAX_SEED
from schema.commands import CreateGame, ForkGame
from schema.game_events import (
    ForkStarted,
    GameEvent,
    GameForked,
    GameStarted,
    PlayerNotified,
    PlayRecorded,
    PlayStarted,
    RecordedPosition,
    Settings,
    game_codec,
)
from schema.refusals import Conflict, InvalidCommand, NotFound
from server.accounts.store import Identity
from server.game.decide.acting import existing, require_admin
from server.game.decide.fork import check_fork, fork_name, forked_players
from server.game.outcome import Outcome
from server.services import Services


def done(outcome: Outcome[GameState] | Outcome[Due]) -> Done:
    """What an action appended, as the API answers it, but for the notices it made. Those are
    their recipients' (projections/visibility.py), and made only for the players who take
    notices: listed, they would tell the caller (a message's sender, a mover passing the
    turn on, an admin resolving) which of the others do."""
    appended = [e for e in outcome.events if not isinstance(e, PlayerNotified)]
    return Done([game_codec.type_of(e) for e in appended], outcome.position)


async def readable(found: Services, game: str) -> Loaded:
    """A game's state for reading; 404 if there is none, 410 if it was killed."""
    loaded = await found.games.load(game)
    existing(loaded.state)
    return loaded


def require_own_turns(state: GameState, instead: str) -> None:
    """A read of a game whose events are the room's own (`OwnEvents`: Skirmish Society's
    orders, its turns) on any other game: 409 wrong_kind_of_game, saying where that game
    keeps it (`instead`), as its orders and votes are refused."""
    if own_events(state.definition) is None:
        raise Conflict(codes.WRONG_KIND_OF_GAME, f"this game plays {state.game}: {instead}")


async def past_turn(found: Services, game: str, turn: int, *, position: int) -> TurnView:
    """Turn `turn` of a game as it stood at `position` (the game's as loaded by the caller).
    The turn history is a read model: it is read once it holds the game up to `position`,
    so that a turn that has resolved always shows its resolution; 503 while it lags."""
    view = await found.read_models.turn(game, turn, position=position)
    if view is None:
        raise NotFound(codes.TURN_NOT_FOUND, f"turn {turn} has not been reached")
    return view


async def start_of_turn(found: Services, state: GameState, turn: int) -> GameState:
    """The game as it stood when `turn` began, from its first turn to its current one (for a
    game run by its definition: its own state then, as a fork at that turn would take it)."""
    _require_reached(state, turn)
    if turn == state.turn:
        return state
    then, _ = await _start_of(found, state, turn)
    return then


async def administered(found: Services, who: Identity, game: str) -> GameState:
    """A game's state, for one of its admins only (403 for anyone else)."""
    state = (await readable(found, game)).state
    require_admin(state, who.actor)
    return state


async def set_up(found: Services, who: Identity, body: NewGame, address: str) -> Outcome[GameState]:
    """A new game with the options of `body`; `who`, calling from `address`, becomes its
    admin."""
    now = found.clock.now()
    if body.seed is not None and not 0 <= body.seed <= MAX_SEED:
        raise InvalidCommand(codes.OUT_OF_RANGE, f"seed must be between 0 and {MAX_SEED}")
    if body.current_hour is not None and not 0 <= body.current_hour <= 23:
        raise InvalidCommand(codes.OUT_OF_RANGE, "current_hour must be between 0 and 23")
    found.throttle.game_created(who, address)
    settings = Settings(
        name=body.name,
        vp_target=body.vp_target,
        map_type=body.map_type,
        map=body.map,
        fast_mode=body.fast_mode,
        resolution_hour=body.resolution_hour,
        utc_offset=0 if body.current_hour is None else utc_offset_for(body.current_hour, now),
        votes=body.votes,
        vote_start_turn=body.vote_start_turn,
        voting_mode=body.voting_mode,
        hints=body.hints,
        sandbox=body.sandbox,
        broadcasting=body.broadcasting,
    )
    game_id = secrets.token_hex(6)
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    command = CreateGame(
        actor=who.actor,
        now=now,
        game_id=game_id,
        settings=settings,
        seed=seed,
        client_id=who.client_id,
        game=body.game,
        options=body.options,
    )
    return await found.games.execute(game_id, command)


async def fork(
    found: Services, who: Identity, source_id: str, body: ForkBody, address: str
) -> Outcome[GameState]:
    """A new game forked from `source_id` at the start of turn `body.turn` (rules.md,
    "Forks"); `who`, calling from `address`, becomes its admin."""
    source = (await readable(found, source_id)).state
    check_fork(source, who.actor, body.turn, sandbox=body.sandbox)
    then, last = await _start_of(found, source, body.turn)
    found.throttle.game_created(who, address)
    name = body.name or fork_name(source.settings.name, body.turn)
    game_id = secrets.token_hex(6)
    command = ForkGame(
        actor=who.actor,
        now=found.clock.now(),
        game_id=game_id,
        source_game=source_id,
        turn=body.turn,
        position=last.position,
        chain_hash=last.hash.hex(),
        settings=replace(then.settings, name=name, sandbox=body.sandbox),
        players=forked_players(then, who.actor.account, sandbox=body.sandbox),
        secret=found.entropy(),
        game=then.game,
        game_version=then.game_version,
        **_forked_play(then),
    )
    return await found.games.execute(game_id, command)


def _forked_play(then: GameState) -> dict[str, Any]:
    """What a fork records of the game's state `then`: a game whose events are the room's own
    in `game_forked`'s own fields (`OwnEvents.fork_fields`), its options read from its
    settings and none recorded; any other game its options and `play`, those fields empty."""
    own = own_events(then.definition)
    if own is not None:
        return own.fork_fields(then.play)
    return {
        "map": None,
        "board": RecordedPosition(armies={}, control={}, farms=[]),
        "effect": None,
        "vote": None,
        "options": then.options,
        "play": msgspec.to_builtins(then.play),
    }


async def _start_of(
    found: Services, source: GameState, turn: int
) -> tuple[GameState, RecordedEvent]:
    """The source game as it stood when `turn` began (just after the resolution before it,
    or its start), and the last event that state folds in."""
    store = found.games.store
    first = source.first_turn
    if turn > first:
        version = source.resolved_versions[turn - first - 1]
    else:
        # Its start comes before its first resolution, if any.
        until = source.resolved_versions[0] if source.resolved_versions else None
        events = await store.read_stream(stream_of(source.game_id), limit=until)
        version = next(e.version for e in events if _begins(game_codec.decode_recorded(e)))
    state = await state_until(store, source.game_id, version)
    (last,) = await store.read_stream(stream_of(source.game_id), after_version=version - 1, limit=1)
    return state, last


def _begins(event: GameEvent) -> bool:
    """Whether the game's first turn begins with `event`: its start; a fork, which runs at
    once; or the start of a real fork that invited its players."""
    if isinstance(event, GameForked):
        return not event.invites
    return isinstance(event, GameStarted | PlayStarted | ForkStarted)


async def past_play(
    found: Services, state: GameState, turn: int, seats: frozenset[str]
) -> PlayTurn:
    """Turn `turn` of a game run by its definition, as a reader playing `seats` sees it: the
    game's view at the start of the turn, and the game's events of the step that began it
    (the setup's for a game's first turn, none for a fork's). 404 for a turn it has not
    reached; 409 wrong_kind_of_game for Skirmish Society, naming where its turns are read,
    as require_own_turns does the other way round."""
    definition = state.definition
    if own_events(definition) is not None:
        where = f"GET /v1/games/{state.game_id}/turns/{turn}"
        raise Conflict(
            codes.WRONG_KIND_OF_GAME, f"this game plays {state.game}: its turns are read at {where}"
        )
    if state.play is None:
        raise NotFound(codes.TURN_NOT_FOUND, f"turn {turn} has not been reached")
    _require_reached(state, turn)
    then, last = await _start_of(found, state, turn)
    began = game_codec.decode_recorded(last)
    events = (
        step_values(began)
        if isinstance(began, PlayRecorded)
        else began.setup
        if isinstance(began, PlayStarted)
        else []
    )
    return PlayTurn(
        turn=turn, play=definition.view(then.play, seats), events=events, position=last.position
    )


def _require_reached(state: GameState, turn: int) -> None:
    if not state.first_turn <= turn <= state.turn:
        raise NotFound(codes.TURN_NOT_FOUND, f"turn {turn} has not been reached")
