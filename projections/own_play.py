"""The room's fold of a game whose events are its own (`OwnEvents`: Skirmish Society's): its
play, folded inside the room's state and handed the room's facts whenever they change; its
options, read from its settings (it records none); its resolution's seats, next turn and
end; its fork's play. projections/evolve.py hands each such step here.

Pure: no I/O, no clock.
"""

from msgspec.structs import replace

from projections.game import GameState
from projections.owned import Reseat, own_events, reseated, room_facts
from projections.skirmish.options import options_of
from projections.skirmish.state import SkirmishEvent, SkirmishPlay, with_room
from projections.skirmish.state import evolve as skirmish_evolve
from projections.skirmish.state import forked as skirmish_forked
from schema.game_events import GameForked, TurnResolved


def created(state: GameState) -> GameState:
    """The game just created: its state there from the creation on, with the room's facts,
    and its options read from its settings."""
    return replace(
        state,
        options=options_of(state.settings, state.seed),
        play=with_room(None, room_facts(state.settings, state.players)),
    )


def optioned(state: GameState) -> GameState:
    """The options after a change of settings, which they are read from."""
    if not isinstance(state.play, SkirmishPlay):
        return state
    return replace(state, options=options_of(state.settings, state.seed))


def played(state: GameState, event: SkirmishEvent) -> GameState:
    """The state after Skirmish Society's own fold took `event` (a game with a definition
    folds its own events, inside the room's)."""
    if not isinstance(state.play, SkirmishPlay):
        return state
    return replace(state, play=skirmish_evolve(state.play, event))


def seated(state: GameState, seat: str | None = None) -> GameState:
    """The state after an event that changed its settings or seats (only `seat`, if named):
    Skirmish Society's own handed the room's facts anew (no other game reads them)."""
    play = state.play
    if not isinstance(play, SkirmishPlay):
        return state
    if seat is None:
        return replace(state, play=with_room(play, room_facts(state.settings, state.players)))
    return replace(state, play=with_room(play, reseated(play.room, state.players[seat])))


def resolved(state: GameState, event: TurnResolved) -> GameState:
    """The room's part of a resolution (the seats its game merges and puts out, the next
    turn, the game's end), and the game's own fold of it."""
    own = own_events(state.definition)
    assert own is not None, f"{state.game} records no resolutions of its own"
    reseat = own.reseated(event) or Reseat()
    players = dict(state.players)
    for joint, (a, b) in reseat.merged.items():
        first, second = players.pop(a), players.pop(b)
        players[joint] = replace(
            first,
            id=joint,
            name=f"{first.name}/{second.name}",
            accounts=first.accounts + second.accounts,
            notifications=first.notifications or second.notifications,
            banned=first.banned and second.banned,
        )
    for player_id in reseat.out:
        if players[player_id].status == "active":
            players[player_id] = replace(players[player_id], status="eliminated")
    after = played(state, event)
    ended = after.definition.ending(after.play) is not None
    state = replace(
        after,
        phase="finished" if ended else state.phase,
        players=players,
        turn=state.turn + 1,
        # The turn's wait begins afresh: all its time, no unpause in it, its lock after this.
        wait_began_at=event.at,
        wait_reminded=False,
        resumed_at=None,
        resolved_at=event.at,
    )
    # Most turns merge nobody and eliminate nobody: their seats are as they were.
    return seated(state) if reseat.merged or reseat.out else state


def forked(state: GameState, event: GameForked) -> GameState:
    """A fork's state: it records Skirmish Society's state in its own fields, and its options
    are its settings' (a fork has no seed: it plays its source's map)."""
    play = skirmish_forked(event, room_facts(state.settings, state.players))
    return replace(state, play=play, options=options_of(state.settings, state.seed))
