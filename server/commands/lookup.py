"""A Discord user mention in a command, as a bot may pass it on: the player it names is the
account of the client's user (server/commands/context.py), others are found by name
(server/game/decide/names.py). Pure."""

import re

# A Discord user mention, as a bot may pass it on: <@123> or <@!123>.
_MENTION = re.compile(r"<@!?(\d{1,30})>")


def mentioned_user(reference: str) -> str | None:
    """The Discord user id of a mention, or None when the reference is a name or an id."""
    match = _MENTION.fullmatch(reference.strip())
    return match.group(1) if match else None
