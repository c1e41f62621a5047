"""The bot tells Discord its commands on start only when they changed since its last sync,
or when told to (`skirmish discord --sync`). Discord is not reached: the tree's sync is
replaced by one that counts, the decision being what is tested."""

from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from discord_bot import create_bot
from discord_bot.core import SkirmishBot
from discord_bot.sync import RECORD, CommandSync, fingerprint
from server.ops.cli import build_parser


class Counted:
    """A tree's sync that counts instead of calling Discord."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, **options: Any) -> list[Any]:
        self.calls += 1
        return []


def started(
    record: Path, *, force: bool = False, application: int = 1
) -> tuple[SkirmishBot, Counted]:
    sync = CommandSync(record, force)
    bot = create_bot("http://127.0.0.1:1", "client-token", record.parent, command_sync=sync)
    bot._connection.application_id = application  # what logging in tells it
    counted = Counted()
    bot.tree.sync = counted  # type: ignore[method-assign]
    return bot, counted


async def start(bot: SkirmishBot) -> None:
    await bot.setup_hook()
    await bot.skirmish.aclose()


async def test_the_commands_are_synced_once_until_they_change(tmp_path: Path) -> None:
    record = tmp_path / "data" / RECORD
    bot, first = started(record)
    await start(bot)
    assert first.calls == 1
    assert record.read_text().strip() == fingerprint(bot.tree)

    bot, again = started(record)
    await start(bot)
    assert again.calls == 0

    bot, changed = started(record)

    @app_commands.command(description="A command a later version adds")
    async def newer(interaction: discord.Interaction) -> None:
        pass

    bot.tree.add_command(newer)
    await start(bot)
    assert changed.calls == 1
    bot, after = started(record)
    await start(bot)
    assert after.calls == 1, "the tree without `newer` differs from the one last synced"


async def test_a_changed_description_another_bot_or_force_syncs(tmp_path: Path) -> None:
    record = tmp_path / RECORD
    bot, _ = started(record)
    await start(bot)
    bot, described = started(record)
    hint = bot.tree.get_command("hint")
    assert isinstance(hint, app_commands.Command)
    hint.description = "another description"
    await start(bot)
    assert described.calls == 1

    bot, other = started(record, application=2)
    await start(bot)
    assert other.calls == 1

    bot, forced = started(record, application=2, force=True)
    await start(bot)
    assert forced.calls == 1


async def test_without_a_policy_the_bot_never_syncs(tmp_path: Path) -> None:
    bot = create_bot("http://127.0.0.1:1", "client-token", tmp_path)
    counted = Counted()
    bot.tree.sync = counted  # type: ignore[method-assign]
    await start(bot)
    assert counted.calls == 0


@pytest.mark.parametrize(("argv", "force"), [(["discord"], False), (["discord", "--sync"], True)])
def test_skirmish_discord_sync_forces_a_sync(argv: list[str], force: bool) -> None:
    assert build_parser().parse_args(argv).sync is force
