"""The admin commands through the command endpoint, and non-admins refused."""

import pytest

from tests.server.textcommands.bot import Person, Table, all_ready, armies, table

SETUP = "/advanced_setup votes=disabled seed=5"
ADMIN_ONLY = "only an admin of this game can do that"


async def seated(t: Table) -> tuple[Person, Person, Person]:
    """Ann is the admin and plays (p1); Bob (p2) and Cy (p3) join; started."""
    ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
    await t.game(ann, [ann, bob, cy], SETUP)
    await ann.ok("/start")
    return ann, bob, cy


@pytest.mark.parametrize(
    "command",
    [
        "/start",
        "/pause",
        "/unpause",
        "/broadcasting false",
        "/ban @Cy",
        "/ban @nobody",
        "/unban @Cy",
        "/resolution_time 6AM",
        "/local_time 2PM",
        "/fast_mode true",
        "/kill_room",
        "/rewind",
        "/resolve",
    ],
)
async def test_non_admins_are_refused(schema_url: str, command: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        await t.game(ann, [bob, cy], SETUP)
        refused = await bob.refused(command)
        assert refused.reply == ADMIN_ONLY
        assert (await ann.ok("/help")).result is not None


async def test_pause_and_unpause(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(t)
        assert (await ann.ok("/pause")).reply.startswith("The game is paused")
        assert (await ann.refused("/pause")).reply == "the game is paused; this needs it running"
        assert (await ann.refused("/resolve")).reply == "the game is paused; this needs it running"
        assert "paused: no turn resolves" in (await bob.ok("/help")).reply
        unpaused = await ann.ok("/unpause")
        assert unpaused.reply == (
            "The game resumes. Turn 1 is open for orders (they close 5 minutes before the "
            "resolution). Next resolution: 2030-01-07 12:00 UTC (12PM local time, in 4h)."
        )


async def test_times_and_fast_mode(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, _, _ = await seated(t)
        said = await ann.ok("/resolution_time 2PM")
        assert said.reply.startswith("Turns now resolve at 2PM (14:00) local time.")
        assert (await ann.ok("/resolution_time 14")).reply == (
            "Turns already resolve at 2PM (14:00) local time."
        )
        # 08:00 UTC now; 6AM here makes the game UTC-2, and 14:00 UTC is 12PM local time.
        said = await ann.ok("/local_time 6AM")
        assert "time zone is UTC-2" in said.reply
        assert said.reply.endswith(
            "Turns still resolve at the same moment, 12PM (12:00) local time."
        )
        game = (await ann.ok("/help")).result
        assert game is not None
        assert (game["settings"]["utc_offset"], game["settings"]["resolution_hour"]) == (-2, 12)
        assert game["next_resolution_at"].startswith("2030-01-07T14:00:00")
        said = await ann.ok("/fast_mode true")
        assert said.reply.startswith("Fast mode is now on: a turn resolves every 15 minutes.")
        assert "2030-01-07 08:15 UTC" in said.reply
        assert (await ann.ok("/fast_mode on")).reply == "Fast mode is already on."
        assert (await ann.refused("/resolution_time 25")).reply.startswith(
            "25 is not an hour: use 0-23."
        )


async def test_ban_and_unban_in_a_running_game(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, _, cy = await seated(t)
        mine = armies(await cy.ok("/help"), "p3")
        assert (await ann.refused("/ban @Ann")).reply == "you cannot ban yourself"
        said = await ann.ok("/ban @cy")
        assert said.reply.startswith("Cy is banned: their orders are ignored.")
        assert (await cy.refused(f"/submit {mine[0]} H")).reply == "Cy is banned from this game"
        assert (await ann.refused("/ban p3")).reply == "Cy is already banned"
        assert (await ann.refused("/unban @Bob")).reply == "Bob is not banned"
        assert (await ann.ok("/unban @Cy")).reply == "Cy is no longer banned."
        await cy.ok(f"/submit {mine[0]} H")


async def test_a_ban_in_the_join_phase_removes_and_unban_lets_them_rejoin(
    schema_url: str,
) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        await t.game(ann, [bob, cy], SETUP)
        await cy.ok("/refresh_name Cyclone")
        said = await ann.ok("/ban @Cyclone")
        assert said.reply.startswith("Cyclone is banned and removed from the game.")
        assert (await cy.refused("/join")).reply == "you are banned from this game"
        # No longer a player: named by the account's name.
        assert (await ann.ok("/unban @cy")).reply == "Cy is no longer banned."
        await cy.ok("/join")


async def test_resolve_then_rewind(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        assert (await ann.refused("/rewind")).reply == "there is no resolution to undo"
        mine = armies(await bob.ok("/help"), "p2")
        await bob.ok(f"/submit {mine[0]} H, {mine[1]} B")
        t.clock.advance(60)
        # Cy has sent nothing: an admin's early resolution waits, and says how many.
        waiting = await ann.refused("/resolve")
        assert waiting.reply.startswith(
            "2 of the 3 active players have not sent orders for turn 1: an admin resolves "
            "early only once everyone's orders are in"
        )
        await all_ready(ann, cy)
        resolved = await ann.ok("/resolve")
        assert resolved.reply.split("\n")[:2] == [
            "Turn 1 has resolved.",
            f"Bob: \u2713 {mine[0]} H; \u2713 {mine[1]} B",
        ]
        assert resolved.reply.split("\n")[-1] == (
            "Turn 2 opens for orders at 2030-01-07 08:06 UTC (08:06 local time, in 5m). Next "
            "resolution: 2030-01-07 12:00 UTC (12PM local time, in 3h 59m)."
        )
        assert resolved.result is not None
        assert resolved.result["events"][0] == "turn_resolved.v1"
        t.clock.advance(600)
        listed = await bob.ok("/list")
        assert f"- {mine[1]} B: succeeded" in listed.reply
        assert "Last turn (turn 1):" in listed.reply
        rewound = await ann.ok("/rewind a player misread the rules")
        assert rewound.reply.startswith(
            "The last resolution is undone: the game is back at turn 1. Ann rewound it: a "
            "player misread the rules. "
        )
        listed = await bob.ok("/list")
        assert listed.reply.split("\n")[:3] == [
            "Bob's orders for turn 1:",
            f"\u2713 {mine[0]} H",
            f"\u2713 {mine[1]} B",
        ]
        assert (await ann.refused("/rewind")).reply == "there is no resolution to undo"


async def test_kill_room(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(t)
        said = await ann.ok("/kill_room")
        assert (
            said.reply
            == "Skirmish Society is gone: the room was killed. Use /setup for a new game."
        )
        for person in (ann, bob):
            assert (await person.refused("/help")).reply == "this game was killed by an admin"
        assert (await ann.refused("/start")).reply == "this game was killed by an admin"


async def test_fork_makes_a_sandbox_from_the_start_of_a_turn(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        t.clock.advance(60)
        await all_ready(ann, bob, cy)
        await ann.ok("/resolve")
        assert (await bob.refused("/fork 1")).reply.startswith("only an admin may fork")
        assert (await ann.refused("/fork 3")).reply == ("turn 3 cannot be forked: turns 1 to 2 can")
        forked = await ann.ok("/fork 2")
        assert forked.result is not None
        fork_id = forked.result["id"]
        assert forked.reply == (
            f"**Skirmish Society (fork, turn 2)** (game {fork_id}) is forked from game "
            f"{ann.game} at the start of turn 2: a sandbox where you play every seat."
        )
        origin = forked.result["forked_from"]
        assert (origin["game"], origin["turn"]) == (ann.game, 2)
        helped = (await ann.ok("/help")).result
        assert helped is not None
        assert forked.result["board"] == helped["board"]


async def test_a_real_forks_seats_are_claimed_declined_and_it_is_started(
    schema_url: str,
) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        eve = await t.person("Eve")
        t.clock.advance(60)
        await all_ready(ann, bob, cy)
        await ann.ok("/resolve")
        response = await t.client.post(
            f"/v1/games/{ann.game}/fork",
            json={"turn": 2, "sandbox": False},
            headers={"Authorization": f"Bearer {ann.token}"},
        )
        assert response.status_code == 201, response.text
        fork = response.json()["id"]
        for person in (ann, bob, cy, eve):
            person.game = fork
        helped = await bob.ok("/help")
        assert "A fork waiting for its start at turn 2: 0 of 3 seats claimed." in helped.reply
        assert "You are invited to the seat of Bob (p2): /claim or /decline." in helped.reply
        assert "You are invited to no seat of this fork." in (await eve.ok("/help")).reply
        assert (await eve.refused("/join")).reply.startswith("nobody joins a real fork")
        assert (await bob.ok("/claim")).reply == (
            "Bob claimed their seat (p2) in Skirmish Society (fork, turn 2); an admin starts "
            "the fork with /start."
        )
        assert "You have claimed your seat: Bob (p2)." in (await bob.ok("/help")).reply
        assert (await cy.ok("/decline")).reply.startswith(
            "You declined your seat in Skirmish Society (fork, turn 2), for good."
        )
        assert (await cy.refused("/claim")).reply.startswith("you are invited to no seat")
        await ann.ok("/claim")
        assert (await ann.ok("/resign")).reply.startswith("You declined your seat")
        assert (await bob.refused("/start")).reply == ADMIN_ONLY
        started = await ann.ok("/start")
        first_line, players = started.reply.splitlines()[:2]
        assert first_line.startswith(
            "**Skirmish Society (fork, turn 2)** has started! Turn 2 is open for orders (they "
            "close 5 minutes before the resolution). Next resolution: "
        )
        assert players == "1 player: Bob."
        helped = await bob.ok("/help")
        assert "Turn 2 is open for orders (they close 5 minutes" in helped.reply
        assert helped.result is not None
        statuses = {p["id"]: p["status"] for p in helped.result["players"]}
        assert statuses == {"p1": "resigned", "p2": "active", "p3": "resigned"}
