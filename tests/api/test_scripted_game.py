"""A whole game over HTTP, watched by a spectator's websocket from the first event."""

import itertools

from tests.api.game import NAMES, SEED, VOTE, ScriptedGame
from tests.api.support import OPERATOR_TOKEN, TEST_SECRET, Json, Live, Server

PRIVATE = {"orders_submitted.v1", "player_notified.v1"}


def _positions_increase(messages: list[Json]) -> bool:
    positions = [m["position"] for m in messages if m["type"] == "event"]
    return all(a < b for a, b in itertools.pairwise(positions))


async def test_a_scripted_game_over_http_is_seen_step_by_step_by_a_spectator(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    created = await game.create()
    assert created["phase"] == "joining"
    assert "seed" not in created
    assert "seed" not in created["settings"]

    async with Live.open(server.base, game.game_id) as spectator:
        # The catch-up ends with the standings: from here on everything arrives live.
        await spectator.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        await game.join_and_start()
        started = await game.state()
        assert started["phase"] == "running"
        assert started["turn"] == 1
        assert [p["name"] for p in started["players"]] == sorted(NAMES)

        for turn in (1, 2):
            await game.submit(turn)
            await game.resolve()
        after_two = await game.state()
        assert {p["id"]: p["vp"] for p in after_two["players"]} == {
            "p1": 2,
            "p2": 0,
            "p3": 0,
            "p4": 2,
        }
        assert sorted(after_two["board"]["farms"]) == ["EA", "GO"]

        # Turn 3: a vote, and a request to join forces that is too early.
        assert after_two["turn"] == 3
        assert VOTE in after_two["vote"]["candidates"]
        await game.vote_all()
        assert (await game.state())["vote"]["tally"][VOTE] == len(NAMES)
        refused = await game.join_forces("Bob", "Cy", expect=409)
        assert refused["error"]["code"] == "join_forces_not_behind"
        assert "behind the leader" in refused["error"]["message"]
        await game.submit(3)
        await game.resolve()
        after_three = await game.state()
        assert after_three["effect"] == VOTE
        assert after_three["last_turn"]["vote_outcome"]["winner"] == VOTE

        # Turn 4: now they may join forces, and Ann reaches the VP target.
        await game.join_forces("Bob", "Cy")
        await game.join_forces("Cy", "Bob")
        await game.submit(4)
        await game.resolve()
        finished = await game.state()
        assert finished["phase"] == "finished"
        assert finished["winner"] == "p1"
        assert {p["id"] for p in finished["players"]} == {"p1", "p2/p3", "p4"}

        # Rewind the last turn: the game runs again at turn 4, Bob and Cy apart.
        await game.rewind()
        rewound = await game.state()
        assert (rewound["phase"], rewound["turn"], rewound["winner"]) == ("running", 4, None)
        assert {p["id"] for p in rewound["players"]} == {"p1", "p2", "p3", "p4"}

        # Resolving again finishes it the same way: the join requests and orders stood.
        await game.resolve()
        ended = await game.state()
        assert (ended["phase"], ended["winner"]) == ("finished", "p1")
        assert {p["id"] for p in ended["players"]} == {"p1", "p2/p3", "p4"}
        seen = await spectator.wait_for(
            lambda ms: (
                [m["type"] for m in ms].count("resolved") == 5 and ms[-1]["type"] == "standings"
            )
        )

    assert _positions_increase(seen)
    kinds = [m["type"] for m in seen]
    events = [m["event"]["type"].removesuffix(".v1") for m in seen if m["type"] == "event"]
    assert events == [
        "game_created",
        "player_joined",
        "player_joined",
        "player_joined",
        "player_joined",
        "game_started",
        "turn_resolved",
        "turn_resolved",
        "vote_cast",
        "vote_cast",
        "vote_cast",
        "vote_cast",
        "turn_resolved",
        "join_forces_requested",
        "join_forces_requested",
        "turn_resolved",
        "turn_rewound",
        "turn_resolved",
    ]
    # The game's creation came with the catch-up, with its seed: it picks only the map.
    assert seen[0]["type"] == "event"
    assert seen[0]["event"]["type"] == "game_created.v1"
    assert seen[0]["event"]["data"]["seed"] == SEED

    # Each resolution and the rewind come right after their event, at its position.
    for index, message in enumerate(seen):
        if message["type"] == "event" and message["event"]["type"] == "turn_resolved.v1":
            follow = seen[index + 1]
            assert (follow["type"], follow["position"]) == ("resolved", message["position"])
            assert follow["resolution"] == message["event"]["data"]
        if message["type"] == "event" and message["event"]["type"] == "turn_rewound.v1":
            follow = seen[index + 1]
            assert (follow["type"], follow["position"], follow["turn"]) == (
                "rewound",
                message["position"],
                4,
            )
    assert [m["turn"] for m in seen if m["type"] == "resolved"] == [1, 2, 3, 4, 4]
    assert kinds.count("rewound") == 1

    # After resolution everyone's orders are public, in the resolution.
    first = next(m for m in seen if m["type"] == "resolved")
    assert {(o["player"], o["text"]) for o in first["resolution"]["orders"]} >= {
        ("p1", "EA B"),
        ("p4", "GI to PR"),
    }

    # Standings are pushed whenever they change; the last ones are the game's.
    standings = [m for m in seen if m["type"] == "standings"]
    assert len(standings) >= 6
    assert standings[-1]["standings"] == ended["players"]

    # What the spectator saw live is the public feed, plus what the rewind archived.
    feed = await game.api.events(game.game_id)
    archive = await game.api.call("GET", f"/v1/games/{game.game_id}/archive", game.admin)
    archived = {e["position"] for t in archive["truncations"] for e in t["events"]}
    # Ann, the admin, plays p1: of the archived notices, she reads her own.
    assert [e["type"] for t in archive["truncations"] for e in t["events"]] == [
        "turn_resolved.v1",
        "player_notified.v1",
    ]
    live_events = [m["event"] for m in seen if m["type"] == "event"]
    # The game has ended since the spectator saw these: its secrets are revealed now, the
    # first and the one the rewind of the finished game drew.
    revealing = [e for e in feed if e["type"] in ("game_started.v1", "turn_rewound.v1")]
    assert [e["data"].pop("secret") for e in revealing] == [TEST_SECRET.hex()] * 2
    assert [e for e in live_events if e["position"] not in archived] == feed
    assert not PRIVATE & {e["type"] for e in feed}

    # The admin plays: she reads what a player reads. The operator, who plays no seat,
    # reads everything, with who acted.
    anns = await game.api.events(game.game_id, game.admin)
    assert {e["data"]["player_id"] for e in anns if e["type"] in PRIVATE} == {"p1"}
    assert not any(e.get("actor") for e in anns)
    full = await game.api.events(game.game_id, OPERATOR_TOKEN)
    assert {e["type"] for e in full} >= PRIVATE
    assert all(e["actor"] for e in full)
