"""The admins' app commands, used in the public channel (the rulebook's "Admin Commands")."""

import shlex
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from client import ApiError, SkirmishClient
from discord_bot.core import Usage, bot_of, log, misplaced, relay, send, trouble
from discord_bot.messages import answer_now, follow_up
from discord_bot.people import ADMIN_ROLE, is_admin
from discord_bot.places import Refused, guild_games, settled
from discord_bot.setup_form import SetupForm
from projections.schedule import utc_offset_for
from schema.accounts import MyGame
from schema.api import CommandReply
from server.commands.parse import COMMANDS, parse_hour

ADMIN = Usage(
    "public",
    "Admin commands are used in your server's #skirmish-society channel, where I can see "
    "your roles.",
)
NOT_ADMIN = (
    f'Only a server moderator (Manage Server) or a member with the "{ADMIN_ROLE}" role can do that.'
)
JOIN = "players `/join` here, and `/start` begins the game."
GUIDE = f"Next: {JOIN}"
# After a setup that did not say what time it is where the admin is.
GUIDE_CLOCK = (
    "Next: `/local_time` with the hour it is now where you are, so that turns resolve at "
    f"your local `/resolution_time`; {JOIN}"
)
Choice = app_commands.Choice


def refusal(interaction: discord.Interaction) -> str | None:
    """Why the member may not use an admin command here, if they may not."""
    if misplaced(interaction, ADMIN) or not isinstance(interaction.user, discord.Member):
        return ADMIN.why
    return None if is_admin(interaction.user) else NOT_ADMIN


async def set_up(interaction: discord.Interaction, text: str, guide: str = GUIDE) -> None:
    """A new game for the guild, set up through the guild's account (people.guild_account),
    which overwrites the guild's earlier one as the rulebook says: that one is killed.
    Checked again when a form is answered: the member's roles may have changed meanwhile."""
    guild = interaction.guild
    refused = refusal(interaction)
    if refused is not None or guild is None:
        await answer_now(interaction, refused or ADMIN.why)
        return
    await interaction.response.defer(thinking=True)
    bot = bot_of(interaction)
    guild_caller = bot.guild_caller(guild)
    gone: list[str] = []
    async with bot.setup_locks[guild.id]:
        try:
            earlier = await guild_games(guild_caller)
            answer = await guild_caller.command(text)
        except ApiError as error:
            answer = CommandReply(trouble(error), ok=False)
            earlier = []
        if answer.ok and answer.result is not None:
            gone = await replace(guild_caller, earlier, answer.result["id"])
            # The herald posts the new game's news here, the earlier one's farewell too.
            bot.heralds.follow(answer.result["id"], str(interaction.channel_id))
    reply = answer.reply
    if answer.ok:
        before = f"\nThe earlier game ({', '.join(gone)}) is gone." if gone else ""
        reply = f"{reply}{before}\n{guide}"
    await follow_up(interaction, reply, ephemeral=False)


async def replace(guild_caller: SkirmishClient, earlier: list[MyGame], new: str) -> list[str]:
    """Kill the guild's earlier games, and wait until the server lists only the new one:
    the guild's next command finds its game there. The names of those killed."""
    gone = []
    for game in earlier:
        try:
            await guild_caller.kill(game.id)
            gone.append(f"**{game.name}**")
        except ApiError as error:
            log.warning("killing %s after a /setup: %s", game.id, error)
    await settled(guild_caller, lambda games: [g.id for g in games if g.admin] == [new])
    return gone


@app_commands.command(
    description="Set up a game in this server (it replaces any other): I ask a few questions"
)
async def setup(interaction: discord.Interaction) -> None:
    refused = refusal(interaction)
    if refused is not None:
        await answer_now(interaction, refused)
        return
    await interaction.response.send_modal(SetupForm(set_up))


@app_commands.command(description="Set up a game with options (it replaces any other)")
@app_commands.describe(
    vp="VP needed to win (up to 50)",
    current_hour="the hour it is now where you are: 0-23, or 6AM, 2PM",
    fast_mode_enabled="resolve every 15 minutes",
    resolution_hour="the local hour at which turns resolve: 0-23, or 6AM, 2PM",
    votes="how often there is a vote",
    vote_start_turn="the first turn with a vote",
    map_type="how much room players have",
    voting_mode="when votes take effect",
    hints="whether the bot gives hints",
    name="the game's name",
)
@app_commands.choices(
    votes=[
        Choice(name="every turn", value="every_turn"),
        Choice(name="every other turn", value="every_other_turn"),
        Choice(name="disabled", value="disabled"),
    ],
    map_type=[Choice(name="normal", value="normal"), Choice(name="spacious", value="spacious")],
    voting_mode=[
        Choice(name="normal", value="normal"),
        Choice(name="same day", value="same_day"),
    ],
)
async def advanced_setup(
    interaction: discord.Interaction,
    vp: app_commands.Range[int, 1, 50] | None = None,
    current_hour: str | None = None,
    fast_mode_enabled: bool | None = None,
    resolution_hour: str | None = None,
    votes: str | None = None,
    vote_start_turn: app_commands.Range[int, 1, 10_000] | None = None,
    map_type: str | None = None,
    voting_mode: str | None = None,
    hints: bool | None = None,
    name: str | None = None,
) -> None:
    options = {
        "vp": vp,
        "current_hour": current_hour,
        "fast_mode_enabled": fast_mode_enabled,
        "resolution_hour": resolution_hour,
        "votes": votes,
        "vote_start_turn": vote_start_turn,
        "map_type": map_type,
        "voting_mode": voting_mode,
        "hints": hints,
        "name": name,
    }
    written = ["/advanced_setup"]
    for key, value in options.items():
        if value is not None:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            written.append(f"{key}={shlex.quote(shown)}")
    await set_up(interaction, " ".join(written), GUIDE_CLOCK if current_hour is None else GUIDE)


