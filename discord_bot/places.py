"""Which game a command is about, asked of the server (the one source of truth): in a guild
channel the guild's game, in a DM the game the user plays (docs/discord.md, "Which game")."""

import asyncio
from collections.abc import Callable

from client import SkirmishClient
from schema.accounts import MyGame

# Phases in which a game is being played (a killed game is never listed).
LIVE = ("joining", "running", "paused")
# The most games GET /v1/me gives a page.
PAGE = 200
# How long the bot waits for the server's read models to show what a command did.
SETTLE_SECONDS = 5.0


class Refused(Exception):
    """The bot will not send this command: its message says why, to the member."""


async def my_games(caller: SkirmishClient) -> list[MyGame]:
    """Every game the caller plays a seat of or is a listed admin of."""
    games: list[MyGame] = []
    after: str | None = None
    while True:
        page = await caller.me(after=after, limit=PAGE)
        games.extend(page.games)
        if page.next is None:
            return games
        after = page.next


async def guild_games(guild_caller: SkirmishClient) -> list[MyGame]:
    """The games set up in a guild: the ones its account administers (one, but for a race
    between two /setup, which the next /setup ends by killing both)."""
    return [game for game in await my_games(guild_caller) if game.admin]


async def guild_game(guild_caller: SkirmishClient) -> str | None:
    """The guild's game: the one being played, else the last one played to its end."""
    games = await guild_games(guild_caller)
    live = [game for game in games if game.phase in LIVE]
    chosen = live or games
    return chosen[0].id if chosen else None


_PREFERENCE: tuple[Callable[[MyGame], bool], ...] = (
    lambda game: game.phase in LIVE and game.player_status == "active",
    lambda game: game.phase in LIVE,
    lambda game: True,
)


async def players_game(caller: SkirmishClient) -> str:
    """The game a user plays, for a command sent by DM: the one they play on, else the one
    they left or were knocked out of, else a finished one. A user plays in one game at a time
    (the rulebook; /join holds to it), but one in several is told which they are."""
    seats = [game for game in await my_games(caller) if game.player is not None]
    for wanted in _PREFERENCE:
        found = [game for game in seats if wanted(game)]
        if len(found) == 1:
            return found[0].id
        if found:
            names = ", ".join(f"**{game.name}**" for game in found)
            raise Refused(
                f"You play in several games ({names}): send this in the server channel of "
                "the one you mean."
            )
    raise Refused(
        "You are not playing a game. Send /join in your server's #skirmish-society channel."
    )


async def other_live_game(caller: SkirmishClient, game: str) -> MyGame | None:
    """A game other than `game` that the user still plays: /join refuses while there is one."""
    for seat in await my_games(caller):
        live = seat.phase in LIVE and seat.player_status == "active"
        if seat.player is not None and live and seat.id != game:
            return seat
    return None


async def settled(caller: SkirmishClient, shown: Callable[[list[MyGame]], bool]) -> list[MyGame]:
    """Wait until `GET /v1/me` shows what a command did (its read models lag an append by
    milliseconds), so that the next command, which finds its game there, finds it: a new
    game after /setup, a seat after /join. Gives up quietly after SETTLE_SECONDS. The
    caller's games as last read."""
    deadline = asyncio.get_running_loop().time() + SETTLE_SECONDS
    while not shown(games := await my_games(caller)):
        if asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.05)  # polling the read models, which say nothing when they move
    return games
