"""The herald's sink on discord.py: each Outgoing message sent to its channel or user.

discord.py waits out Discord's rate limits itself (a 429 is slept on and sent again), so the
herald only ever sees a message sent, a lasting refusal (Undeliverable: no permission, a user
who takes no direct messages, a channel gone), or a passing failure (Discord's own 5xx, the
connection), after which it sends again later. A nonce makes discord.py ask Discord to
enforce it (`enforce_nonce`): the same nonce within a few minutes gives back the message
already posted instead of a second one."""

import io

import discord

from discord_bot.herald_posts import MAP_FILE, Outgoing, Undeliverable


class DiscordSink:
    def __init__(self, bot: discord.Client) -> None:
        self._bot = bot

    async def send(self, message: Outgoing) -> None:
        try:
            target = await self._target(message)
            files = []
            if message.image is not None:
                files.append(discord.File(io.BytesIO(message.image), filename=MAP_FILE))
            await target.send(
                message.text,
                files=files,
                nonce=message.nonce,
                # Players' names and words are echoed: they ping nobody.
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (discord.Forbidden, discord.NotFound) as refused:
            raise Undeliverable(f"{refused.status} {refused.text}") from refused
        except discord.HTTPException as failed:
            if failed.status >= 500:
                raise
            raise Undeliverable(f"{failed.status} {failed.text}") from failed

    async def _target(self, message: Outgoing) -> discord.abc.Messageable:
        if message.user is not None:
            user_id = int(message.user)
            return self._bot.get_user(user_id) or await self._bot.fetch_user(user_id)
        channel_id = int(message.channel)
        channel = self._bot.get_channel(channel_id) or await self._bot.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise Undeliverable(f"channel {channel_id} takes no messages")
        return channel
