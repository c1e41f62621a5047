"""Reminders of games run by their definition, through a real server on a fake clock (POST
/v1/admin/clock, whose scheduler reminds and times out what falls due): a timed wait reminds
the seats it still waits for, once, a quarter of the wait before its deadline (an hour at
most); nobody else, nobody who takes no notices, nobody while paused, and no webhook but a
trusted one (a reminder tells who has not moved yet); a rewind begins the wait again, and its
reminder with it."""

import json
from datetime import timedelta

from tests.api.clocks import Json, advance, choose, deadline_of, hooked_skor, started
from tests.api.support import (
    START,
    Account,
    Api,
    Live,
    Server,
    feed_of,
    make_move,
    public_game,
    until,
)


async def _reminders(api: Api, game_id: str, who: Account) -> list[Json]:
    """The reminders in the player's own feed (nobody else reads them)."""
    feed = await feed_of(api, game_id, who)
    return [e for e in feed if e["type"] == "player_notified.v1" and e["kind"] == "reminder"]


async def _reminded(api: Api, game_id: str, accounts: list[Account]) -> list[int]:
    """How many reminders each account has had."""
    return [len(await _reminders(api, game_id, who)) for who in accounts]


async def test_skor_reminds_the_player_to_move_once_and_the_other_never(server: Server) -> None:
    api = server.api
    game_id, accounts = await started(api, "skor", 2, turn_time=600)
    first, second = await choose(api, game_id, accounts)
    # A wait of ten minutes reminds a quarter of it, 150 seconds, before its deadline.
    async with Live.open(server.base, game_id, token=first.token) as mine:
        await advance(api, 449)
        assert await _reminded(api, game_id, [first, second]) == [0, 0]
        await advance(api, 1)
        (reminder,) = await _reminders(api, game_id, first)
        assert reminder["text"] == (
            "On the clock: it is still your turn, until 2030-03-04 08:10:00 UTC. "
            "Then the game moves for you."
        )
        # On the player's socket too, as every notice of theirs.
        await mine.wait_for(
            lambda ms: any(
                m["type"] == "event" and m["event"]["data"].get("kind") == "reminder" for m in ms
            )
        )
    assert await _reminders(api, game_id, second) == []
    # Once a wait: an action of the turn leaves it the same wait.
    await make_move(api, game_id, first, "offer draw")
    await advance(api, 149)
    assert await _reminded(api, game_id, [first, second]) == [1, 0]
    # The turn times out: the second player's wait, and their reminder before its deadline.
    await advance(api, 1)
    await advance(api, 450)
    assert await _reminded(api, game_id, [first, second]) == [1, 1]


async def test_an_art_of_war_turn_reminds_only_the_seats_that_have_not_ordered(
    server: Server,
) -> None:
    api = server.api
    game_id, accounts = await started(api, "art-of-war", 3, map="aow-mini", deadline=3_600)
    ordered, late, silent = accounts
    await make_move(api, game_id, ordered, "")
    path = f"/v1/games/{game_id}/players/me"
    await api.call("PATCH", path, silent, {"notifications": False})
    # An hour's wait reminds its quarter, 15 minutes, before its deadline.
    await advance(api, 2_699)
    assert await _reminded(api, game_id, accounts) == [0, 0, 0]
    await advance(api, 1)
    (reminder,) = await _reminders(api, game_id, late)
    assert (reminder["player_id"], reminder["turn"]) == ("p2", 1)
    assert reminder["text"] == (
        "On the clock: you have not moved yet in turn 1. "
        "It goes on without your move at 2030-03-04 09:00:00 UTC."
    )
    await advance(api, 900)
    assert (await public_game(api, game_id))["turn"] == 2
    # Who ordered, and who takes no notices, had none; each seat of turn 2 has its own.
    assert await _reminded(api, game_id, accounts) == [0, 1, 0]
    await advance(api, 2_700)
    assert await _reminded(api, game_id, accounts) == [1, 2, 0]


async def test_a_paused_game_reminds_nobody_and_its_reminder_moves_with_the_deadline(
    server: Server,
) -> None:
    api = server.api
    game_id, accounts = await started(api, "art-of-war", 2, map="aow-mini", deadline=3_600)
    admin = accounts[0]
    await advance(api, 1_200)
    await api.call("POST", f"/v1/games/{game_id}/admin/pause", admin)
    await advance(api, 7_200)
    assert await _reminded(api, game_id, accounts) == [0, 0]
    await api.call("POST", f"/v1/games/{game_id}/admin/unpause", admin)
    # 40 minutes were left at the pause: the reminder comes 15 minutes before they are up.
    resumed = START + timedelta(seconds=8_400)
    assert deadline_of(await public_game(api, game_id)) == resumed + timedelta(minutes=40)
    await advance(api, 1_499)
    assert await _reminded(api, game_id, accounts) == [0, 0]
    await advance(api, 1)
    assert await _reminded(api, game_id, accounts) == [1, 1]


async def test_a_rewind_begins_the_wait_again_and_its_reminder(server: Server) -> None:
    api = server.api
    game_id, accounts = await started(api, "skor", 2, turn_time=600)
    first, second = await choose(api, game_id, accounts)
    await advance(api, 450)
    await make_move(api, game_id, first, "offer draw")
    assert await _reminded(api, game_id, [first, second]) == [1, 0]
    # The action undone: the turn's wait begins again, with all its time.
    await api.call("POST", f"/v1/games/{game_id}/admin/rewind", accounts[0], {"reason": "again"})
    view = await public_game(api, game_id)
    rewound = START + timedelta(seconds=450)
    assert deadline_of(view) == rewound + timedelta(seconds=600)
    await advance(api, 449)
    assert await _reminded(api, game_id, [first, second]) == [1, 0]
    await advance(api, 1)
    reminders = await _reminders(api, game_id, first)
    assert ["until 2030-03-04 08:10:00" in r["text"] for r in reminders] == [True, False]
    assert "until 2030-03-04 08:17:30 UTC" in reminders[1]["text"]
    assert await _reminders(api, game_id, second) == []


async def test_a_plain_webhook_is_told_whose_turn_it_is_but_not_who_is_reminded(
    schema_url: str,
) -> None:
    async with hooked_skor(schema_url) as game:
        api, receiver, game_id = game.server.api, game.receiver, game.game_id
        first, second = game.first, game.second
        assert game.webhook["trusted"] is False
        # The first player reminded, then the turn timed out and passed, and passed back: a
        # your-turn a turn since the webhook was set (the start's, before it, reach it or not
        # as the outbox's enqueuer happened to follow the log).
        await advance(api, 600)
        await make_move(api, game_id, second, "end")
        assert await _reminded(api, game_id, [first, second]) == [1, 0]

        def kinds() -> list[str]:
            bodies = [json.loads(body) for _, body in receiver.received]
            return [b["event"]["kind"] for b in bodies if "kind" in b["event"]]

        def your_turns_since() -> list[tuple[str, int]]:
            bodies = [json.loads(body)["event"] for _, body in receiver.received]
            return sorted(
                (e["player_id"], e["turn"])
                for e in bodies
                if e.get("kind") == "your_turn" and e["turn"] > 1
            )

        await until(lambda: len(your_turns_since()) == 3, what="the your-turn notices")
        assert your_turns_since() == [("p1", 2), ("p1", 4), ("p2", 3)]
        assert "reminder" not in kinds()
