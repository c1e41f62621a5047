"""What the replies say about the turn's window (open, locked, due, when it changes) agrees
from one command to the next, and every time in a reply is written for people, as /help
writes it: never a raw timestamp."""

import re
from datetime import timedelta

from server.game.times import moment
from tests.server.textcommands.bot import START, Person, Table, armies, table

SETUP = '/advanced_setup name="Friday Night" votes=disabled seed=3'
# A time as a program writes it: 2030-01-07T08:05:00, 08:05:00.5, +00:00.
RAW_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d|\d\d:\d\d:\d\d|[+-]\d\d:\d\d(?!\d)")


async def seated(t: Table, setup: str = SETUP) -> tuple[Person, Person, Person]:
    """Ann sets up and plays (p1), Bob (p2) and Cy (p3) join; started at 08:00 UTC, the
    turn resolves at 12:00."""
    ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
    await t.game(ann, [ann, bob, cy], setup)
    await ann.ok("/start")
    return ann, bob, cy


async def everyone_holds(people: tuple[Person, ...]) -> None:
    """Orders in for every player (an admin's early resolution may wait for them)."""
    for number, person in enumerate(people, start=1):
        mine = armies(await person.ok("/help"), f"p{number}")
        await person.ok(f"/submit {mine[0]} H")


async def test_after_a_resolution_every_reply_tells_the_same_lock(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        await everyone_holds((ann, bob, cy))
        resolved = await ann.ok("/resolve")
        # Orders for turn 2 open five minutes after the resolution, at 08:05.
        opens = moment(START + timedelta(minutes=5), START, 0)
        assert opens == "2030-01-07 08:05 UTC (08:05 local time, in 5m)"
        resolves = moment(START.replace(hour=12), START, 0)
        said_lock = f"Turn 2 opens for orders at {opens}. Next resolution: {resolves}."
        assert said_lock in resolved.reply.split("\n")
        helped = await bob.ok("/help")
        assert helped.reply.split("\n")[0] == f"**Friday Night** (game {ann.game}): {said_lock}"
        refused = await bob.refused("/submit AB H")
        assert (
            refused.reply == f"orders are locked around the resolution; they open again at {opens}"
        )

        # At 08:05 orders open, and every reply says so.
        t.clock.advance(300)
        resolves = moment(START.replace(hour=12), t.clock.now(), 0)
        assert (
            (await cy.ok("/help"))
            .reply.split("\n")[0]
            .endswith(
                "Turn 2 is open for orders (they close 5 minutes before the resolution). "
                f"Next resolution: {resolves}."
            )
        )
        await everyone_holds((ann, bob, cy))

        # From 11:55 they are closed until 12:05, after the resolution.
        t.clock.set(START.replace(hour=11, minute=55))
        now = t.clock.now()
        opens = moment(START.replace(hour=12, minute=5), now, 0)
        resolves = moment(START.replace(hour=12), now, 0)
        closed = f"Turn 2's orders are closed: it resolves at {resolves}; orders for turn 3 open"
        assert (await bob.ok("/help")).reply.split("\n")[0].endswith(f"{closed} at {opens}.")
        refused = await bob.refused("/submit AB H")
        assert (
            refused.reply == f"orders are locked around the resolution; they open again at {opens}"
        )


async def test_no_reply_of_a_whole_game_holds_a_raw_time(schema_url: str) -> None:
    """A game played through every command, to its winner, in a time zone of its own: every
    reply scanned."""
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        await ann.ok("/help")
        await t.game(
            ann,
            [ann, bob, cy],
            '/advanced_setup name="Times" vp=1 current_hour=2PM votes=every_turn '
            "vote_start_turn=1 seed=3",
        )
        await bob.ok("/help")
        await ann.ok("/start")
        helped = await ann.ok("/help")
        assert helped.result is not None
        barracks = {t["id"] for t in helped.result["map"]["territories"] if t.get("barracks")}
        home = next(a for a in armies(helped, "p1") if a in barracks)
        for person in (ann, bob, cy):
            await person.ok("/list")
            await person.ok(f"/vote {helped.result['vote']['candidates'][0]}")
        await ann.ok(f"/submit {home} B")
        await everyone_holds((bob, cy))
        await bob.refused("/join_forces @cy")
        await bob.ok("/broadcast Ann builds")
        await ann.ok("/resolve")
        for person in (ann, bob, cy):
            await person.refused("/submit XX H")
            await person.refused("/vote FEAST")
            await person.ok("/help")
        t.clock.advance(300)
        await ann.ok("/fast_mode true")
        await bob.ok("/help")
        await ann.ok("/fast_mode false")
        await ann.ok("/resolution_time 6PM")
        await ann.ok("/local_time 9AM")
        await ann.ok("/pause")
        await cy.ok("/help")
        await ann.ok("/unpause")
        await ann.ok("/ban @Cy")
        await ann.ok("/unban @Cy")
        await ann.ok("/add_admin @Bob")
        await ann.ok("/remove_admin @Bob")
        await ann.ok("/fork 1")
        await ann.ok("/rewind")
        t.clock.advance(300)
        # The rewind lost the votes: voted again, or the game's secret could draw FAMINE,
        # under which Ann's farm would earn nothing and the game would not end.
        helped = await ann.ok("/help")
        assert helped.result is not None
        paying = next(e for e in helped.result["vote"]["candidates"] if e != "FAMINE")
        for person in (ann, bob, cy):
            await person.ok(f"/vote {paying}")
        await ann.ok(f"/submit {home} B")
        await everyone_holds((bob, cy))
        await ann.ok("/resolve")
        t.clock.advance(300)
        await ann.ok(f"/submit {home} F")
        await everyone_holds((bob, cy))
        await cy.ok("/list")
        won = await ann.ok("/resolve")
        assert "Ann wins the game!" in won.reply
        assert "Winner: Ann!" in (await bob.ok("/help")).reply
        assert len(t.heard) > 50
        raw = [(said.reply, found) for said in t.heard for found in RAW_TIME.findall(said.reply)]
        assert raw == []
