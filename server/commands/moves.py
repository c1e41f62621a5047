"""Text for a game run by its definition (rules/game.py): a line that is none of the room's
commands is the game's when the game reads it (`read_text`), and is played as the move the
moves route would play; and /help tells such a game, with the forms its text takes."""

from typing import Any

from projections.game import GameState
from rules.game import Column, Game
from schema.api import CommandReply
from schema.commands import MakeMove
from schema.game_events import MoveSealed, PlayRecorded
from schema.views import PlayerView, PublicGame
from server.commands.context import Context, answer
from server.commands.parse import Problem
from server.commands.replies import not_a_move
from server.commands.text import clip, plural
from server.game.application import done
from server.game.outcome import Outcome

# The room's commands that every game takes, for a game run by its definition's /help.
ROOM_COMMANDS = "/resign, /broadcast, /notifications, /color, /pattern, /fork, /help"
ADMIN_COMMANDS = "/start, /pause, /unpause, /rewind, /ban, /unban, /kill_room"


async def game_line(ctx: Context, text: str, problem: Problem) -> CommandReply | None:
    """The game's answer to `text`, which `problem` says is none of the room's commands as
    written; None for a game not under way, or one that reads no text of its own (Skirmish
    Society: its moves are the room's /orders, /vote and /join_forces): then the room's reply
    says what is wrong. A text whose first word is no command and that the game does not
    read either is answered as neither, not as an unknown command: it was most likely meant
    as a move."""
    # No game, or a killed one: the room's reply says what is wrong.
    state = (await ctx.found.games.load(ctx.game_id)).state
    if state.phase in ("new", "joining", "killed"):
        return None
    definition = state.definition
    move = definition.read_text(text.strip().removeprefix("/"))
    if move is None:
        if not problem.unknown or not definition.text_forms:
            return None
        return CommandReply(not_a_move(text, definition.name, problem), ok=False)
    executed = await ctx.execute(MakeMove(actor=ctx.who.actor, now=ctx.now(), move=move))
    return answer(played(executed), done(executed))


def played(executed: Outcome[GameState]) -> str:
    """What a move did, as the room sees it: sealed, resolving a wait, played, or private."""
    sealed = next((e for e in executed.events if isinstance(e, MoveSealed)), None)
    steps = [e for e in executed.events if isinstance(e, PlayRecorded)]
    lines = []
    if sealed is not None:
        lines.append(
            f"Your move for turn {sealed.turn} is sealed: nobody sees it before every player "
            "waited for has moved, and you may send another until then."
        )
    for step in steps:
        if step.kind == "resolution":
            lines.append(f"Every move is in: turn {step.turn} is played.")
        elif step.audience is not None:
            others = [seat for seat in step.audience if seat != step.player_id]
            lines.append(f"Sent, seen by you and {', '.join(others)} only.")
        else:
            lines.append("Played.")
    ending = executed.state.definition.ending(executed.state.play)
    if ending is not None:
        results = ", ".join(f"{seat} {result}" for seat, result in sorted(ending.results.items()))
        lines.append(f"The game is over ({ending.by}): {results}.")
    return "\n".join(lines)


def summary(game: PublicGame, definition: Game[Any, Any], me: str | None, admin: bool) -> str:
    """/help for a game run by its definition: where it stands, who it waits for, the
    players, and every form of the game's text."""
    where = {"joining": "join phase", "running": f"turn {game.turn}"}.get(game.phase, game.phase)
    lines = [f"**{clip(game.name, 80)}** (game {game.id}, {game.game}): {where}."]
    names = {p.id: p.name for p in game.players}
    if game.ending is not None:
        results = ", ".join(
            f"{names.get(s, s)} {r}" for s, r in sorted(game.ending.results.items())
        )
        lines.append(f"Over ({game.ending.by}): {results}.")
    elif game.to_move:
        lines.append(f"Waiting for: {', '.join(names.get(s, s) for s in game.to_move)}.")
    lines += _players(game.players)
    lines.append("You are not playing in this game." if me is None else f"You play {me}.")
    lines.append("Moves, sent as they are (several orders or actions: one a line):")
    lines += [f"- `{form}`: {what}" for form, what in definition.text_forms]
    commands = f"Commands: {ROOM_COMMANDS}."
    lines.append(f"{commands} Admin: {ADMIN_COMMANDS}." if admin else commands)
    return "\n".join(lines)


def _players(players: list[PlayerView]) -> list[str]:
    """The players, with the game's own standings where it has them, best first."""
    if not any(p.standing for p in players):
        named = ", ".join(f"{p.name} ({p.id})" for p in players)
        return [f"{plural(len(players), 'player')}: {named}"]
    return ["Standings:"] + [
        f"{i}. {p.name} ({p.id}): {_columns(p.standing or {})}"
        for i, p in enumerate(players, start=1)
    ]


def _columns(standing: dict[str, Column]) -> str:
    """`territories 3, units 12, stance no mercy`: each column known (not null or empty)."""
    shown = [(name, value) for name, value in standing.items() if value not in (None, "")]
    return ", ".join(f"{name.replace('_', ' ')} {_value(value)}" for name, value in shown)


def _value(value: Column) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
