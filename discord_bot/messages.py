"""Replies within Discord's limits: 2,000 characters a message, split on line boundaries."""

import discord

# Discord's limit on a message's content.
LIMIT = 2000


def split(text: str, limit: int = LIMIT) -> list[str]:
    """`text` in messages of at most `limit` characters, cut between lines where it can be
    (a line longer than a message is cut where it must); never an empty message."""
    messages: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            if current:
                messages.append(current)
                current = ""
            messages.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= limit:
            current = joined
        else:
            messages.append(current)
            current = line
    if current.strip():
        messages.append(current)
    return [message for message in messages if message.strip()] or ["(no reply)"]


async def follow_up(interaction: discord.Interaction, text: str, *, ephemeral: bool) -> None:
    """Post `text` after the interaction was deferred, in as many messages as it takes."""
    for message in split(text):
        await interaction.followup.send(message, ephemeral=ephemeral)


async def answer_now(interaction: discord.Interaction, text: str) -> None:
    """Answer at once, seen by the member only (a refusal the bot decides by itself)."""
    first, *rest = split(text)
    await interaction.response.send_message(first, ephemeral=True)
    for message in rest:
        await interaction.followup.send(message, ephemeral=True)
