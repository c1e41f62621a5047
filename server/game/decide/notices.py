"""What the bot tells each player: a reminder before a resolution (or a deadline), their
results after it, a private message sent to them, and in a game run by its definition that it
is their turn."""

from collections.abc import Iterable
from datetime import datetime, timedelta

from projections.game import GameState, Player
from projections.playing import definition_of, newly_waited
from projections.views import my_orders
from rules.kit.prng import derived
from rules.skirmish.turn import OrderReport
from schema.commands import RemindPlayers
from schema.game_events import GameEvent, PlayerNotified, PlayRecorded, PlayStarted, TurnResolved
from server.game.decide.acting import require_admin, require_phase
from server.game.decide.errors import WrongTurn
from server.game.words import HINTS

# A message, not the record: the turn's results hold every order.
MAX_LISTED = 40
_MARKS = {"succeeded": "✓", "failed": "✗", "cut": "✗", "invalid": "✗", "replaced": "·"}


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
    # A game run by its definition tells each seat the same; Skirmish Society each their orders.
    same = None if state.definition is None else wait_reminder_text(state, resolves_at)
    return [
        PlayerNotified(
            player_id=player.id,
            kind="reminder",
            turn=state.turn,
            text=same or reminder_text(state, player, resolves_at),
        )
        for player in state.to_remind()
    ]


def wait_reminder_text(state: GameState, deadline: datetime) -> str:
    """A reminder of a game run by its definition: the seat's time runs out at `deadline`
    (to the second: a wait may last a minute), and what happens then; or, to everyone, when
    the turn ends."""
    when = f"{deadline:%Y-%m-%d %H:%M:%S} UTC"
    wait = definition_of(state).to_move(state.play)
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


def reminder_text(state: GameState, player: Player, resolves_at: datetime) -> str:
    local = resolves_at + timedelta(hours=state.settings.utc_offset)
    armies = sum(1 for owner in state.skirmish.board.armies.values() if owner == player.id)
    ordered = len(my_orders(state, player.id).current)
    text = (
        f"{state.settings.name}: turn {state.turn} resolves at {local:%H:%M} local time "
        f"({resolves_at:%H:%M} UTC). You have orders for {ordered} of your {armies} armies; "
        "the others will hold. Orders lock a few minutes before."
    )
    if not state.settings.hints:
        return text
    # Drawn from the game's randomness, so that the log says which hint each player got.
    hint = derived(state.randomness, "hints", state.turn, player.id).choice(HINTS)
    return f"{text}\nHint: {hint}"


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


def results_notices(state: GameState, resolved: TurnResolved) -> list[PlayerNotified]:
    """Each player's results, sent with the resolution itself, so that none is ever lost."""
    joint_of = {member: joint for joint, pair in resolved.joined.items() for member in pair}
    # Each player's orders and deaths, gathered once rather than sought for every player.
    orders: dict[str, list[OrderReport]] = {}
    for order in resolved.orders:
        orders.setdefault(order.player, []).append(order)
    dead: dict[str, list[str]] = {}
    for death in resolved.dead:
        dead.setdefault(death.player, []).append(death.territory)
    return [
        PlayerNotified(
            player_id=joint_of.get(player.id, player.id),
            kind="results",
            turn=resolved.turn,
            text=results_text(
                state, player, resolved, orders.get(player.id, []), dead.get(player.id, [])
            ),
        )
        for player in state.players.values()
        if player.wants_notices
    ]


def results_text(
    state: GameState,
    player: Player,
    resolved: TurnResolved,
    mine: list[OrderReport],
    killed_in: list[str],
) -> str:
    """The player's results: `mine`, their orders of the turn; `killed_in`, where armies of
    theirs died."""
    lines = [f"{state.settings.name}: turn {resolved.turn} resolved."]
    for order in mine[:MAX_LISTED]:
        detail = "" if order.result == "succeeded" else f" ({order.reason or order.result})"
        lines.append(f"{_MARKS[order.result]} {order.text}{detail}")
    if len(mine) > MAX_LISTED:
        lines.append(f"... and {len(mine) - MAX_LISTED} more orders: see the turn's results.")
    if not mine:
        lines.append("You gave no orders: your armies held.")
    lines.extend(f"Your army in {territory} was killed." for territory in killed_in)
    joint = next((j for j, pair in resolved.joined.items() if player.id in pair), None)
    me = joint or player.id
    gained = resolved.vp_gained.get(player.id, 0)
    lines.append(
        f"You have {resolved.vp.get(me, state.skirmish.vp_of(player.id))} VP (+{gained} this turn)."
    )
    if joint is not None:
        lines.append(f"You joined forces: you now play as {joint}.")
    if resolved.next_effect:
        lines.append(f"Next turn's effect: {resolved.next_effect}.")
    if resolved.winner is not None:
        winner = state.players.get(resolved.winner)
        lines.append(f"{winner.name if winner else resolved.winner} has won the game!")
    return "\n".join(lines)


def your_turn_notices(
    before: GameState, step: PlayStarted | PlayRecorded, after: GameState
) -> list[PlayerNotified]:
    """A notice to each player the start or a step of a game run by its definition leaves
    newly to move, sent with it, as results are: the game's first wait, a turn passed to
    them, or a new turn of a sealed wait begun. It says until when their time runs, if it
    does."""
    definition = definition_of(before)
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
