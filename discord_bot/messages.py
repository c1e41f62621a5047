"""Replies within Discord's limits: 2,000 characters a message, split on line boundaries."""

import discord

# Discord's limit on a message's content.
LIMIT = 2000


def split(text: str, limit: int = LIMIT) -> list[str]:
    """The text in parts of at most `limit` characters, cut between lines; a line longer
    than a whole part is cut where it must. Blank parts are left out. (The replies to
    commands and the herald's posts alike.)"""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            parts.append(current)
            joined = line
        current = joined
    parts.append(current)
    return [part for part in parts if part.strip()]


def reply_parts(text: str) -> list[str]:
    """A command's reply as messages: never none (Discord wants an answer)."""
    return split(text) or ["(no reply)"]


async def follow_up(interaction: discord.Interaction, text: str, *, ephemeral: bool) -> None:
    """Post `text` after the interaction was deferred, in as many messages as it takes."""
    for message in reply_parts(text):
        await interaction.followup.send(message, ephemeral=ephemeral)


async def answer_now(interaction: discord.Interaction, text: str) -> None:
    """Answer at once, seen by the member only (a refusal the bot decides by itself)."""
    first, *rest = reply_parts(text)
    await interaction.response.send_message(first, ephemeral=True)
    for message in rest:
        await interaction.followup.send(message, ephemeral=True)
