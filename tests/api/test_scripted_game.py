"""A whole game through the client, watched by a spectator's subscription from the first
event."""

import itertools

import msgspec
import pytest

from client import Conflict
from schema.api import FeedEvent
from schema.game_events import TurnResolved
from schema.live import (
    EventMessage,
    ResolvedMessage,
    RewoundMessage,
    ServerMessage,
    StandingsMessage,
)
from tests.api.game import NAMES, SEED, VOTE, ScriptedGame
from tests.api.support import OPERATOR_TOKEN, TEST_SECRET, Json, Server, collecting, data, until


def _positions_increase(messages: list[ServerMessage]) -> bool:
    positions = [m.position for m in messages if m.type == "event"]
    return all(a < b for a, b in itertools.pairwise(positions))


def _without_secret(event: FeedEvent) -> Json:
    shown: Json = msgspec.to_builtins(event)
    shown["data"].pop("secret", None)
    return shown


async def test_a_scripted_game_through_the_client_is_seen_step_by_step_by_a_spectator(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    created = await game.create()
    assert created.phase == "joining"
    assert not hasattr(created.settings, "seed")

    async with collecting(server.api.anyone.live(game.game_id)) as seen:
        # The catch-up ends with the standings: from here on everything arrives live.
        await until(lambda: any(m.type == "standings" for m in seen), what="the catch-up")
        await game.join_and_start()
        started = await game.state()
        assert started.phase == "running"
        assert started.turn == 1
        assert [p.name for p in started.players] == sorted(NAMES)

        for turn in (1, 2):
            await game.submit(turn)
            await game.resolve()
        after_two = await game.state()
        assert {p.id: p.vp for p in after_two.players} == {"p1": 2, "p2": 0, "p3": 0, "p4": 2}
        assert sorted(after_two.board.farms) == ["EA", "GO"]

        # Turn 3: a vote, and a request to join forces that is too early.
        assert after_two.turn == 3
        assert after_two.vote is not None
        assert VOTE in after_two.vote.candidates
        await game.vote_all()
        vote = (await game.state()).vote
        assert vote is not None
        assert vote.tally is not None
        assert vote.tally[VOTE] == len(NAMES)
        with pytest.raises(Conflict) as refused:
            await game.join_forces("Bob", "Cy")
        assert refused.value.code == "join_forces_not_behind"
        assert "behind the leader" in refused.value.message
        await game.submit(3)
        await game.resolve()
        after_three = await game.state()
        assert after_three.effect == VOTE
        assert after_three.last_turn is not None
        assert after_three.last_turn.vote_outcome is not None
        assert after_three.last_turn.vote_outcome.winner == VOTE

        # Turn 4: now they may join forces, and Ann reaches the VP target.
        await game.join_forces("Bob", "Cy")
        await game.join_forces("Cy", "Bob")
        await game.submit(4)
        await game.resolve()
        finished = await game.state()
        assert (finished.phase, finished.winner) == ("finished", "p1")
        assert {p.id for p in finished.players} == {"p1", "p2/p3", "p4"}

        # Rewind the last turn: the game runs again at turn 4, Bob and Cy apart.
        await game.rewind()
        rewound = await game.state()
        assert (rewound.phase, rewound.turn, rewound.winner) == ("running", 4, None)
        assert {p.id for p in rewound.players} == {"p1", "p2", "p3", "p4"}

        # Resolving again finishes it the same way: the join requests and orders stood.
        await game.resolve()
        ended = await game.state()
        assert (ended.phase, ended.winner) == ("finished", "p1")
        assert {p.id for p in ended.players} == {"p1", "p2/p3", "p4"}
        await until(
            lambda: [m.type for m in seen].count("resolved") == 5 and seen[-1].type == "standings",
            what="the last resolution",
        )

    assert _positions_increase(seen)
    kinds = [m.type for m in seen]
    live_events = [m.event for m in seen if isinstance(m, EventMessage)]
    events = [e.type.removesuffix(".v1") for e in live_events]
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
        # Bob's and Cy's requests to join forces are theirs until turn 4 resolves: a socket
        # sends each event as it was, the event feed reveals them.
        "turn_resolved",
        "turn_rewound",
        "turn_resolved",
    ]
    # The game's creation came with the catch-up, with its seed: it picks only the map.
    assert seen[0] == EventMessage(position=live_events[0].position, event=live_events[0])
    assert live_events[0].type == "game_created.v1"
    assert data(live_events[0])["seed"] == SEED

    # Each resolution and the rewind come right after their event, at its position.
    for message, follow in itertools.pairwise(seen):
        if isinstance(message, EventMessage) and message.event.type == "turn_resolved.v1":
            assert isinstance(follow, ResolvedMessage)
            assert follow.position == message.position
            assert follow.resolution == msgspec.convert(data(message.event), TurnResolved)
        if isinstance(message, EventMessage) and message.event.type == "turn_rewound.v1":
            assert isinstance(follow, RewoundMessage)
            assert (follow.position, follow.turn) == (message.position, 4)
    resolutions = [m for m in seen if isinstance(m, ResolvedMessage)]
    assert [m.turn for m in resolutions] == [1, 2, 3, 4, 4]
    assert kinds.count("rewound") == 1

    # After resolution everyone's orders are public, in the resolution.
    first = resolutions[0].resolution
    assert {(o.player, o.text) for o in first.orders} >= {("p1", "EA B"), ("p4", "GI to PR")}

    # Standings are pushed whenever they change; the last ones are the game's.
    standings = [m.standings for m in seen if isinstance(m, StandingsMessage)]
    assert len(standings) >= 6
    assert standings[-1] == ended.players

    # What the spectator saw live is the public feed, plus what the rewind archived.
    feed = await game.api.events(game.game_id)
    archive = await game.api.as_(game.admin).archive(game.game_id)
    archived = {e.position for t in archive.truncations for e in t.events}
    # Ann, the admin, plays p1: of the archived notices, she reads her own.
    assert [e.type for t in archive.truncations for e in t.events] == [
        "turn_resolved.v1",
        "player_notified.v1",
    ]
    # The game has ended since the spectator saw these: its secrets are revealed now, the
    # first and the one the rewind of the finished game drew.
    revealing = [e for e in feed if e.type in ("game_started.v1", "turn_rewound.v1")]
    assert [data(e)["secret"] for e in revealing] == [TEST_SECRET.hex()] * 2
    # And the submissions and join-forces requests of every resolved turn, revealed since
    # (rules.md, "Receipts", "Who sees what").
    kept = [e for e in live_events if e.position not in archived]
    revealed = ("orders_submitted.v1", "join_forces_requested.v1")
    public = [e for e in feed if e.type not in revealed]
    assert [_without_secret(e) for e in kept] == [_without_secret(e) for e in public]
    assert "player_notified.v1" not in {e.type for e in feed}
    assert {data(e)["player_id"] for e in feed if e.type == "orders_submitted.v1"} == {"p1", "p4"}
    asked = [(data(e)["player_id"], data(e)["with_player"]) for e in feed if e.type == revealed[1]]
    assert asked == [("p2", "p3"), ("p3", "p2")]

    # The admin plays: she reads what a player reads. The operator, who plays no seat,
    # reads what the resolutions made public, no notice, with who acted.
    anns = await game.api.events(game.game_id, game.admin)
    assert {data(e)["player_id"] for e in anns if e.type == "player_notified.v1"} == {"p1"}
    assert not any(e.actor for e in anns)
    full = await game.api.events(game.game_id, OPERATOR_TOKEN)
    assert [e.type for e in full] == [e.type for e in feed]
    assert all(e.actor for e in full)