@app_commands.command(description="Start the game (3 to 20 players)")
async def start(interaction: discord.Interaction) -> None:
    await relay(interaction, "/start", ADMIN)


@app_commands.command(description="Stop turns from resolving")
async def pause(interaction: discord.Interaction) -> None:
    await relay(interaction, "/pause", ADMIN)


@app_commands.command(description="Let turns resolve again, at the normal time")
async def unpause(interaction: discord.Interaction) -> None:
    await relay(interaction, "/unpause", ADMIN)


@app_commands.command(description="Delete the game for good (it cannot be undone)")
async def kill_room(interaction: discord.Interaction) -> None:
    await relay(interaction, "/kill_room", ADMIN)


@app_commands.command(description="Allow or forbid /broadcast")
async def broadcasting(interaction: discord.Interaction, enabled: bool) -> None:
    await relay(interaction, f"/broadcasting {enabled}", ADMIN)


@app_commands.command(description="Resolve every 15 minutes, or daily")
async def fast_mode(interaction: discord.Interaction, enabled: bool) -> None:
    await relay(interaction, f"/fast_mode {enabled}", ADMIN)


@app_commands.command(description="Ban a player: their orders are ignored")
async def ban(interaction: discord.Interaction, player: discord.Member) -> None:
    await relay(interaction, f"/ban <@{player.id}>", ADMIN)


@app_commands.command(description="Lift a player's ban")
async def unban(interaction: discord.Interaction, player: discord.Member) -> None:
    await relay(interaction, f"/unban <@{player.id}>", ADMIN)


@app_commands.command(description="The local hour at which turns resolve")
@app_commands.describe(hour="0-23, or 6AM, 2PM")
async def resolution_time(interaction: discord.Interaction, hour: str) -> None:
    await relay(interaction, f"/resolution_time {hour}", ADMIN)


@app_commands.command(description="Undo the last resolution")
@app_commands.describe(reason="why, for the archive")
async def rewind(interaction: discord.Interaction, reason: str | None = None) -> None:
    await relay(interaction, f"/rewind {reason or ''}".strip(), ADMIN)


class ConfirmLocalTime(discord.ui.View):
    """The rulebook: "After you put in the hour, the bot will ask you to confirm your time
    zone." Only the admin who asked sees it (an ephemeral message)."""

    def __init__(self, hour: int) -> None:
        super().__init__(timeout=600)
        self.hour = hour

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button["ConfirmLocalTime"]
    ) -> None:
        self.stop()
        await interaction.response.edit_message(content="Setting the local time...", view=None)
        sent = await send(interaction, f"/local_time {self.hour}", "needed")
        await follow_up(interaction, sent.answer.reply, ephemeral=False)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button["ConfirmLocalTime"]
    ) -> None:
        self.stop()
        await interaction.response.edit_message(
            content="Cancelled: the game's time zone stays as it was.", view=None
        )


@app_commands.command(description="Set the game's time zone: the hour it is now where you are")
@app_commands.describe(hour="the hour it is now where you are: 0-23, or 6AM, 2PM")
async def local_time(interaction: discord.Interaction, hour: str) -> None:
    refused = refusal(interaction)
    if refused is not None:
        await answer_now(interaction, refused)
        return
    bot = bot_of(interaction)
    try:
        value = parse_hour(hour)
        game = await bot.game_for(interaction, "needed")
        assert game is not None
        now = (await bot.caller(interaction.user).get_game(game)).now or datetime.now(UTC)
    except ValueError as error:
        await answer_now(interaction, f"{error}\nUsage: {COMMANDS['local_time'].usage}")
        return
    except (Refused, ApiError) as error:
        await answer_now(interaction, str(error))
        return
    offset = utc_offset_for(value, now)
    await interaction.response.send_message(
        f"It is {hour.strip()} where you are, so the game's time zone becomes UTC{offset:+d} "
        "(no daylight saving). Turns still resolve at the same moment. Is that right?",
        view=ConfirmLocalTime(value),
        ephemeral=True,
    )


COMMANDS_ADMIN: tuple[app_commands.Command[Any, ..., None], ...] = (
    setup, advanced_setup, start, pause, unpause, broadcasting, ban, unban, resolution_time,
    local_time, fast_mode, kill_room, rewind,
)  # fmt: skip
