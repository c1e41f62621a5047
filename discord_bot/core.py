"""The bot, and how an app command goes through: where it may be used, who acts, which game,
the text command sent to the server (docs/commands.md) and its reply posted."""

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import discord
from discord.ext import commands

from client import ApiError, RateLimited, SkirmishClient, Unavailable, Unreachable
from discord_bot.herald import Heralds
from discord_bot.herald_discord import DiscordSink
from discord_bot.herald_state import Records
from discord_bot.messages import answer_now, follow_up
from discord_bot.people import acting_user, guild_account
from discord_bot.places import Refused, guild_game, players_game
from discord_bot.sync import CommandSync
from schema.api import CommandReply

log = logging.getLogger("skirmish.discord")

# "public": a guild channel only; "dm": a DM only; "anywhere": either.
Where = Literal["public", "dm", "anywhere"]
# "needed": the command is the game's; "if_any": the game's if there is one (/help);
# "none": the command never needs one (/hint).
GameUse = Literal["needed", "if_any", "none"]


class SkirmishBot(commands.Bot):
    """A discord.py bot that holds a client of the game server, acting through a trusted
    client's token for whoever sends a command, and the heralds of the games set up
    through it (docs/discord.md, "The herald"), whose positions it keeps in `data`."""

    def __init__(
        self,
        api_url: str,
        client_token: str,
        data: Path,
        *,
        command_sync: CommandSync | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # The server defuses mentions in its replies; the bot never pings anyone either.
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.skirmish = SkirmishClient(api_url, client_token)
        # One /setup at a time in a guild: it kills the guild's earlier games once the new
        # one stands, which two at once could both leave standing.
        self.setup_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # When the commands are told to Discord on start (sync.py); None: never.
        self.command_sync = command_sync
        # The channel's side reads as nobody; the members' through the client's token.
        spectator = self.skirmish.using(None)
        self.heralds = Heralds(spectator, client_token, Records(data), DiscordSink(self))

    def caller(self, user: discord.Member | discord.User) -> SkirmishClient:
        return self.skirmish.using(self.skirmish.token, acting_user(user))

    def guild_caller(self, guild: discord.Guild) -> SkirmishClient:
        return self.skirmish.using(self.skirmish.token, guild_account(guild))

    async def game_for(self, interaction: discord.Interaction, use: GameUse) -> str | None:
        """The guild's game in a guild channel, the user's own in a DM (places.py)."""
        if use == "none":
            return None
        try:
            if interaction.guild is not None:
                game = await guild_game(self.guild_caller(interaction.guild))
                if game is None:
                    raise Refused("There is no game here yet: an admin sets one up with /setup.")
                return game
            return await players_game(self.caller(interaction.user))
        except Refused:
            if use == "if_any":
                return None
            raise

    async def setup_hook(self) -> None:
        if self.command_sync is not None:
            await self.command_sync.run(self.tree)

    async def on_ready(self) -> None:
        # Once the guilds are known, so that the games' channels are found: every game
        # followed before goes on from where its herald stood. A READY after a lost
        # connection finds them followed already.
        self.heralds.resume()

    async def close(self) -> None:
        await self.heralds.aclose()
        await self.skirmish.aclose()
        await super().close()


def bot_of(interaction: discord.Interaction) -> SkirmishBot:
    bot = interaction.client
    assert isinstance(bot, SkirmishBot), "the commands are only ever added to a SkirmishBot"
    return bot


@dataclass(frozen=True)
class Usage:
    """Where a command may be sent and how it is answered there."""

    where: Where = "anywhere"
    # Why, when it is sent where it may not be: the hint the member is answered with.
    why: str = ""
    # In a guild channel, a reply seen only by the member (a DM is private anyway).
    private: bool = False
    game: GameUse = "needed"


@dataclass(frozen=True)
class Sent:
    """A command the server answered: through which caller, on which game."""

    caller: SkirmishClient
    game: str | None
    answer: CommandReply


def misplaced(interaction: discord.Interaction, usage: Usage) -> bool:
    in_guild = interaction.guild is not None
    return (usage.where == "public" and not in_guild) or (usage.where == "dm" and in_guild)


async def relay(interaction: discord.Interaction, text: str, usage: Usage) -> Sent | None:
    """Send `text` for the member and post the server's reply; None if it was not sent."""
    if misplaced(interaction, usage):
        await answer_now(interaction, usage.why)
        return None
    private = usage.private and interaction.guild is not None
    # Acknowledged at once: the server's answer may take longer than Discord's 3 seconds.
    await interaction.response.defer(ephemeral=private, thinking=True)
    sent = await send(interaction, text, usage.game)
    await follow_up(interaction, sent.answer.reply, ephemeral=private)
    return sent


async def send(interaction: discord.Interaction, text: str, use: GameUse) -> Sent:
    """The command sent for the member; a refusal or the server's trouble as its reply."""
    bot = bot_of(interaction)
    caller = bot.caller(interaction.user)
    game = None
    try:
        game = await bot.game_for(interaction, use)
        answer = await caller.command(text, game=game)
    except Refused as refusal:
        answer = CommandReply(str(refusal), ok=False)
    except ApiError as error:
        log.warning("%s for %s: %s %s", text.split()[0], interaction.user.id, error, error.code)
        answer = CommandReply(trouble(error), ok=False)
    return Sent(caller, game, answer)


def trouble(error: ApiError) -> str:
    """The server could not answer: what the member can do about it."""
    wait = f"try again in {error.retry_after:.0f} s" if error.retry_after else "try again soon"
    if isinstance(error, RateLimited):
        return f"Too many commands at once: {wait}."
    if isinstance(error, Unavailable):
        return f"The game server is busy: {wait}."
    if isinstance(error, Unreachable):
        return "The game server cannot be reached right now: try again in a minute."
    return f"The game server refused this: {error}"
