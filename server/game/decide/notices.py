"""What the bot tells each player: a reminder before a resolution (or a deadline), a private
message sent to them, and in a game run by its definition that it is their turn. Skirmish
Society's words, its reminders and results, are its own (projections/skirmish/notices.py)."""

from collections.abc import Iterable
from datetime import datetime

from projections.game import GameState
from projections.owned import own_events
from projections.playing import newly_waited
from schema.commands import RemindPlayers
from schema.game_events import GameEvent, PlayerNotified, PlayRecorded, PlayStarted
from schema.refusals import WrongTurn
from server.game.decide.acting import draws, require_admin, require_phase


def remind_players(state: GameState, command: RemindPlayers) -> list[GameEvent]:
    """The current wait's reminders, once: in Skirmish Society to every player who wants
    notices, in a game run by its definition to the seats it still waits for (GameState's
    `to_remind`), each saying when the wait's deadline is."""
    require_admin(state, command.actor)
    require_phase(state, "running")
    if command.turn != state.turn:
        raise WrongTurn(f"the game is at turn {state.turn}, not {command.turn}")
    resolves_at = state.next_resolution_at()
    if state.reminded or resolves_at is None:
        return []
    own = own_events(state.definition)
    if own is None:
        # The room's words, the same to each seat.
        same = wait_reminder_text(state, resolves_at)
        return [
            PlayerNotified(player_id=player.id, kind="reminder", turn=state.turn, text=same)
            for player in state.to_remind()
        ]
    # Skirmish Society's words, each seat's own (its orders, a hint).
    turn, rolls = state.turn, draws(state)
    return [
        PlayerNotified(
            player_id=player.id,
            kind="reminder",
            turn=turn,
            text=own.reminder(state.play, player.id, turn, resolves_at, rolls),
        )
        for player in state.to_remind()
    ]


def wait_reminder_text(state: GameState, deadline: datetime) -> str:
    """A reminder of a game run by its definition: the seat's time runs out at `deadline`
    (to the second: a wait may last a minute), and what happens then; or, to everyone, when
    the turn ends."""
    when = f"{deadline:%Y-%m-%d %H:%M:%S} UTC"
    wait = state.definition.to_move(state.play)
    if wait.reminder is not None and wait.reminder.everyone:
        # To those who moved too (`Reminder.everyone`).
        return f"{state.settings.name}: turn {state.turn} ends at {when}."
    if wait.sealed:
        return (
            f"{state.settings.name}: you have not moved yet in turn {state.turn}. "
            f"It goes on without your move at {when}."
        )
    return (
        f"{state.settings.name}: it is still your turn, until {when}. Then the game moves for you."
    )


def message_notices(
    state: GameState, sender: str, recipients: Iterable[str]
) -> list[PlayerNotified]:
    """That `sender` wrote to each of `recipients` in private. Not what they wrote: the
    message is in the game's feed, for its audience, and a notice may travel further (a
    trusted webhook DMs it)."""
    name = state.players[sender].name
    return [
        PlayerNotified(
            player_id=player.id,
            kind="message",
            turn=state.turn,
            text=f"{state.settings.name}: {name} sent you a private message. "
            "It is in the game's events, for its sender and you only.",
        )
        for player in (state.players.get(seat) for seat in sorted(recipients))
        if player is not None and player.wants_notices
    ]


def your_turn_notices(
    before: GameState, step: PlayStarted | PlayRecorded, after: GameState
) -> list[PlayerNotified]:
    """A notice to each player the start or a step of a game run by its definition leaves
    newly to move, sent with it, as results are: the game's first wait, a turn passed to
    them, or a new turn of a sealed wait begun. It says until when their time runs, if it
    does."""
    definition = before.definition
    if isinstance(step, PlayStarted):
        seats = definition.to_move(after.play).seats
    else:
        seats = newly_waited(definition, step, before.play, after.play)
    text = f"{after.settings.name}: it is your turn"
    deadline = after.next_resolution_at()
    if deadline is not None:
        text += f", until {deadline:%Y-%m-%d %H:%M} UTC"
    return [
        PlayerNotified(player_id=seat, kind="your_turn", turn=after.turn, text=f"{text}.")
        for seat in sorted(seats)
        if seat in after.players and after.players[seat].wants_notices
    ]
