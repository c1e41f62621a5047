"""`create_bot`: the bot with every command of the rulebook, not connected; `run`: connected."""

from pathlib import Path

from discord_bot import admin, play
from discord_bot.core import SkirmishBot
from discord_bot.settings import Settings


def create_bot(api_url: str, client_token: str, data: Path) -> SkirmishBot:
    """The bot, built without connecting to Discord or to the game server: for `skirmish
    discord`, for tests, and for anyone embedding it. `data`: where its heralds keep how
    far they have posted each game (SKIRMISH_BOT_DATA)."""
    bot = SkirmishBot(api_url, client_token, data)
    for command in (*play.COMMANDS, *admin.COMMANDS_ADMIN):
        bot.tree.add_command(command)
    return bot


def run(settings: Settings) -> None:
    """Connect and serve until stopped (discord.py reconnects and waits out rate limits)."""
    bot = create_bot(settings.api_url, settings.client_token, settings.data)
    bot.run(settings.discord_token, log_handler=None)
