"""/setup asks its questions in a form, as the rulebook's simple setup: the game's name, the
hour it is now where the admin is, the hour turns resolve; the game is set up with them."""

from discord.ext.test import backend

from client import SkirmishClient
from discord_bot.admin import GUIDE, NOT_ADMIN
from discord_bot.setup_form import NAME, NOON, NOW, RESOLVES, TITLE
from schema.views import PublicGame
from tests.api.support import Server
from tests.discord_bot.harness import FakeDiscord
from tests.discord_bot.webhook import DEFERRED, MESSAGE, MODAL


async def games(server: Server) -> list[PublicGame]:
    async with SkirmishClient(server.base) as anyone:
        return [await anyone.get_game(game.id) for game in (await anyone.list_games()).games]


async def test_setup_asks_and_sets_the_game_up_with_the_answers(
    discord: FakeDiscord, server: Server
) -> None:
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", nick="Ann", role="skirmish society admin")
    shown = await discord.run(ann, "setup")
    assert shown.callbacks == [MODAL]
    assert shown.modal is not None
    assert shown.modal["title"] == TITLE
    fields = [field for row in shown.modal["components"] for field in row["components"]]
    assert [field["label"] for field in fields] == [NAME, NOW, RESOLVES]
    assert [field.get("value") for field in fields] == [None, None, NOON]
    assert [field["required"] for field in fields] == [False, True, True]
    assert await games(server) == []

    # The fake clock says 08:00 UTC: 6AM where Ann is makes the game's time zone UTC-2.
    answers = {NAME: "Friday Night", NOW: "6AM", RESOLVES: "9PM"}
    set_up = await discord.submit(ann, shown, answers)
    assert set_up.callbacks == [DEFERRED]
    assert "**Friday Night** is set up" in set_up.text
    assert "UTC-2" in set_up.text
    assert set_up.text.endswith(GUIDE)
    assert not set_up.ephemeral
    [game] = await games(server)
    assert (game.name, game.phase) == ("Friday Night", "joining")
    assert (game.settings.utc_offset, game.settings.resolution_hour) == (-2, 21)
    # Everything else is the simple setup's.
    assert (game.settings.vp_target, game.settings.votes, game.settings.fast_mode) == (
        10,
        "every_other_turn",
        False,
    )
    assert "Ann joined Friday Night" in (await discord.run(ann, "join")).text


async def test_the_defaults_need_only_the_hour_it_is_now(
    discord: FakeDiscord, server: Server
) -> None:
    ann = discord.member(discord.guild("G"), "ann", moderator=True)
    assert "is set up" in (await discord.set_up(ann, now="14")).text
    [game] = await games(server)
    assert (game.name, game.settings.utc_offset, game.settings.resolution_hour) == (
        "Skirmish Society",
        6,
        12,
    )


async def test_a_wrong_hour_is_refused_and_asked_again(
    discord: FakeDiscord, server: Server
) -> None:
    ann = discord.member(discord.guild("G"), "ann", moderator=True)
    refused = await discord.set_up(ann, "Typo", now="25", resolves="13PM")
    assert refused.callbacks == [MESSAGE]
    assert refused.ephemeral
    assert f"{NOW}: 25 is not an hour: use 0-23." in refused.text
    assert f"{RESOLVES}: 13PM is not an hour: with AM or PM, use 1-12." in refused.text
    assert "No game was set up" in refused.text
    assert await games(server) == []

    again = await discord.click(ann, refused, "Try again")
    assert again.callbacks == [MODAL]
    assert again.modal is not None
    fields = [field for row in again.modal["components"] for field in row["components"]]
    assert [field.get("value") for field in fields] == ["Typo", "25", "13PM"]
    set_up = await discord.submit(ann, again, {NOW: "11PM", RESOLVES: "1PM"})
    assert "**Typo** is set up" in set_up.text
    [game] = await games(server)
    assert (game.settings.utc_offset, game.settings.resolution_hour) == (-9, 13)


async def test_only_admins_may_set_up(discord: FakeDiscord, server: Server) -> None:
    guild = discord.guild("G")
    bob = discord.member(guild, "bob")
    refused = await discord.run(bob, "setup")
    assert (refused.callbacks, refused.text, refused.ephemeral) == ([MESSAGE], NOT_ADMIN, True)
    assert refused.modal is None

    # An admin no longer one by the time they answer is refused then.
    cy = discord.member(guild, "cy", role="skirmish society admin")
    shown = await discord.run(cy, "setup")
    backend.update_member(cy, roles=[])
    late = await discord.submit(cy, shown, {NOW: "8"})
    assert (late.callbacks, late.text) == ([MESSAGE], NOT_ADMIN)
    assert await games(server) == []
