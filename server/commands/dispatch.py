"""A command's text in, the bot's reply out. The game's refusals become replies (`ok`
false) that a bot can post; only server trouble (5xx) passes through as an HTTP error.
A text that is none of the room's commands may be a move of a game run by its definition."""

from msgspec.structs import replace

from schema import errors as codes
from schema.api import CommandReply
from schema.errors import Refusal
from server.commands import admin, moves, players, replies
from server.commands.context import Context
from server.commands.parse import Problem, parse
from server.commands.text import fit, safe

HANDLERS: dict[str, players.Handler] = {**players.HANDLERS, **admin.HANDLERS}


def postable(text: str) -> str:
    """Mentions defused, and short enough for one Discord message."""
    return fit(safe(text).split("\n"))


def refused(message: str) -> CommandReply:
    return CommandReply(postable(message), ok=False)


async def respond(ctx: Context, text: str) -> CommandReply:
    try:
        return await _respond(ctx, text)
    except Refusal as error:
        # The text's fault is told in the reply; the server's trouble and the caller's rate
        # limit are the request's own answer (a 5xx, a 429 with Retry-After).
        if error.status >= 500 or error.entry is codes.RATE_LIMITED:
            raise
        return refused(error.message)


async def _respond(ctx: Context, text: str) -> CommandReply:
    request = parse(text)
    if isinstance(request, Problem):
        # The room's commands first: a game's text is what reads as none of them.
        played = None if ctx.game is None else await moves.game_line(ctx, text, request)
        return refused(replies.problem(request)) if played is None else _postable(played)
    if request.spec.needs_game and ctx.game is None:
        return refused(replies.needs_game(request.name))
    return _postable(await HANDLERS[request.name](ctx, request))


def _postable(reply: CommandReply) -> CommandReply:
    return replace(reply, reply=postable(reply.reply))
