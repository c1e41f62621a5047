"""What the bot says about the game as a whole: setup, start, the admin's changes, and a
turn's resolution. Pure."""

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from projections.schedule import Window
from rules.skirmish.turn import OrderReport
from schema.game_events import Settings, TurnResolved
from schema.views import PublicGame
from server.commands.replies import VALID, effect_line
from server.commands.status import schedule, turn_line, vote_lines
from server.commands.text import clip, plural
from server.game.times import hour_label, offset_label

_VOTES = {
    "every_turn": "a vote every turn",
    "every_other_turn": "a vote every other turn",
    "disabled": "no votes",
}


def settings_line(settings: Settings) -> str:
    votes = _VOTES[settings.votes]
    if settings.votes != "disabled":
        votes += f" from turn {settings.vote_start_turn}"
        if settings.voting_mode == "same_day":
            votes += " (same-day voting)"
    return (
        f"First to {settings.vp_target} VP wins; {settings.map_type} map; {votes}; "
        f"hints {'on' if settings.hints else 'off'}. {schedule(settings)}"
    )


def created(game: PublicGame) -> str:
    return (
        f"**{clip(game.name, 80)}** is set up (game {game.id}); you are its admin.\n"
        f"{settings_line(game.settings)}\n"
        "Players join with /join; send /start when everyone is in (3 to 20 players)."
    )


def forked(game: PublicGame) -> str:
    assert game.forked_from is not None  # a fork's view says where it came from
    source = game.forked_from
    return (
        f"**{clip(game.name, 80)}** (game {game.id}) is forked from game {source.game} at the "
        f"start of turn {source.turn}: a sandbox where you play every seat."
    )


def started(game: PublicGame, window: Window, now: datetime) -> str:
    """A game's start, or a real fork's (whose seats nobody claimed play as resigned)."""
    playing = [p.name for p in game.players if p.status == "active"]
    lines = [
        f"**{clip(game.name, 80)}** has started! {turn_line(game, window, now)}",
        f"{plural(len(playing), 'player')}: {', '.join(playing)}.",
    ]
    lines += vote_lines(game.vote, game.effect)
    lines.append("Send /help to see your armies and /cheat_sheet for the orders.")
    return "\n".join(lines)


def paused() -> str:
    return (
        "The game is paused: no turn resolves until an admin sends /unpause. Orders and votes "
        "are still taken."
    )


def unpaused(game: PublicGame, window: Window, now: datetime) -> str:
    return f"The game resumes. {turn_line(game, window, now)}"


def switch(what: str, on: bool, changed: bool, detail: str) -> str:
    state = "on" if on else "off"
    if not changed:
        return f"{what} is already {state}."
    return f"{what} is now {state}: {detail}"


def broadcasting(on: bool, changed: bool) -> str:
    detail = "players can send /broadcast." if on else "/broadcast is refused for everyone."
    return switch("Broadcasting", on, changed, detail)


def fast_mode(game: PublicGame, window: Window, now: datetime, changed: bool) -> str:
    on = game.settings.fast_mode
    detail = (
        "a turn resolves every 15 minutes." if on else "a turn resolves once a day."
    ) + f" {turn_line(game, window, now)}"
    return switch("Fast mode", on, changed, detail)


def banned(name: str, join_phase: bool) -> str:
    if join_phase:
        return (
            f"{name} is banned and removed from the game. If unbanned before the start, "
            "they can /join again."
        )
    return (
        f"{name} is banned: their orders are ignored. They are not resigned; /unban lets "
        "them play on."
    )


def unbanned(name: str) -> str:
    return f"{name} is no longer banned."


def admin_added(name: str) -> str:
    return (
        f"{name} is now an admin of this game. An admin who also plays sees only what every "
        "player sees."
    )


def admin_removed(name: str) -> str:
    return f"{name} is no longer an admin of this game."


