"""The room's commands for a game run by its definition (rules/game.py): its start, a move, a
seat leaving. The room checks who may act and when; the definition decides what a move does.

A sealed move is kept secret (`move_sealed`) until every seat the wait waits for has moved,
then the wait is resolved in the same command (unless only the clock or an admin closes it:
`Wait.closes`). A wait with a clock (`Wait.seconds`, `Wait.daily`) that runs out is closed by
the scheduler's ResolveTurn (`close_wait`), as an admin may close one early; moves in a
wait's lock windows (`Wait.lock`) are refused. Every step that leaves
seats newly to move tells their players (server/game/decide/notices.py, `your_turn`). A
private move (a private message) is an act its audience alone sees, and its other seats are
notified."""

from datetime import datetime
from typing import Any, Literal

from projections.evolve import fold
from projections.game import GameState
from projections.owned import OwnEvents, Stamp, own_events
from projections.playing import by_seat, recorded, recorded_step, sealed_with
from rules.game import (
    EarlyClose,
    Game,
    MoveRefused,
    NotYourMove,
    OptionsRefused,
    Private,
    Sealed,
)
from rules.kit.prng import commitment
from schema import errors as codes
from schema.commands import MakeMove, ResolveTurn, StartGame
from schema.game_events import GameEvent, MoveSealed, PlayRecorded, PlayStarted
from schema.refusals import Conflict, InvalidCommand, QuotaExceeded, WrongTurn
from server.game.decide.acting import (
    active_player,
    draws,
    existing,
    require_admin,
    require_phase,
    require_unlocked,
)
from server.game.decide.names import with_seat
from server.game.decide.notices import message_notices, your_turn_notices

StepKind = Literal["move", "act", "resolution", "leave", "timeout"]


def check_options(definition: Game[Any, Any], options: dict[str, Any]) -> dict[str, Any]:
    try:
        return definition.check_options(options)
    except OptionsRefused as error:
        raise InvalidCommand(codes.OPTIONS_REFUSED, str(error)) from error


def seats_allowed(state: GameState) -> int:
    """How many may join: the game's most seats with the game's options."""
    return state.definition.seat_range(state.options)[1]


def start_play(state: GameState, command: StartGame, secret: bytes) -> list[GameEvent]:
    definition = state.definition
    own = own_events(definition)
    fewest, most = definition.seat_range(state.options)
    count = len(state.players)
    if not fewest <= count <= most:
        # A game of the room's own events (Skirmish Society) seats no more than its most at
        # joining: its words are of too few.
        words = (
            f"a game needs at least {fewest} players"
            if own
            else f"{definition.name} is played by {fewest} to {most} players"
        )
        raise Conflict(codes.NOT_ENOUGH_PLAYERS, f"{words}; {count} joined")
    try:
        # Some games can tell only from their setup's draws that they cannot start.
        setup = definition.setup(state.options, tuple(state.players), draws(state, secret))
    except OptionsRefused as error:
        # Skirmish Society's setup is refused only for its map.
        code = codes.MAP_UNUSABLE if own else codes.OPTIONS_REFUSED
        raise InvalidCommand(code, str(error)) from error
    if own:
        stamp = Stamp(command.now, state.game_id, command.actor.account, secret=secret)
        return [own.stamped(event, stamp) for event in setup]
    started = PlayStarted(
        at=command.now,
        setup=recorded(setup),
        secret=secret.hex(),
        commitment=commitment(secret),
    )
    return told(state, started)


