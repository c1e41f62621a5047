"""/help: the game's state and the caller's standing, without links. Pure."""

from collections.abc import Sequence
from datetime import datetime

from projections.schedule import Window
from schema.game_events import Settings
from schema.views import PlayerView, PublicGame, VoteView
from server.commands.replies import command_list, effect_line, tally
from server.commands.text import clip, ordinal, plural
from server.game.times import hour_label, moment, offset_label

# Standings shown in /help; a game has at most 20 players, but a reply must stay short.
SHOWN_STANDINGS = 10


def schedule(settings: Settings) -> str:
    if settings.fast_mode:
        return "Fast mode: a turn resolves every 15 minutes."
    return (
        f"Turns resolve daily at {hour_label(settings.resolution_hour)} local time "
        f"({offset_label(settings.utc_offset)})."
    )


def vote_lines(vote: VoteView | None, effect: str | None) -> list[str]:
    lines = []
    if vote is not None:
        first, second = vote.candidates
        lines += [
            f"Vote this turn: {first} or {second}. Use /vote EFFECT.",
            f"- {effect_line(first)}",
            f"- {effect_line(second)}",
            tally(vote),
        ]
    if effect is not None:
        lines.append(f"Effect in force this turn: {effect_line(effect)}")
    return lines


def standing(player: PlayerView, rank: int, of: int, armies: Sequence[str]) -> str:
    where = f" in {', '.join(armies)}" if armies else ""
    status = "" if player.status == "active" else f" ({player.status})"
    banned = " (banned)" if player.banned else ""
    return (
        f"You: {player.name} ({player.id}){status}{banned}, {ordinal(rank)} of {of}: "
        f"{player.vp} VP, {plural(player.territories, 'territory', 'territories')}, "
        f"{plural(player.armies, 'army', 'armies')}{where}."
    )


def turn_line(game: PublicGame, window: Window, now: datetime) -> str:
    """Where the game stands and whether orders are taken, and until when: the one telling
    of the turn's window (the decider's, projections/schedule.py) that /help and every
    announcement give, so that no reply contradicts a refusal."""
    if game.claims is not None:
        claimed = sum(claim == "claimed" for claim in game.claims.values())
        return (
            f"A fork waiting for its start at turn {game.turn}: {claimed} of "
            f"{plural(len(game.claims), 'seat')} claimed. Its source's players take their old "
            "seat with /claim or decline it with /decline; an admin starts the fork with "
            "/start, and a seat nobody claimed by then plays as resigned."
        )
    if game.phase == "joining":
        return (
            f"Join phase: {plural(len(game.players), 'player')} so far. Join with /join; "
            "an admin starts the game with /start."
        )
    if game.phase == "paused":
        return (
            f"Turn {game.turn}, paused: no turn resolves until an admin sends /unpause. "
            "Orders and votes are still taken."
        )
    if game.phase == "finished":
        winner = next((p.name for p in game.players if p.id == game.winner), game.winner)
        return f"Finished after turn {game.turn - 1}. Winner: {winner}!"
    turn = game.turn
    if window.state == "due":
        return (
            f"Turn {turn} is due: it resolves any moment now, and orders for turn {turn + 1} "
            "open a few minutes after it."
        )
    if window.resolves_at is None:
        return f"Turn {turn} is open for orders."
    resolves = moment(window.resolves_at, now, game.settings.utc_offset)
    if window.state == "locked":
        assert window.opens_at is not None  # a lock window ends
        opens = moment(window.opens_at, now, game.settings.utc_offset)
        if window.opens_at > window.resolves_at:
            return (
                f"Turn {turn}'s orders are closed: it resolves at {resolves}; orders for turn "
                f"{turn + 1} open at {opens}."
            )
        return f"Turn {turn} opens for orders at {opens}. Next resolution: {resolves}."
    assert window.closes_at is not None  # a scheduled resolution has its lock window
    lock = plural(int((window.resolves_at - window.closes_at).total_seconds() // 60), "minute")
    return (
        f"Turn {turn} is open for orders (they close {lock} before the resolution). "
        f"Next resolution: {resolves}."
    )


def summary(
    game: PublicGame,
    window: Window,
    now: datetime,
    *,
    me: str | None,
    armies: Sequence[str],
    admin: bool,
    invited: str | None = None,
) -> str:
    """`me` is the caller's player id, if it plays; `armies` where its armies stand;
    `invited` the seat of a fork waiting for its start that it may claim."""
    lines = [f"**{clip(game.name, 80)}** (game {game.id}): {turn_line(game, window, now)}"]
    if game.phase != "finished":
        lines.append(f"{schedule(game.settings)} First to {game.settings.vp_target} VP wins.")
        lines += vote_lines(game.vote, game.effect)
    ranked = game.players
    mine = next((i for i, p in enumerate(ranked) if p.id == me), None)
    if mine is not None and game.claims is not None:
        lines.append(f"You have claimed your seat: {ranked[mine].name} ({ranked[mine].id}).")
    elif mine is not None and game.phase == "joining":
        lines.append(f"You have joined as {ranked[mine].name} ({ranked[mine].id}).")
    elif mine is not None:
        lines.append(standing(ranked[mine], mine + 1, len(ranked), armies))
    elif invited is not None:
        seat = next(p for p in ranked if p.id == invited)
        lines.append(f"You are invited to the seat of {seat.name} ({seat.id}): /claim or /decline.")
    elif game.claims is not None:
        lines.append("You are invited to no seat of this fork.")
    elif game.phase == "joining":
        lines.append("You are not in this game yet: send /join.")
    else:
        lines.append("You are not playing in this game.")
    if ranked and game.phase != "joining":
        lines += standings(ranked, SHOWN_STANDINGS)
    elif ranked:
        lines.append(f"Players: {', '.join(p.name for p in ranked)}")
    lines.append(_commands_hint(admin))
    return "\n".join(lines)


def standings(ranked: Sequence[PlayerView], shown: int) -> list[str]:
    """The standings as /help and the bot's resolution posts show them: the first `shown`
    players, in the order given (standings order), one a line."""
    lines = ["Standings:"]
    lines += [
        f"{i}. {p.name}: {p.vp} VP, {p.territories} terr., {p.armies} armies"
        + ("" if p.status == "active" else f" ({p.status})")
        for i, p in enumerate(ranked[:shown], start=1)
    ]
    if len(ranked) > shown:
        lines.append(f"... and {len(ranked) - shown} more")
    return lines


def _commands_hint(admin: bool) -> str:
    player = "/submit, /list, /vote, /join_forces, /color, /pattern, /broadcast, /cheat_sheet"
    if not admin:
        return f"Commands: {player}, /hint."
    return f"Commands: {player}. Admin: /start, /pause, /resolve, /rewind, /ban, /kill_room."


def without_game() -> str:
    lines = [
        "Skirmish Society: a game of territory and diplomacy, resolved once a day.",
        "There is no game here: create one with /setup [name] (or /advanced_setup), then "
        "players /join and the admin sends /start.",
        "Commands:",
        *command_list(admin=True),
    ]
    return "\n".join(lines)
