"""/setup's questions. The rulebook: "Use /setup to start the setup. The bot will ask you a few
questions and then create a room for you." A form (a Discord modal) asks what a new admin must
answer for the game to keep their clock: its name, the hour it is now where they are (the
game's time zone, as /local_time sets it) and the hour turns resolve (noon unless changed).
Everything else is the simple setup's default (schema/api.py, NewGame); /advanced_setup sets
the rest."""

import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from schema.bounds import MAX_NAME
from server.commands.parse import DEFAULT_GAME_NAME, parse_hour

# Sends the setup's text command for whoever submitted the form and posts the server's reply.
Create = Callable[[discord.Interaction, str], Awaitable[None]]
# How long a form (or its Try again button) waits for an answer before the bot forgets it.
WAIT_SECONDS = 15 * 60
TITLE = "Set up a game"
NAME = "The game's name"
NOW = "The hour it is now where you are"
RESOLVES = "The hour turns resolve each day"
HOUR_FORMS = "0-23, or 6AM, 2PM"
# The simple setup's resolution hour (NewGame.resolution_hour), as the form shows it.
NOON = "12PM"


@dataclass(frozen=True)
class Answers:
    """What the admin typed, kept to fill the form in again when an hour is refused."""

    name: str = ""
    now: str = ""
    resolves: str = NOON

    def command(self) -> str:
        """The text command that sets the game up; ValueError naming each hour that is not
        one."""
        hours: list[int] = []
        problems: list[str] = []
        for label, text in ((NOW, self.now), (RESOLVES, self.resolves)):
            try:
                hours.append(parse_hour(text))
            except ValueError as error:
                problems.append(f"{label}: {error}")
        if problems:
            raise ValueError("\n".join(problems))
        now, resolves = hours
        name = shlex.quote(self.name.strip() or DEFAULT_GAME_NAME)
        return f"/advanced_setup current_hour={now} resolution_hour={resolves} name={name}"


class SetupForm(discord.ui.Modal):
    """The questions; answered, the game is set up through `create` (admin.set_up)."""

    def __init__(self, create: Create, answers: Answers = Answers()) -> None:
        super().__init__(title=TITLE, timeout=WAIT_SECONDS)
        self.create = create
        self.game_name: discord.ui.TextInput[SetupForm] = discord.ui.TextInput(
            label=NAME,
            placeholder=DEFAULT_GAME_NAME,
            default=answers.name or None,
            required=False,
            max_length=MAX_NAME,
        )
        self.now: discord.ui.TextInput[SetupForm] = discord.ui.TextInput(
            label=NOW,
            placeholder=f"{HOUR_FORMS}: at 2:45 PM, 14 or 2PM",
            default=answers.now or None,
            max_length=8,
        )
        self.resolves: discord.ui.TextInput[SetupForm] = discord.ui.TextInput(
            label=RESOLVES, placeholder=HOUR_FORMS, default=answers.resolves, max_length=8
        )
        for field in (self.game_name, self.now, self.resolves):
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        answers = Answers(self.game_name.value, self.now.value, self.resolves.value)
        try:
            text = answers.command()
        except ValueError as error:
            # Discord cannot show a form in answer to a form: the button shows it again.
            await interaction.response.send_message(
                f"{error}\nNo game was set up: press Try again to correct it.",
                view=TryAgain(self.create, answers),
                ephemeral=True,
            )
            return
        await self.create(interaction, text)


class TryAgain(discord.ui.View):
    """Under a refused answer, seen by the admin alone: the form again, as they filled it."""

    def __init__(self, create: Create, answers: Answers) -> None:
        super().__init__(timeout=WAIT_SECONDS)
        self.create = create
        self.answers = answers

    @discord.ui.button(label="Try again", style=discord.ButtonStyle.primary)
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button["TryAgain"]
    ) -> None:
        await interaction.response.send_modal(SetupForm(self.create, self.answers))