def resolution_time(game: PublicGame, window: Window, now: datetime, changed: bool) -> str:
    hour = hour_label(game.settings.resolution_hour)
    if not changed:
        return f"Turns already resolve at {hour} local time."
    return f"Turns now resolve at {hour} local time. {turn_line(game, window, now)}"


def local_time(game: PublicGame, hour: int) -> str:
    settings = game.settings
    return (
        f"Local time set: it is {hour_label(hour).split(' ')[0]} where you are, so the game's "
        f"time zone is {offset_label(settings.utc_offset)} (no daylight saving). If that is "
        "wrong, send /local_time again with the hour it is now. Turns still resolve at the "
        f"same moment, {hour_label(settings.resolution_hour)} local time."
    )


def killed(name: str) -> str:
    return f"{clip(name, 80)} is gone: the room was killed. Use /setup for a new game."


def rewound(
    game: PublicGame,
    window: Window,
    now: datetime,
    by: str | None = None,
    reason: str | None = None,
) -> str:
    """A rewind, told to everyone with who did it and why (rules.md: a rewind is public)."""
    who = "" if by is None else f"{by} rewound it" + (f": {reason}" if reason else "")
    return (
        f"The last resolution is undone: the game is back at turn {game.turn}. "
        + (f"{who}. " if who else "")
        + "That turn's orders stand as submitted orders and can be replaced; its votes must be "
        f"cast again. {turn_line(game, window, now)}"
    )


def _report(order: OrderReport) -> str:
    text = clip(order.text, 60)
    if order.result == "succeeded":
        return f"{VALID} {text}"
    if order.result == "invalid":
        return f"{text} (invalid: {order.reason or 'not an order'})"
    return f"{text} ({order.result})"


def resolved(
    event: TurnResolved,
    names: Mapping[str, str],
    game: PublicGame,
    window: Window,
    now: datetime,
) -> str:
    """The announcement of a turn's results; `names` maps every player id the event
    mentions (joint players' former halves too) to a name."""

    def name(player_id: str) -> str:
        return names.get(player_id, player_id)

    title = f"Turn {event.turn} has resolved."
    if event.effect:
        title += f" Effect: {event.effect}."
    lines = [title]
    by_player: defaultdict[str, list[str]] = defaultdict(list)
    for order in event.orders:
        if order.result != "replaced":
            by_player[order.player].append(_report(order))
    lines += [f"{name(p)}: {'; '.join(orders)}" for p, orders in by_player.items()]
    if not by_player:
        lines.append("No orders: every army held.")
    if event.dead:
        lost = ", ".join(f"{name(d.player)} in {d.territory}" for d in event.dead)
        lines.append(f"Armies destroyed: {lost}.")
    gained = [f"{name(p)} +{n} ({event.vp.get(p, n)} VP)" for p, n in event.vp_gained.items() if n]
    if gained:
        lines.append(f"VP: {', '.join(gained)}.")
    outcome = event.vote_outcome
    if outcome is not None:
        counts = ", ".join(f"{e} {n}" for e, n in outcome.tally.items())
        lines.append(
            f"Vote: {outcome.winner} won ({counts}); it applies to turn {outcome.applies_to_turn}."
        )
    for joint, (a, b) in event.joined.items():
        lines.append(f"{name(a)} and {name(b)} have joined forces as {name(joint)}.")
    if event.eliminated:
        lines.append(f"Out of the game: {', '.join(name(p) for p in event.eliminated)}.")
    if event.winner is not None:
        lines.append(f"{name(event.winner)} wins the game!")
        return "\n".join(lines)
    lines.append(turn_line(game, window, now))
    if event.next_effect:
        lines.append(f"Effect for turn {game.turn}: {effect_line(event.next_effect)}")
    if event.next_vote is not None:
        first, second = event.next_vote.candidates
        lines.append(
            f"New vote: {first} or {second} (a tie goes to {event.next_vote.tie_break}). "
            "Use /vote EFFECT."
        )
    return "\n".join(lines)