def make_move(state: GameState, command: MakeMove) -> list[GameEvent]:
    definition = existing(state).definition
    own = own_events(definition)
    if command.game is not None and command.game != state.game:
        # Skirmish Society's orders, votes and requests name it: moves of another game.
        takes = "orders, votes and join-forces requests"
        takes = takes if own is not None else "moves (POST /moves)"
        raise Conflict(codes.WRONG_KIND_OF_GAME, f"this game plays {state.game}: it takes {takes}")
    if own is not None:
        return _own_move(state, own, command)
    if state.play is None:
        # Not started: there is no play to ask whom it waits for (a game's to_move reads it).
        require_phase(state, "running")
    wait = definition.to_move(state.play)
    # A paused game stands still: it takes no move that may end a wait, but the moves of a
    # wait that only the clock or an admin closes.
    require_phase(state, "running", *(("paused",) if wait.closes == "admin" else ()))
    if command.turn is not None and command.turn != state.turn:
        raise WrongTurn(f"turn {command.turn} is over; the game is at turn {state.turn}")
    seat = active_player(state, command, command.as_player).id
    if wait.lock:
        require_unlocked(state, command.now)
    if seat not in wait.seats:
        raise Conflict(codes.NOT_YOUR_MOVE, f"{definition.name} waits for another seat's move")
    # A player named by name is handed to the game, and recorded, as their seat.
    move = with_seat(state, definition, command.move)
    try:
        decision = definition.move(state.play, seat, move, draws(state))
    except NotYourMove as error:
        raise Conflict(codes.NOT_YOUR_MOVE, str(error)) from error
    except MoveRefused as error:
        raise InvalidCommand(codes.MOVE_REFUSED, str(error)) from error
    if isinstance(decision, Private):
        # No turn of its own, even in a game of turns: the turn is public, the move is not.
        audience = decision.seats | {seat}
        step = _step(state, "act", decision.events, seat, move, command.now, audience)
        return [step, *message_notices(state, seat, audience - {seat})]
    if not isinstance(decision, Sealed):
        # In a sealed wait a move played at once is an act, not a turn of its own.
        kind: StepKind = "act" if wait.sealed else "move"
        return told(state, _step(state, kind, decision, seat, move, command.now))
    assert wait.sealed, f"{definition.name} sealed a move outside a sealed wait"
    try:
        moves = sealed_with(state, seat, decision.move)
    except MoveRefused as error:
        raise InvalidCommand(codes.MOVE_REFUSED, str(error)) from error
    # The new move alone: the fold joins it to the seat's earlier one as the game says.
    sealed = MoveSealed(player_id=seat, turn=state.turn, move=decision.move)
    if not all_in(state, moves):
        return [sealed]
    return [sealed, *told(state, _resolution(state, moves, "resolution", command.now))]


def _own_move(state: GameState, definition: OwnEvents, command: MakeMove) -> list[GameEvent]:
    """A move of a game whose events are the room's own (Skirmish Society's), in today's
    order of refusals: a paused game takes it (only the clock or an admin resolves), then
    who acts, the turn, the game's refusals that come before the lock window
    (`before_lock`), the lock window, the game's; its events appended bare, stamped."""
    require_phase(state, "running", "paused")
    seat = active_player(state, command, command.as_player).id
    if command.turn is not None and command.turn != state.turn:
        raise WrongTurn(f"the game is at turn {state.turn}, not {command.turn}")
    definition.before_lock(state.play, seat, command.move)
    require_unlocked(state, command.now)
    try:
        events = state.definition.move(state.play, seat, command.move, draws(state))
    except MoveRefused as error:
        raise InvalidCommand(codes.MOVE_REFUSED, str(error)) from error
    except QuotaExceeded as refusal:
        # The quota resets when the turn resolves: the room's clock says when that is.
        if refusal.retry_after is None:
            refusal.retry_after = _until_resolution(state, command.now)
        raise
    assert isinstance(events, list), f"{state.game} plays every move at once"
    stamp = Stamp(command.now, state.game_id, command.actor.account, command.nonce)
    return [definition.stamped(event, stamp) for event in events]


def _until_resolution(state: GameState, now: datetime) -> int | None:
    """Seconds until the turn resolves (at least 1), or None while none is scheduled."""
    resolves_at = state.next_resolution_at()
    return None if resolves_at is None else max(1, int((resolves_at - now).total_seconds()))


