"""Issue 14's game: three members play a whole game from /setup to a winner through the real
bot's app commands, in a fake Discord (harness.py), against a real server: what the bot
posts in the channel after each resolution (the map, results, standings, the vote's
outcome), what it DMs each member (their reminders and results, nobody else's orders), a
ban, a rewind, and the bot stopped and started anew from its data directory mid-game; and a
game replaced by a new /setup, which the bot lets go."""

from pathlib import Path

import discord

from client import SkirmishClient
from discord_bot.herald_posts import MAP_FILE
from discord_bot.herald_state import Records
from schema.views import PublicGame
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, Server, until
from tests.discord_bot.conftest import Bots
from tests.discord_bot.harness import FakeDiscord, Sent
from tests.discord_bot.herald_game import TURN_SECONDS, png_size
from tests.discord_bot.test_commands import people

STARTED = (
    "**Quick** has started! Turn 1 is open for orders (they close 1 minute before the "
    "resolution). Next resolution: 2030-03-04 08:15 UTC (08:15 local time, in 15m)."
)
RESOLVED = "Turn 1 has resolved."
REWOUND = (
    "The last resolution is undone: the game is back at turn 1. Ann rewound it: a cat. That "
    "turn's orders stand as submitted orders and can be replaced; its votes must be cast "
    "again. Turn 1 is open for "
    "orders (they close 1 minute before the resolution). Next resolution: 2030-03-04 08:32 "
    "UTC (08:32 local time, in 15m)."
)


async def _game(server: Server) -> PublicGame:
    async with SkirmishClient(server.base) as anyone:
        return await anyone.get_game((await anyone.list_games()).games[0].id)


async def _resolve(server: Server, turn: int) -> None:
    """The clock run to the turn's resolution (its reminders on the way), which the
    server's scheduler makes; then past the lock after it."""
    async with SkirmishClient(server.base, OPERATOR_TOKEN) as operator:
        await operator.move_clock(advance_seconds=TURN_SECONDS)

        async def resolved() -> bool:
            game = await _game(server)
            return game.turn > turn or game.phase == "finished"

        await until(resolved, what=f"turn {turn} to resolve")
        await operator.move_clock(advance_seconds=PAST_THE_LOCK)


def _gists(fake: FakeDiscord, member: discord.Member) -> list[str]:
    """The herald's DMs to `member`, each by its gist: 'turn 1 resolved', 'turn 2 resolves
    at ...' (the welcome of /join left out)."""
    notices = [text for text in fake.dms(member) if text.startswith("Quick: ")]
    return [text.removeprefix("Quick: ").split(".")[0].split(" at ")[0] for text in notices]


def _first_lines(posts: list[Sent]) -> list[str]:
    return [post.content.split("\n")[0] for post in posts]


