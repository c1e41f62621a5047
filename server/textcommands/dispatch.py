"""A command's text in, the bot's reply out. The game's refusals become replies (`ok`
false) that a bot can post; only server trouble (5xx) passes through as an HTTP error."""

from msgspec.structs import replace

from schema.api import CommandReply
from server.decide.errors import DomainError
from server.errors import ApiError
from server.textcommands import admin, players, replies
from server.textcommands.context import Context
from server.textcommands.parse import Problem, parse
from server.textcommands.text import fit, safe

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
    except DomainError as error:
        if error.status >= 500:
            raise
        return refused(error.message)
    except ApiError as error:
        # A value the setup refuses: the text's fault, not the body's.
        if error.status != 422:
            raise
        return refused(error.message)
    return replace(reply, reply=postable(reply.reply))
