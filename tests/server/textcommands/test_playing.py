"""Playing through the command endpoint only: a real server and database, a fake clock."""

from datetime import timedelta

from projections.skirmish.hints import HINTS
from schema.receipts import verify
from server.commands.replies import RECEIPT_NOTE
from server.game.words import QUOTES
from tests.server.textcommands.bot import Person, Table, all_ready, armies, neighbours, table

SETUP = '/advanced_setup name="Friday Night" votes=disabled seed=3'


async def seated(t: Table, setup: str = SETUP) -> tuple[Person, Person, Person]:
    """Ann sets up and plays (p1), Bob (p2) and Cy (p3) join; started."""
    ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
    await t.game(ann, [ann, bob, cy], setup)
    await ann.ok("/start")
    return ann, bob, cy


async def test_setup_join_and_start(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        created = await ann.ok("/setup Friday Night")
        assert created.reply.startswith("**Friday Night** is set up (game ")
        assert created.result is not None
        assert created.result["phase"] == "joining"
        assert created.result["admins"] != []
        for person in (ann, bob, cy):
            person.game = created.result["id"]
        joined = await bob.ok("/join")
        assert joined.reply == (
            "Bob joined Friday Night as p1. 1 player in so far; an admin starts the game "
            "with /start."
        )
        assert (await bob.refused("/join")).reply == "you have already joined this game"
        assert (await ann.refused("/start")).reply == "a game needs at least 3 players; 1 joined"
        await ann.ok("/join")
        await cy.ok("/join Cyrus")
        assert (await cy.refused("/start")).reply == "only an admin of this game can do that"
        started = await ann.ok("/start")
        assert started.reply.startswith("**Friday Night** has started! Turn 1 is open")
        assert "3 players: Ann, Bob, Cyrus." in started.reply
        assert (await cy.refused("/join")).reply == ("the game is running; this needs it joining")
        helped = await cy.ok("/help")
        mine = armies(helped, "p3")
        assert len(mine) == 2
        assert f"You: Cyrus (p3), 3rd of 3: 0 VP, 3 territories, 2 armies in {mine[0]}, " in (
            helped.reply
        )
        assert "http" not in helped.reply


async def test_submit_valid_and_invalid_orders_and_list_them(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(t)
        mine, theirs = armies(await ann.ok("/help"), "p1"), armies(await bob.ok("/help"), "p2")
        text = f"{mine[0]} H, XX H, {theirs[0]} H"
        sent = await ann.ok(f"/submit {text}")
        assert sent.result is not None
        assert ann.game is not None
        # The receipt, to keep; its nonce only in the result, which the caller alone gets.
        receipt, nonce = sent.result["receipt"], sent.result["nonce"]
        assert verify(receipt, ann.game, 1, "p1", text, nonce)
        assert sent.reply.split("\n") == [
            "Orders for turn 1:",
            f"Receipt: {receipt}",
            f"\u2713 {mine[0]} H",
            "\u2717 XX H: no such territory: XX",
            f"\u2717 {theirs[0]} H: not your army: {theirs[0]}",
            "1 of 3 orders valid. Invalid orders are ignored: those armies keep their last "
            "valid order.",
            RECEIPT_NOTE,
        ]
        assert nonce not in sent.reply
        assert sent.result["turn"] == 1
        assert [o["valid"] for o in sent.result["orders"]] == [True, False, False]
        # A newer valid order replaces the older one for the same army.
        await ann.ok(f"SUBMIT {mine[0].lower()} hold\n{mine[1]} h")
        listed = await ann.ok("/list")
        assert listed.reply.split("\n") == [
            "Ann's orders for turn 1:",
            f"\u2713 {mine[0].lower()} hold",
            f"\u2713 {mine[1]} h",
            "Invalid orders sent this turn (ignored):",
            "\u2717 XX H: no such territory: XX",
            f"\u2717 {theirs[0]} H: not your army: {theirs[0]}",
        ]
        assert listed.result is not None
        assert [o["unit"] for o in listed.result["current"]] == [mine[0], mine[1]]


async def test_submit_gives_the_same_result_as_the_orders_route(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, _, _ = await seated(t)
        mine = armies(await ann.ok("/help"), "p1")
        text = f"{mine[0]} H, {mine[1]} B, ZZ to QQ"
        said = await ann.ok(f"/submit {text}")
        routed = await t.client.put(
            f"/v1/games/{ann.game}/orders",
            json={"orders": text},
            headers={"Authorization": f"Bearer {ann.token}"},
        )
        assert said.result is not None
        assert routed.status_code == 200
        # Each submission has a fresh nonce, so its own receipt; the rest is the same.
        assert ann.game is not None
        fresh = {"position": 0, "receipt": "", "nonce": ""}
        assert {**said.result, **fresh} == {**routed.json(), **fresh}
        for answer in (said.result, routed.json()):
            assert verify(answer["receipt"], ann.game, 1, "p1", text, answer["nonce"])
        assert said.result["nonce"] != routed.json()["nonce"]


async def test_a_players_list_and_help_never_show_anothers_orders(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        ann_armies = armies(await ann.ok("/help"), "p1")
        await ann.ok(f"/submit {ann_armies[0]} hold, {ann_armies[1]} build")
        await cy.ok("/submit XX H")
        for person in (bob, cy):
            for command in ("/list", "/help"):
                said = await person.ok(command)
                seen = f"{said.reply} {said.result}"
                assert "build" not in seen
                assert f"{ann_armies[0]} hold" not in seen
            assert "XX H" not in (await bob.ok("/list")).reply
        assert "XX H" in (await cy.ok("/list")).reply


async def test_a_long_submission_is_answered_in_one_discord_message(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, _, _ = await seated(t)
        orders = ", ".join(f"Q{i:03d} to R{i:03d}" for i in range(150))
        said = await ann.ok(f"/submit {orders}")
        lines = said.reply.split("\n")
        assert said.result is not None
        # The receipt is kept: it comes before the orders, which are cut.
        assert lines[:3] == [
            "Orders for turn 1:",
            f"Receipt: {said.result['receipt']}",
            "\u2717 Q000 to R000: no such territory: Q000",
        ]
        assert lines[-1].startswith("... and ")
        assert len(said.result["orders"]) == 150


async def test_orders_are_refused_while_locked_and_before_the_start(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        await t.game(ann, [ann, bob, cy], SETUP)
        assert (await bob.refused("/submit AB H")).reply == (
            "the game is joining; this needs it running or paused"
        )
        assert "not started" in (await bob.ok("/list")).reply
        await ann.ok("/start")
        t.clock.advance(timedelta(hours=3, minutes=57).total_seconds())
        locked = await bob.refused("/submit AB H")
        assert locked.reply.startswith("orders are locked around the resolution")


async def test_votes_show_the_tally_and_count_once(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t, "/advanced_setup votes=every_turn vote_start_turn=1")
        vote = (await ann.ok("/help")).result
        assert vote is not None
        first, second = vote["vote"]["candidates"]
        tie_break = vote["vote"]["tie_break"]
        said = await ann.ok(f"/vote {first.lower()}")
        assert said.reply == (
            f"Ann votes {first}.\nTally: {first} 1, {second} 0 (a tie goes to {tie_break})."
        )
        said = await bob.ok(f"/vote {second}")
        assert said.reply.endswith(f"Tally: {first} 1, {second} 1 (a tie goes to {tie_break}).")
        assert (await ann.refused(f"/vote {second}")).reply == (
            "you can only vote once in a given turn"
        )
        assert (await cy.refused("/vote NAPTIME")).reply.startswith("unknown effect: 'NAPTIME'")
        assert f"Tally: {first} 1, {second} 1" in (await cy.ok("/help")).reply


async def test_same_day_votes_are_secret(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(
            t, "/advanced_setup votes=every_turn vote_start_turn=1 voting_mode=same_day"
        )
        help_result = (await ann.ok("/help")).result
        assert help_result is not None
        first = help_result["vote"]["candidates"][0]
        said = await ann.ok(f"/vote {first}")
        assert said.reply == (
            f"Ann's secret vote for {first} is in; the tally is revealed at resolution."
        )
        assert f"{first} 1" not in (await bob.ok("/help")).reply


async def test_there_is_no_vote_when_votes_are_off(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, _, _ = await seated(t)
        assert (await ann.refused("/vote FEAST")).reply == "there is no vote this turn"


async def test_look_notifications_and_names(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(t)
        assert (await bob.ok("/color 16")).reply == "Bob's colour is now 16."
        assert (await bob.ok("/color 16")).reply == "Bob's colour is already 16."
        assert (await bob.refused("/color 21")).reply == "color must be between 1 and 20, not 21"
        assert (await bob.ok("/pattern 16")).reply == "Bob's pattern is now 16."
        assert (await bob.refused("/pattern 0")).reply == "pattern must be between 1 and 16, not 0"
        assert (await bob.refused("/pattern x")).reply == (
            "'x' is not a whole number.\nUsage: /pattern <1-16>"
        )
        assert (await bob.ok("/notifications false")).reply.startswith(
            "Notifications now off for Bob"
        )
        assert (await bob.ok("/refresh_name Bobby Tables")).reply == (
            "Bob is now called Bobby Tables on the map."
        )
        assert (await bob.refused("/refresh_name ann")).reply == (
            "the name 'ann' is taken in this game"
        )
        assert (await bob.ok("/refresh_name")).reply == "Bobby Tables is now called Bob on the map."
        game = (await ann.ok("/help")).result
        assert game is not None
        (shown,) = [p for p in game["players"] if p["id"] == "p2"]
        assert (shown["name"], shown["color"], shown["pattern"]) == ("Bob", 16, 16)


async def test_broadcast_on_and_off(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, _ = await seated(t)
        said = await bob.ok("/broadcast Ann is lying to you all @everyone")
        assert said.reply == "Anonymous broadcast:\nAnn is lying to you all @\u200beveryone"
        assert said.result is not None
        assert said.result["events"] == ["message_broadcast.v1"]
        assert (await ann.ok("/broadcasting false")).reply.startswith("Broadcasting is now off")
        assert (await bob.refused("/broadcast hello")).reply == (
            "an admin has switched broadcasting off"
        )
        await ann.ok("/broadcasting true")
        await bob.ok("/broadcast hello again")


async def test_resign_in_the_join_phase_and_for_good(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy, dee = [await t.person(name) for name in ("Ann", "Bob", "Cy", "Dee")]
        await t.game(ann, [ann, bob, cy, dee], SETUP)
        assert "/join again" in (await dee.ok("/resign")).reply
        await dee.ok("/join")
        await dee.ok("/resign")
        await ann.ok("/start")
        assert "for good" in (await cy.ok("/resign")).reply
        assert (await cy.refused("/submit AB H")).reply == (
            "Cy has resigned and gives no more orders"
        )


async def test_join_forces_by_id_name_or_mention_and_the_rules_checks(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = await seated(t)
        refused = await bob.refused("/join_forces @CY")
        assert refused.reply == (
            "together Bob and Cy would control 6 territories, more than the most any player "
            "controls (3)"
        )
        assert (await bob.refused("/join_forces p3")).reply == refused.reply
        assert (await bob.refused("/join_forces cy")).reply == refused.reply
        assert (await bob.refused("/join_forces @Zed")).reply == (
            "no player called Zed in this game (players: Ann, Bob, Cy)"
        )
        # Ann grows to three times their size and 3 VP; then Bob and Cy may join.
        for _ in range(3):
            await _expand(t, ann, bob, cy)
        asked = await bob.ok("/join_forces @cy")
        assert asked.reply == (
            "Bob asks to join forces with Cy. It happens when turn 4 resolves if Cy also "
            "sends /join_forces @Bob this turn."
        )
        agreed = await cy.ok("/join_forces p2")
        assert agreed.reply == (
            "Cy and Bob both asked: they join forces as Bob/Cy when turn 4 resolves."
        )
        await all_ready(ann, bob, cy)
        resolved = await ann.ok("/resolve")
        assert "Bob and Cy have joined forces as Bob/Cy." in resolved.reply
        t.clock.advance(600)
        helped = await cy.ok("/help")
        assert "You: Bob/Cy (p2/p3)" in helped.reply
        assert helped.result is not None
        assert len(armies(helped, "p2/p3")) == 4


async def _expand(t: Table, ann: Person, *others: Person) -> None:
    """Ann moves each army into a free neighbour, the others are ready; then the turn
    resolves."""
    helped = await ann.ok("/help")
    assert helped.result is not None
    control = helped.result["board"]["control"]
    near = neighbours(helped)
    taken: set[str] = set()
    orders = []
    for army in armies(helped, "p1"):
        free = sorted(n for n in near[army] if n not in control and n not in taken)
        if free:
            taken.add(free[0])
            orders.append(f"{army} to {free[0]}")
    await ann.ok(f"/submit {', '.join(orders)}")
    await all_ready(*others)
    await ann.ok("/resolve")
    t.clock.advance(600)


async def test_hints_quotes_and_the_cheat_sheet(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann = await t.person("Ann")
        hints = {(await ann.ok("/hint")).reply for _ in range(30)}
        quotes = {(await ann.ok("/call_of_duty_loading_screen")).reply for _ in range(30)}
        assert hints <= set(HINTS)
        assert quotes <= set(QUOTES)
        # Random per request: thirty of the same from twenty would take a broken generator.
        assert len(hints) > 1
        assert len(quotes) > 1
        sheet = await ann.ok("/cheat_sheet")
        assert "REF to MA" in sheet.reply
        assert sheet.result is None


async def test_another_game_is_set_up_and_played_by_text(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob = [await t.person(name) for name in ("Ann", "Bob")]
        setup = '/advanced_setup game="Art of War" name=War map=aow-mini deadline=3600'
        game = await t.game(ann, [ann, bob], setup)
        await ann.ok("/start")
        public = (await t.client.get(f"/v1/games/{game}")).json()
        assert (public["game"], public["name"]) == ("art-of-war", "War")
        assert public["options"]["deadline"] == 3600
        owners = public["play"]["position"]["owners"]
        territory = next(t for t, owner in owners.items() if owner == "p1")
        held = await ann.ok(f"{territory} hold")
        assert held.result is not None
        refused = await ann.refused("/advanced_setup game=skor turn_time=soon")
        assert "turn_time" in refused.reply
