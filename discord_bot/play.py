"""The players' app commands (docs/discord.md lists where each may be used)."""

from typing import Any

import discord
from discord import app_commands

from client import ApiError
from discord_bot.core import Sent, Usage, Where, bot_of, log, relay
from discord_bot.messages import answer_now
from discord_bot.places import Refused, other_live_game, settled
from schema.accounts import MyGame

IN_PUBLIC = "Send /{} in your server's #skirmish-society channel: {}"
SECRET = Usage("dm", "Orders are secret: send /submit to me by DM. Nothing was submitted.")
MINE = Usage("dm", "Your orders are secret: send /list to me by DM.")
JOIN = Usage("public", IN_PUBLIC.format("join", "that is how I know which server's game."))
JOIN_FORCES = Usage(
    "public", IN_PUBLIC.format("join_forces", "join-forces requests are made in public.")
)
NICKNAME = Usage(
    "public", IN_PUBLIC.format("refresh_name", "in a DM I cannot see your server nickname.")
)
VOTE_IN_PUBLIC = IN_PUBLIC.format("vote", "votes are cast in public.")
WELCOME = (
    "You joined the game on **{}**. Send me your orders here, by DM, where nobody else sees them: "
    "`/submit BL S CR to SL, TR H`. `/list` shows what you sent; `/cheat_sheet` has every "
    "order. I DM you before each resolution and with your results (`/notifications` to stop)."
)


async def refresh_nickname(interaction: discord.Interaction, sent: Sent | None) -> None:
    """The rulebook: changing one's colour or pattern, or voting, in the public channel also
    refreshes one's name on the map (a name another player holds is left as it was)."""
    if sent is None or not sent.answer.ok or sent.game is None or interaction.guild is None:
        return
    try:
        await sent.caller.command("/refresh_name", game=sent.game)
    except ApiError as error:
        log.warning("refreshing %s's name: %s", interaction.user.id, error)


@app_commands.command(description="Submit orders, separated by commas (by DM: orders are secret)")
@app_commands.describe(orders="e.g. BL S CR to SL, TR H, WB to FL")
async def submit(interaction: discord.Interaction, orders: str) -> None:
    await relay(interaction, f"/submit {orders}", SECRET)


@app_commands.command(name="list", description="Your orders this turn and last turn's (by DM)")
async def list_(interaction: discord.Interaction) -> None:
    await relay(interaction, "/list", MINE)


@app_commands.command(description="Vote in the current voting event")
@app_commands.describe(effect="the effect you vote for, e.g. FEAST")
async def vote(interaction: discord.Interaction, effect: str) -> None:
    """In public, as the rulebook says; a same-day vote's ballot is secret, so there it is
    answered to the voter alone, and may be sent by DM too."""
    bot = bot_of(interaction)
    try:
        game = await bot.game_for(interaction, "needed")
        assert game is not None
        secret = (await bot.caller(interaction.user).get_game(game)).settings.voting_mode
    except (Refused, ApiError) as error:
        await answer_now(interaction, str(error))
        return
    where: Where = "anywhere" if secret == "same_day" else "public"
    usage = Usage(where, VOTE_IN_PUBLIC, private=secret == "same_day")
    await refresh_nickname(interaction, await relay(interaction, f"/vote {effect}", usage))


@app_commands.command(description="Ask a player to join forces with you (in public)")
@app_commands.describe(player="the player you ask")
async def join_forces(interaction: discord.Interaction, player: discord.Member) -> None:
    await relay(interaction, f"/join_forces <@{player.id}>", JOIN_FORCES)


@app_commands.command(description="Change your colour")
@app_commands.describe(number="1 to 20")
async def color(interaction: discord.Interaction, number: app_commands.Range[int, 1, 20]) -> None:
    await refresh_nickname(interaction, await relay(interaction, f"/color {number}", Usage()))


