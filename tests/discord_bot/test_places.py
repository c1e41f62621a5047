"""Where each command may be used, which game it is about, and the rulebook's small rules
the bot keeps: one game a guild (a /setup replaces it), one game a player, names refreshed,
/local_time confirmed."""

import pytest
from discord.ext.test import backend

from client import SkirmishClient
from discord_bot.admin import ADMIN
from tests.api.support import Server
from tests.discord_bot.harness import FakeDiscord
from tests.discord_bot.webhook import DEFERRED, MESSAGE


@pytest.mark.parametrize(
    ("command", "options", "hint"),
    [
        ("join", {}, "that is how I know which server's game"),
        ("refresh_name", {}, "in a DM I cannot see your server nickname"),
        ("start", {}, ADMIN.why),
        ("setup", {}, ADMIN.why),
        ("local_time", {"hour": "6AM"}, ADMIN.why),
    ],
)
async def test_public_commands_by_dm_are_refused_with_a_hint(
    discord: FakeDiscord, command: str, options: dict[str, str], hint: str
) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", moderator=True)
    answer = await discord.run(ann, command, dm=True, **options)
    assert answer.callbacks == [MESSAGE]
    assert hint in answer.text


async def test_a_second_setup_replaces_the_first(discord: FakeDiscord, server: Server) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", nick="Ann", moderator=True)
    await discord.set_up(ann, "First")
    await discord.run(ann, "join")
    second = await discord.set_up(ann, "Second")
    assert "The earlier game (**First**) is gone." in second.text
    async with SkirmishClient(server.base) as anyone:
        assert [game.name for game in (await anyone.list_games()).games] == ["Second"]
    assert "Ann joined Second" in (await discord.run(ann, "join")).text


async def test_one_game_at_a_time_and_dms_about_it(discord: FakeDiscord) -> None:
    one, two = discord.guild("One"), discord.guild("Two")
    ann = discord.member(one, "ann", nick="Ann", moderator=True)
    bee = discord.member(two, "bee", nick="Bee", moderator=True)
    ann_there = discord.member(two, "ann", nick="Annie", id_=ann.id)
    assert "no game here yet" in (await discord.run(ann, "join")).text
    await discord.set_up(ann, "Ones")
    await discord.set_up(bee, "Twos")
    assert "You are not playing a game" in (await discord.run(ann, "list", dm=True)).text
    await discord.run(ann, "join")
    refused = await discord.run(ann_there, "join")
    assert refused.text == "You already play in **Ones**: one game at a time."
    assert "**Ones**" in (await discord.run(ann, "help", dm=True)).text
    assert "**Twos**" in (await discord.run(ann_there, "help")).text


async def test_a_public_colour_change_refreshes_the_name(discord: FakeDiscord) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", nick="Ann", moderator=True)
    await discord.set_up(ann)
    await discord.run(ann, "join")
    backend.update_member(ann, nick="Annie")
    assert "colour is now 5" in (await discord.run(ann, "color", number=5)).text
    helped = await discord.run(ann, "help")
    assert "Annie" in helped.text, helped.text


async def test_local_time_asks_to_confirm(discord: FakeDiscord) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", moderator=True)
    bob = discord.member(guild, "bob")
    await discord.set_up(ann)
    assert "Only a server moderator" in (await discord.run(bob, "local_time", hour="6")).text
    # The fake clock says 08:00 UTC: 6AM is UTC-2.
    asked = await discord.run(ann, "local_time", hour="6AM")
    assert asked.ephemeral
    assert "becomes UTC-2" in asked.text
    assert set(asked.messages[0].buttons) == {"Confirm", "Cancel"}
    cancelled = await discord.click(ann, asked, "Cancel")
    assert "stays as it was" in cancelled.text
    asked = await discord.run(ann, "local_time", hour="6AM")
    confirmed = await discord.click(ann, asked, "Confirm")
    assert "the game's time zone is UTC-2" in confirmed.messages[-1].content
    assert not confirmed.messages[-1].ephemeral
    assert "UTC-2" in (await discord.run(bob, "help")).text


async def test_private_answers_stay_private(discord: FakeDiscord) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", nick="Ann", moderator=True)
    await discord.set_up(ann)
    await discord.run(ann, "join")
    broadcast = await discord.run(ann, "broadcast", message="Red lies")
    assert broadcast.callbacks == [DEFERRED]
    assert broadcast.ephemeral
    assert "Anonymous broadcast" in broadcast.text
    assert (await discord.run(ann, "notifications", enabled=False)).ephemeral
    assert not (await discord.run(ann, "hint")).ephemeral
