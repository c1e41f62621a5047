"""The bot's app commands against a real server, in a fake Discord (harness.py): where each
may be used, who is an admin, which game a guild's channel and a DM are about, deferral."""

import discord

from client import SkirmishClient
from discord_bot.admin import NOT_ADMIN
from schema.game_events import OrdersSubmitted
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, Server
from tests.discord_bot.conftest import Bots
from tests.discord_bot.harness import FakeDiscord
from tests.discord_bot.webhook import DEFERRED, MESSAGE

GUILD = 1_111_111_111_111_111_111
ANN, BOB, CY, DEE = (2_000_000_000_000_000_000 + n for n in range(4))


def people(fake: FakeDiscord) -> list[discord.Member]:
    """A guild: Ann moderates it, Cy holds the admin role, Bob and Dee are members."""
    guild = fake.guild("Skirmishers", GUILD)
    return [
        fake.member(guild, "ann", nick="Ann", moderator=True, id_=ANN),
        fake.member(guild, "bob", nick="Bob", id_=BOB),
        fake.member(guild, "cy", nick="Cy", role="Skirmish Society Admin", id_=CY),
        fake.member(guild, "dee", nick="Dee", id_=DEE),
    ]


async def test_a_game_from_setup_to_a_rewind_with_a_restart(server: Server, bots: Bots) -> None:
    async with bots() as fake:
        ann, bob, cy, dee = people(fake)
        refused = await fake.run(dee, "setup")
        assert (refused.callbacks, refused.text, refused.ephemeral) == ([MESSAGE], NOT_ADMIN, True)
        set_up = await fake.run(
            ann, "advanced_setup", name="Friday Night", fast_mode_enabled=True,
            votes="every_turn", vote_start_turn=1, vp=12,
        )  # fmt: skip
        assert set_up.callbacks == [DEFERRED]
        assert "**Friday Night** is set up" in set_up.text
        assert not set_up.ephemeral
        assert "First to 12 VP" in set_up.text
        for member in (ann, bob, cy):
            joined = await fake.run(member, "join")
            assert f"{member.nick} joined Friday Night" in joined.text, joined.text
            assert "Send me your orders here, by DM" in fake.dms(member)[0]
        assert (await fake.run(bob, "start")).text == "only an admin of this game can do that"
        assert "has started" in (await fake.run(cy, "start")).text

        async with SkirmishClient(server.base) as anyone:
            game = (await anyone.list_games()).games[0].id
            public = await anyone.get_game(game)
        bobs = sorted(t for t, p in public.board.armies.items() if p == "p2")
        in_public = await fake.run(bob, "submit", orders=f"{bobs[0]} H")
        assert in_public.ephemeral
        assert "send /submit to me by DM" in in_public.text
        submitted = await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H, XX H")
        assert submitted.text.startswith("Orders for turn 1:\nReceipt: "), submitted.text
        listed = await fake.run(bob, "list", dm=True)
        assert f"✓ {bobs[0]} H" in listed.text
        assert "XX H" in listed.text
        assert "by DM" in (await fake.run(bob, "list")).text

        assert public.vote is not None
        effect = public.vote.candidates[0]
        assert (
            "votes are cast in public" in (await fake.run(cy, "vote", dm=True, effect=effect)).text
        )
        voted = await fake.run(cy, "vote", effect=effect)
        assert f"Cy votes {effect}" in voted.text
        assert not voted.ephemeral

        assert (await fake.run(dee, "ban", player=bob)).text == (
            "only an admin of this game can do that"
        )
        assert "Bob is banned" in (await fake.run(cy, "ban", player=bob)).text
        banned = await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H")
        assert "banned" in banned.text, banned.text
        assert "no longer banned" in (await fake.run(ann, "unban", player=bob)).text
        # The ban voided what Bob sent this turn: he sends it again.
        assert "(none yet)" in (await fake.run(bob, "list", dm=True)).text
        again = await fake.run(bob, "submit", dm=True, orders=f"{bobs[0]} H")
        # The receipt is Bob's to keep, in his DM; its nonce is in no message.
        kept = again.text.split("\n")[1].removeprefix("Receipt: ")

        async with SkirmishClient(server.base, OPERATOR_TOKEN) as operator:
            await operator.move_clock(advance_seconds=15 * 60)
            await operator.move_clock(advance_seconds=PAST_THE_LOCK)

    # The bot starts anew: it keeps nothing; the server says which game is whose.
    async with bots() as fake:
        ann, bob, cy, dee = people(fake)
        helped = await fake.run(bob, "help", dm=True)
        assert "**Friday Night**" in helped.text
        assert "Turn 2" in helped.text
        assert "Turn 2" in (await fake.run(dee, "help")).text
        # Turn 1 resolved: the feed shows everyone the submission that receipt stands for.
        async with SkirmishClient(server.base) as anyone:
            feed = [e.data async for e in anyone.all_events(game)]
        (bobs_last,) = [d for d in feed if isinstance(d, OrdersSubmitted) and d.receipt == kept]
        assert (bobs_last.player_id, bobs_last.text) == ("p2", f"{bobs[0]} H")
        assert bobs_last.nonce is not None
        assert bobs_last.nonce not in again.text
        assert (await fake.run(bob, "rewind")).text == "only an admin of this game can do that"
        rewound = await fake.run(ann, "rewind", reason="Bob's cat")
        assert "back at turn 1" in rewound.text, rewound.text
        # Turn 1's orders stand again as submitted, and Bob's DM finds them.
        listed = await fake.run(bob, "list", dm=True)
        assert "orders for turn 1" in listed.text
        assert f"✓ {bobs[0]} H" in listed.text
