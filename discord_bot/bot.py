"""`create_bot`: the bot with every command of the rulebook, not connected; `run`: connected."""

import os
from pathlib import Path

from discord_bot import admin, play
from discord_bot.core import SkirmishBot
from discord_bot.herald_state import data_directory
from discord_bot.settings import Settings
from discord_bot.sync import RECORD, CommandSync


def create_bot(
    api_url: str,
    client_token: str,
    data: Path | None = None,
    *,
    command_sync: CommandSync | None = None,
) -> SkirmishBot:
    """The bot, built without connecting to Discord or to the game server: for `skirmish
    discord`, for tests, and for anyone embedding it. `data`: where its heralds keep how
    far they have posted each game (SKIRMISH_BOT_DATA's default unless given). It tells
    Discord its commands on start as `command_sync` says (docs/discord.md), and never
    without one."""
    data = data_directory(os.environ) if data is None else data
    bot = SkirmishBot(api_url, client_token, data, command_sync=command_sync)
    for command in (*play.COMMANDS, *admin.COMMANDS_ADMIN):
        bot.tree.add_command(command)
    return bot


def run(settings: Settings, *, sync: bool = False) -> None:
    """Connect and serve until stopped (discord.py reconnects and waits out rate limits);
    the commands are synced if they changed since the last sync, or at once with `sync`."""
    command_sync = CommandSync(settings.data / RECORD, force=sync)
    bot = create_bot(
        settings.api_url, settings.client_token, settings.data, command_sync=command_sync
    )
    bot.run(settings.discord_token, log_handler=None)