@app_commands.command(description="Change your pattern")
@app_commands.describe(number="1 to 16")
async def pattern(interaction: discord.Interaction, number: app_commands.Range[int, 1, 16]) -> None:
    await refresh_nickname(interaction, await relay(interaction, f"/pattern {number}", Usage()))


@app_commands.command(description="Turn my DMs about resolutions on or off")
async def notifications(interaction: discord.Interaction, enabled: bool) -> None:
    await relay(interaction, f"/notifications {enabled}", Usage(private=True))


@app_commands.command(
    name="refresh_name", description="Update your name on the map to your server nickname"
)
@app_commands.describe(name="another name to play under (your nickname if left out)")
async def rename(interaction: discord.Interaction, name: str | None = None) -> None:
    await relay(interaction, f"/refresh_name {name or ''}".strip(), NICKNAME)


@app_commands.command(description="Have the bot post an anonymous message in the channel")
@app_commands.describe(message="what the bot posts, without your name")
async def broadcast(interaction: discord.Interaction, message: str) -> None:
    await relay(interaction, f"/broadcast {message}", Usage(private=True))


@app_commands.command(description="Leave the game (for good once it has started)")
async def resign(interaction: discord.Interaction) -> None:
    await relay(interaction, "/resign", Usage())


@app_commands.command(description="Join the game in this server")
async def join(interaction: discord.Interaction) -> None:
    """A player plays one game at a time (the rulebook): their DMs are about that one."""
    bot = bot_of(interaction)
    if interaction.guild is not None:
        try:
            game = await bot.game_for(interaction, "needed")
            assert game is not None
            other = await other_live_game(bot.caller(interaction.user), game)
        except (Refused, ApiError) as error:
            await answer_now(interaction, str(error))
            return
        if other is not None:
            await answer_now(
                interaction, f"You already play in **{other.name}**: one game at a time."
            )
            return
    sent = await relay(interaction, "/join", JOIN)
    if sent is not None and sent.answer.ok and interaction.guild is not None:
        game = sent.game
        games = await settled(
            sent.caller, lambda games: any(g.id == game and g.player for g in games)
        )
        enlist(interaction, sent, games)
        try:
            await interaction.user.send(WELCOME.format(interaction.guild.name))
        except discord.HTTPException as error:  # DMs closed: the channel's reply says enough
            log.info("no DM to %s: %s", interaction.user.id, error)


def enlist(interaction: discord.Interaction, sent: Sent, games: list[MyGame]) -> None:
    """The herald DMs the member their reminders and results from their join on. A game it
    does not follow (set up before the bot kept its records, or they were lost) it follows
    from here, in this channel."""
    seat = next((g.player for g in games if g.id == sent.game and g.player), None)
    if sent.game is None or sent.answer.result is None or seat is None:
        log.warning(
            "%s joined %s, but the server does not list it yet", interaction.user.id, sent.game
        )
        return
    heralds, position = bot_of(interaction).heralds, sent.answer.result["position"]
    heralds.follow(sent.game, str(interaction.channel_id), after=position)
    heralds.enlist(sent.game, str(interaction.user.id), seat, position)


@app_commands.command(name="help", description="The game's state, your standing and the commands")
async def help_(interaction: discord.Interaction) -> None:
    await relay(interaction, "/help", Usage(game="if_any"))


@app_commands.command(description="Every order with an example, and the other commands")
async def cheat_sheet(interaction: discord.Interaction) -> None:
    await relay(interaction, "/cheat_sheet", Usage(private=True, game="none"))


@app_commands.command(description="A random hint")
async def hint(interaction: discord.Interaction) -> None:
    await relay(interaction, "/hint", Usage(game="none"))


@app_commands.command(description="Sage advice from tacticians of yesteryear (useless)")
async def call_of_duty_loading_screen(interaction: discord.Interaction) -> None:
    await relay(interaction, "/call_of_duty_loading_screen", Usage(game="none"))


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    submit, list_, vote, join_forces, color, pattern, notifications, rename,
    broadcast, resign, join, help_, cheat_sheet, hint, call_of_duty_loading_screen,
)  # fmt: skip
