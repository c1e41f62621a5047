"""A command's text in, the bot's reply out. The game's refusals become replies (`ok`
false) that a bot can post; only server trouble (5xx) passes through as an HTTP error."""

from msgspec.structs import replace

from schema import errors as codes
from schema.api import CommandReply
from schema.errors import Refusal
from server.commands import admin, players, replies
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
    request = parse(text)
    if isinstance(request, Problem):
        return refused(replies.problem(request))
    if request.spec.needs_game and ctx.game is None:
        return refused(replies.needs_game(request.name))
    try:
        reply = await HANDLERS[request.name](ctx, request)
    except Refusal as error:
        # The text's fault is told in the reply; the server's trouble and the caller's rate
        # limit are the request's own answer (a 5xx, a 429 with Retry-After).
        if error.status >= 500 or error.entry is codes.RATE_LIMITED:
            raise
        return refused(error.message)
    return replace(reply, reply=postable(reply.reply))
