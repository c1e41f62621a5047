"""The Discord bot: a thin adapter over the game server's API (docs/discord.md)."""

from discord_bot.bot import create_bot
from discord_bot.core import SkirmishBot

__all__ = ["SkirmishBot", "create_bot"]