def close_wait(state: GameState, command: ResolveTurn) -> list[GameEvent]:
    """The wait closed: a sealed one resolved with the sealed moves that are in, a wait of
    turns timed out by the game's move for the seat it waits for (`time_out`). Once its
    deadline has passed, by the scheduler or an admin alike. Before it, nobody cuts a
    player's time short but an admin of a wait that admins close (`Wait.closes`), once the
    game says it is ready (`EarlyClose`; the operator and a sandbox's admin at once). A turn
    named that is over is refused, so that a deadline is acted on once. Skirmish Society's
    turn is resolved by its own events (`OwnEvents`), each followed by its results."""
    require_admin(state, command.actor)
    definition = state.definition
    own = own_events(definition)
    if command.turn is not None and command.turn != state.turn:
        # Skirmish Society's turns are "resolved", as its players have always read.
        over = "already over" if own is None else "already resolved"
        when = over if command.turn < state.turn else "not reached yet"
        raise WrongTurn(f"turn {command.turn} is {when}; the game is at turn {state.turn}")
    require_phase(state, "running")
    wait = definition.to_move(state.play)
    deadline = state.next_resolution_at()
    due = deadline is not None and deadline <= command.now
    if not due and wait.closes != "admin":
        until = "has no deadline" if deadline is None else f"runs until {deadline.isoformat()}"
        raise Conflict(codes.NOT_DUE, f"turn {state.turn}'s wait {until}")
    if not due and not (command.actor.operator or state.settings.sandbox):
        _require_ready(definition, state.play)
    if own is not None:
        return _own_resolution(state, own, command.now)
    if wait.sealed:
        kind: StepKind = "timeout" if due else "resolution"
        return told(state, _resolution(state, state.sealed, kind, command.now))
    # A wait of turns waits for one seat, whose time ran out (of several, the first).
    seat = min(wait.seats)
    events = definition.time_out(state.play, seat, draws(state))
    return told(state, _step(state, "timeout", events, seat, None, command.now))


def _own_resolution(state: GameState, definition: OwnEvents, now: datetime) -> list[GameEvent]:
    """The turn of a game whose events are the room's own resolved (`resolve`, with the
    room's draws), each event stamped and followed by its results to those who take notices."""
    play = state.play
    made = state.definition.resolve(play, {}, draws(state))
    stamp = Stamp(now, state.game_id)
    wanting = [player.id for player in state.players.values() if player.wants_notices]
    events: list[GameEvent] = []
    for event in made:
        resolved = definition.stamped(event, stamp)
        events += [resolved, *definition.results(play, resolved, wanting)]
    return events


def _require_ready(definition: Game[Any, Any], play: Any) -> None:
    """An admin's early close waits until the game says its wait is ready (Skirmish
    Society's: every active player's orders in), or an admin who plays could close it, read
    the others' moves, rewind and change theirs."""
    if not isinstance(definition, EarlyClose):
        return
    missing = definition.not_ready(play)
    if missing is not None:
        raise Conflict(codes.ORDERS_MISSING, missing)


def resolve_sealed(state: GameState, now: datetime) -> list[GameEvent]:
    """The wait resolved if every seat it still waits for has moved (once a seat left);
    nothing otherwise."""
    if state.phase != "running" or not state.sealed or not all_in(state, state.sealed):
        return []
    return told(state, _resolution(state, state.sealed, "resolution", now))


def all_in(state: GameState, sealed: dict[str, Any]) -> bool:
    wait = state.definition.to_move(state.play)
    waiting = {seat for seat in wait.seats if _in_play(state, seat)}
    return wait.sealed and wait.closes == "all_in" and waiting <= sealed.keys()


def leave(state: GameState, seat: str, now: datetime) -> list[GameEvent]:
    """What a seat leaving a running game changes in the game."""
    definition = state.definition
    if state.phase not in ("running", "paused") or definition.ending(state.play):
        return []
    events = definition.leave(state.play, seat)
    own = own_events(definition)
    if own is not None:
        # Its events are the room's own, appended bare: a leave that changes nothing (Skirmish
        # Society's) records nothing.
        stamp = Stamp(now, state.game_id)
        return [own.stamped(event, stamp) for event in events]
    return told(state, _step(state, "leave", events, seat, None, now))


def told(state: GameState, step: PlayStarted | PlayRecorded) -> list[GameEvent]:
    """The start or a step, and the notices of the seats it leaves newly to move."""
    after = fold(state, [(state.version + 1, step)])
    return [step, *your_turn_notices(state, step, after)]


def _resolution(
    state: GameState, moves: dict[str, Any], kind: StepKind, now: datetime
) -> PlayRecorded:
    events = state.definition.resolve(state.play, by_seat(moves), draws(state))
    return _step(state, kind, events, None, None, now)


def _step(
    state: GameState,
    kind: StepKind,
    events: list[Any],
    seat: str | None,
    move: Any,
    now: datetime,
    audience: frozenset[str] | None = None,
) -> PlayRecorded:
    return PlayRecorded(
        turn=state.turn,
        kind=kind,
        events=recorded_step(events),
        player_id=seat,
        move=move,
        generation=state.rewinds,
        at=now,
        audience=None if audience is None else sorted(audience),
    )


def _in_play(state: GameState, seat: str) -> bool:
    player = state.players.get(seat)
    return player is not None and player.in_play
