"""What the bot answers a player. Pure: each reply is made from the data the command
produced. Replies are plain text with a little Discord markdown."""

from collections.abc import Sequence

from rules.skirmish.effects import DESCRIPTIONS, parse_effect
from schema.api import OrdersAccepted
from schema.game_events import RecordedOrder
from schema.views import MyOrders, VoteView
from server.commands.parse import COMMANDS, Problem
from server.commands.text import clip, plural

VALID, INVALID = "\u2713", "\u2717"  # check mark, ballot x


def problem(found: Problem) -> str:
    lines = [found.message]
    if found.suggestion:
        lines.append(f"Did you mean {found.suggestion}?")
    if found.usage:
        lines.append(f"Usage: {found.usage}")
    else:
        lines.append("Send /help for the game and the commands, /cheat_sheet for orders.")
    return "\n".join(lines)


def not_a_move(text: str, game: str, found: Problem) -> str:
    """A text that is no command, in a game run by its definition that does not read it as
    a move either: not "Unknown command", since it was most likely meant as a move."""
    lines = [f"Neither a command nor one of {game}'s moves: {clip(' '.join(text.split()), 60)}"]
    if found.suggestion:
        lines.append(f"Did you mean {found.suggestion}?")
    lines.append(f"Send /help for the commands and the forms {game}'s moves take.")
    return "\n".join(lines)


def needs_game(name: str) -> str:
    return (
        f"/{name} is played in a game: send it to the game's commands "
        "(POST /v1/games/<game>/commands). /setup creates a game."
    )


def command_list(admin: bool) -> list[str]:
    lines = []
    for spec in COMMANDS.values():
        if admin or not spec.admin:
            usage = spec.usage.split(" (")[0]
            if len(usage) > 50:
                usage = f"{usage.split()[0]} [options]"
            lines.append(f"{usage}: {spec.summary}")
    return lines


def order_line(order: RecordedOrder) -> str:
    text = clip(order.text, 120)
    if order.valid:
        return f"{VALID} {text}"
    return f"{INVALID} {text}: {order.reason or 'not an order'}"


RECEIPT_NOTE = (
    "Keep the receipt: when the turn resolves, the event feed reveals this submission with it, "
    "for you to check that it was resolved as sent. Until then only you can see its nonce, in "
    "your own event feed."
)


def submitted(accepted: OrdersAccepted) -> str:
    """The orders as checked, and the submission's receipt (docs/rules.md, "Receipts"),
    second, so that a long reply cut to Discord's limit keeps it. Never the nonce: the
    receipt is all a player keeps, and a chat front end may post a reply anywhere."""
    orders = accepted.orders
    valid = sum(o.valid for o in orders)
    lines = [f"Orders for turn {accepted.turn}:", f"Receipt: {accepted.receipt}"]
    lines += [order_line(o) for o in orders]
    if not orders:
        lines.append("(no orders in that text)")
    summary = f"{valid} of {plural(len(orders), 'order')} valid."
    if valid < len(orders):
        summary += " Invalid orders are ignored: those armies keep their last valid order."
    lines.append(summary)
    lines.append(RECEIPT_NOTE)
    return "\n".join(lines)


def my_orders(mine: MyOrders, armies: Sequence[str], name: str) -> str:
    """My orders this turn (what each army will do), the ones that did not count, and my
    valid orders of last turn."""
    if mine.turn == 0:
        return "The game has not started yet: orders open when an admin sends /start."
    lines = [f"{name}'s orders for turn {mine.turn}:"]
    if mine.current:
        lines += [f"{VALID} {clip(o.text, 120)}" for o in mine.current]
    else:
        lines.append("(none yet)")
    ordered = {o.unit for o in mine.current}
    idle = [t for t in armies if t not in ordered]
    if idle:
        lines.append(f"Armies with no order (they hold): {', '.join(idle)}")
    invalid = [o for s in mine.submitted for o in s if not o.valid]
    if invalid:
        lines.append("Invalid orders sent this turn (ignored):")
        lines += [order_line(o) for o in invalid]
    if mine.last_turn:
        lines.append(f"Last turn (turn {mine.turn - 1}):")
        lines += [f"- {clip(o.text, 120)}: {o.result}" for o in mine.last_turn]
    elif mine.turn > 1:
        lines.append(f"No valid orders last turn (turn {mine.turn - 1}).")
    return "\n".join(lines)


def effect_line(name: str) -> str:
    try:
        return f"{name}: {DESCRIPTIONS[parse_effect(name)]}"
    except ValueError:
        return name


def tally(vote: VoteView) -> str:
    if vote.tally is None:
        return "Ballots are secret until the turn resolves."
    counts = ", ".join(f"{effect} {vote.tally.get(effect, 0)}" for effect in vote.candidates)
    return f"Tally: {counts} (a tie goes to {vote.tie_break})."


def voted(name: str, effect: str, vote: VoteView | None) -> str:
    if vote is None or vote.tally is None:
        return f"{name}'s secret vote for {effect} is in; the tally is revealed at resolution."
    return f"{name} votes {effect}.\n{tally(vote)}"


def join_forces(me: str, other: str, joint: str | None, turn: int) -> str:
    """`joint` is the joint player's name-to-be once both have asked."""
    if joint is not None:
        return (
            f"{me} and {other} both asked: they join forces as {joint} when turn {turn} resolves."
        )
    return (
        f"{me} asks to join forces with {other}. It happens when turn {turn} resolves if "
        f"{other} also sends /join_forces @{me.replace(' ', '')} this turn."
    )


def look(name: str, what: str, value: int, changed: bool) -> str:
    if not changed:
        return f"{name}'s {what} is already {value}."
    return f"{name}'s {what} is now {value}."


def notifications(name: str, enabled: bool, changed: bool) -> str:
    state = "on" if enabled else "off"
    detail = (
        "the bot tells you before each resolution and how your orders went."
        if enabled
        else "the bot will not DM you about resolutions."
    )
    return f"Notifications {'are already' if not changed else 'now'} {state} for {name}: {detail}"


def renamed(old: str, new: str) -> str:
    if old == new:
        return f"Your name is already {new}."
    return f"{old} is now called {new} on the map."


def broadcast(message: str) -> str:
    return f"Anonymous broadcast:\n{message}"


def resigned(name: str, left_join_phase: bool) -> str:
    if left_join_phase:
        return f"{name} left the game. You can /join again while it is in its join phase."
    return (
        f"{name} has resigned for good. Their armies hold until captured, and notifications "
        "are off."
    )


def joined(name: str, player_id: str, game_name: str, players: int) -> str:
    return (
        f"{name} joined {game_name} as {player_id}. {plural(players, 'player')} in so far; "
        "an admin starts the game with /start."
    )


def claimed(name: str, player_id: str, game_name: str) -> str:
    return (
        f"{name} claimed their seat ({player_id}) in {game_name}; an admin starts the fork "
        "with /start."
    )


def declined(game_name: str) -> str:
    return (
        f"You declined your seat in {game_name}, for good. Unless another player invited to it "
        "claims it, it plays as resigned once the fork starts."
    )
