"""`create_bot`: the bot with every command of the rulebook, not connected; `run`: connected."""

from discord_bot import admin, play
from discord_bot.core import SkirmishBot
from discord_bot.settings import Settings


def create_bot(api_url: str, client_token: str) -> SkirmishBot:
    """The bot, built without connecting to Discord or to the game server: for `skirmish
    discord`, for tests, and for anyone embedding it."""
    bot = SkirmishBot(api_url, client_token)
    for command in (*play.COMMANDS, *admin.COMMANDS_ADMIN):
        bot.tree.add_command(command)
    return bot


def run(settings: Settings) -> None:
    """Connect and serve until stopped (discord.py reconnects and waits out rate limits)."""
    bot = create_bot(settings.api_url, settings.client_token)
    bot.run(settings.discord_token, log_handler=None)
