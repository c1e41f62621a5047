"""create_bot, and `skirmish discord`'s settings."""

from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from discord_bot import create_bot
from discord_bot.settings import Settings, SettingsError
from server.ops.cli import main

RULEBOOK = {
    "setup", "advanced_setup", "start", "join", "resign", "submit", "list", "vote",
    "join_forces", "broadcast", "color", "pattern", "notifications", "refresh_name", "help",
    "cheat_sheet", "hint", "call_of_duty_loading_screen", "pause", "unpause", "broadcasting",
    "ban", "unban", "resolution_time", "local_time", "fast_mode", "kill_room", "rewind",
}  # fmt: skip


async def test_the_bot_has_every_command_of_the_rulebook(tmp_path: Path) -> None:
    bot = create_bot("http://127.0.0.1:1", "client-token", tmp_path)
    assert isinstance(bot, commands.Bot)
    assert {command.name for command in bot.tree.get_commands()} == RULEBOOK
    advanced = bot.tree.get_command("advanced_setup")
    assert isinstance(advanced, app_commands.Command)
    choices = {p.name: [c.value for c in p.choices] for p in advanced.parameters if p.choices}
    assert choices == {
        "votes": ["every_turn", "every_other_turn", "disabled"],
        "map_type": ["normal", "spacious"],
        "voting_mode": ["normal", "same_day"],
    }
    ban = bot.tree.get_command("ban")
    assert isinstance(ban, app_commands.Command)
    assert [p.type for p in ban.parameters] == [discord.AppCommandOptionType.user]
    await bot.close()


async def test_the_bot_needs_only_the_server_and_a_client_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKIRMISH_BOT_DATA", str(tmp_path / "kept"))
    bot = create_bot("http://127.0.0.1:1", "client-token")
    # The heralds' records go to SKIRMISH_BOT_DATA, made on the way.
    assert (tmp_path / "kept").is_dir()
    await bot.close()


def test_settings_come_from_the_environment() -> None:
    environ = {
        "DISCORD_TOKEN": "d",
        "SKIRMISH_API_URL": "http://127.0.0.1:8000",
        "SKIRMISH_CLIENT_TOKEN": "c",
    }
    data = Path("/srv/skirmish-bot")
    given = {**environ, "SKIRMISH_BOT_DATA": str(data)}
    assert Settings.from_env(given) == Settings("d", "http://127.0.0.1:8000", "c", data)
    # Left out: the user's data directory for the bot.
    assert Settings.from_env(environ).data.name == "skirmish-bot"
    with pytest.raises(SettingsError, match="SKIRMISH_API_URL must be an http"):
        Settings.from_env({**environ, "SKIRMISH_API_URL": "server:8000"})


def test_skirmish_discord_says_which_setting_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "d")
    monkeypatch.delenv("SKIRMISH_API_URL", raising=False)
    monkeypatch.delenv("SKIRMISH_CLIENT_TOKEN", raising=False)
    assert main(["discord"]) == 2
    assert "SKIRMISH_API_URL, SKIRMISH_CLIENT_TOKEN must be set" in capsys.readouterr().err