async def test_three_members_play_a_whole_game_through_the_bot(server: Server, bots: Bots) -> None:
    async with bots() as fake:
        ann, bob, cy, dee = people(fake)
        channel = fake.channel(ann.guild)
        await fake.ready()
        set_up = await fake.run(
            ann, "advanced_setup", name="Quick", fast_mode_enabled=True, votes="every_turn",
            vote_start_turn=1, vp=2,
        )  # fmt: skip
        assert "**Quick** is set up" in set_up.text
        for member in (ann, bob, cy):
            assert "joined Quick" in (await fake.run(member, "join")).text
        # Cy takes no DMs for a while: the herald's to them are given up, nothing else.
        fake.closed_dms.add(cy.id)
        assert "has started" in (await fake.run(ann, "start")).text
        await until(lambda: len(fake.posts(channel)) == 1, what="the start's post")

        game = await _game(server)
        anns = sorted(t for t, p in game.board.armies.items() if p == "p1")
        bobs = sorted(t for t, p in game.board.armies.items() if p == "p2")
        # Ann turns her barracks into farms; next turn she farms them, and wins.
        builds, farms = (", ".join(f"{t} {o}" for t in anns) for o in "BF")
        await fake.run(ann, "submit", dm=True, orders=builds)
        await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H")
        assert "Bob is banned" in (await fake.run(ann, "ban", player=bob)).text
        assert "banned" in (await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H")).text
        assert "no longer banned" in (await fake.run(ann, "unban", player=bob)).text
        await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H")
        assert game.vote is not None
        effect = next(e for e in game.vote.candidates if e != "FAMINE")
        for member in (ann, bob):
            assert f"votes {effect}" in (await fake.run(member, "vote", effect=effect)).text

        await _resolve(server, 1)
        await until(lambda: len(fake.posts(channel)) == 2, what="turn 1's post")
        await until(lambda: [len(_gists(fake, m)) for m in (ann, bob)] == [2, 2], what="DMs")
        assert "back at turn 1" in (await fake.run(ann, "rewind", reason="a cat")).text
        await until(lambda: len(fake.posts(channel)) == 3, what="the rewind's post")
        # The rewind voided the votes: they are cast again.
        for member in (ann, bob):
            assert f"votes {effect}" in (await fake.run(member, "vote", effect=effect)).text
    first = fake

    # While the bot is away, turn 1 resolves again; a new bot from the same data directory
    # posts it, and goes on.
    await _resolve(server, 1)
    async with bots() as fake:
        ann, bob, cy, dee = people(fake)
        channel = fake.channel(ann.guild)
        await fake.ready()
        await until(lambda: len(fake.posts(channel)) == 1, what="the missed resolution")
        await fake.run(ann, "submit", dm=True, orders=farms)
        await _resolve(server, 2)
        await until(lambda: len(fake.posts(channel)) == 2, what="the winner's post")
        await until(lambda: all(len(_gists(fake, m)) == 3 for m in (ann, bob, cy)), what="DMs")

    posts = first.posts(channel) + fake.posts(channel)
    last = f"Turn 2 has resolved. Effect: {effect}."
    assert _first_lines(posts) == [STARTED, RESOLVED, REWOUND, RESOLVED, last]
    _, resolved, _, again, won = posts
    for post in posts:
        width, height = png_size(post.files[MAP_FILE])
        assert 0 < max(width, height) <= 1024
    for post in (resolved, again):
        assert f"Vote: {effect} won ({effect} 2" in post.content
        assert "Ann: " + "; ".join(f"\u2713 {t} B" for t in anns) in post.content
        assert "Standings:\n1. " in post.content
    assert won.content.split("Standings:")[0].rstrip().endswith("Ann wins the game!")
    assert "1. Ann: " in won.content.split("Standings:")[1]
    # Each message once, across the restart.
    every = first.sent + fake.sent
    assert len({m.nonce for m in every if m.nonce}) == len([m for m in every if m.nonce])

    # Each member their own reminders and results; Cy none while taking no DMs.
    reminded, resolved_1, resolved_2 = "turn 1 resolves", "turn 1 resolved", "turn 2 resolved"
    for member in (ann, bob):
        assert _gists(first, member) == [reminded, resolved_1]
        assert _gists(fake, member) == [resolved_1, "turn 2 resolves", resolved_2]
    assert _gists(first, cy) == []
    assert _gists(fake, cy) == [resolved_1, "turn 2 resolves", resolved_2]
    assert first.dms(dee) == fake.dms(dee) == []
    assert f"{anns[0]} B" in "".join(first.dms(ann))
    for text in first.dms(bob) + fake.dms(bob) + first.dms(cy) + fake.dms(cy):
        assert not any(f"{t} {o}" in text for t in anns for o in "BF"), text
    for text in first.dms(ann) + fake.dms(ann):
        assert f"{bobs[0]} H" not in text, text


async def test_a_game_replaced_by_a_new_setup_gets_its_farewell_and_is_let_go(
    bots: Bots, tmp_path: Path
) -> None:
    records = Records(tmp_path / "bot")
    async with bots() as fake:
        ann, bob, cy, _ = people(fake)
        channel = fake.channel(ann.guild)
        await fake.ready()
        await fake.set_up(ann, "First")
        (first,) = [record.game for record in records.load_all()]
        for member in (ann, bob, cy):
            await fake.run(member, "join")
        await fake.run(ann, "start")
        await until(lambda: len(fake.posts(channel)) == 1, what="the start's post")
        assert "The earlier game (**First**) is gone" in (await fake.set_up(ann, "Second")).text
        await until(lambda: len(fake.posts(channel)) == 2, what="the farewell")

        def followed() -> list[str]:
            return [record.game for record in records.load_all()]

        await until(lambda: len(followed()) == 1 and followed() != [first], what="the new game")
    assert _first_lines(fake.posts(channel)) == [
        "**First** has started! Turn 1 is open for orders (they close 5 minutes before the "
        "resolution). Next resolution: 2030-03-04 12:00 UTC (12PM local time, in 4h).",
        "First is gone: the room was killed. Use /setup for a new game.",
    ]
