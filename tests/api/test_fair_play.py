"""Fair play over the real API (rules.md, "Decisions added after the first release" and
"after the second release"): an admin who plays sees what any player sees, and one who
plays no seat, or the operator, reads no secret either; the game's randomness is committed
at the start and revealed at the end, and the creator's seed picks only the map."""

import hashlib
from typing import Any

import msgspec

from rules.skirmish.board import GameMap
from rules.skirmish.effects import draw_vote
from rules.skirmish.starting import starting_board
from schema.api import FeedEvent
from schema.views import PublicGame
from server.game.entropy import system_entropy
from tests.api.support import (
    OPERATOR_TOKEN,
    PAST_THE_LOCK,
    Account,
    Api,
    Json,
    Live,
    Server,
    data,
    serving,
)

SECRET_WORDS = ("zanzibar-gambit", "quokka-feint")
PRIVATE = {"orders_submitted.v1", "vote_cast.v1", "player_notified.v1"}


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _of_type(feed: list[FeedEvent], kind: str) -> list[FeedEvent]:
    return [e for e in feed if e.type == kind]


def _armies(game: PublicGame, player: str) -> list[str]:
    return sorted(t for t, owner in game.board.armies.items() if owner == player)


def _holds(game: PublicGame, player: str, secret: str) -> str:
    return ", ".join([*(f"{t} H" for t in _armies(game, player)), secret])


async def _players(api: Api, game_id: str, *accounts: Account) -> None:
    for account in accounts:
        await api.join(game_id, account)


async def test_an_admin_who_plays_sees_exactly_what_a_player_sees(server: Server) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game = await api.new_game(ann, votes="every_turn", vote_start_turn=1, voting_mode="same_day")
    game_id = game.id
    await _players(api, game_id, ann, bob, cy)
    await api.start(game_id, ann)
    started = await api.game(game_id)
    assert started.vote is not None
    first, second = started.vote.candidates

    async with Live.open(server.base, game_id, headers=ann.auth) as anns:
        await api.orders(game_id, bob, _holds(started, "p2", SECRET_WORDS[0]))
        await api.orders(game_id, cy, _holds(started, "p3", SECRET_WORDS[1]))
        await api.orders(game_id, ann, _holds(started, "p1", "anns own words"))
        for voter, effect in ((bob, first), (cy, second), (ann, first)):
            await api.call("POST", f"/v1/games/{game_id}/votes", voter, {"effect": effect})
        await api.call("POST", f"/v1/games/{game_id}/broadcast", cy, {"message": "psst"})
        # The reminders, private to each player, go out three minutes before the resolution.
        moved = await api.call(
            "POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": 12 * 60}
        )
        assert moved["now"]
        feed = await api.events(game_id, ann)
        reminders = _of_type(feed, "player_notified.v1")
        assert [data(e)["player_id"] for e in reminders] == ["p1"]
        await anns.wait_for_position(max(e.position for e in feed))

        # Every private event type, across the whole turn: only Ann's own.
        for seen in (msgspec.to_builtins(feed), anns.events):
            private = [e for e in seen if e["type"] in PRIVATE]
            assert {e["type"] for e in private} == PRIVATE
            assert {e["data"]["player_id"] for e in private} == {"p1"}
            assert not [w for w in SECRET_WORDS if w in _text(seen)]
            broadcast = next(e for e in seen if e["type"] == "message_broadcast.v1")
            assert broadcast.get("actor") is None
            assert not [e for e in seen if e["type"] == "private_events_read.v1"]
        # Nor anywhere else an admin may look.
        await api.call("GET", f"/v1/games/{game_id}/orders?player=p2", ann, expect=403)
        archive = await api.call("GET", f"/v1/games/{game_id}/archive", ann)
        assert not [w for w in SECRET_WORDS if w in _text(archive)]
        vote = (await api.game(game_id, ann)).vote
        assert vote is not None
        assert vote.tally is None

        await api.admin(game_id, ann, "resolve")
        await anns.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
    # The resolution shows every order, in `turn_resolved`, and reveals every submission
    # with its receipt's nonce; the ballots and notices stay their own.
    after = await api.events(game_id, ann)
    resolved = next(e for e in after if e.type == "turn_resolved.v1")
    assert all(word in _text(resolved) for word in SECRET_WORDS)
    revealed = _of_type(after, "orders_submitted.v1")
    assert {data(e)["player_id"] for e in revealed} == {"p1", "p2", "p3"}
    mine = [e for e in after if e.type in PRIVATE - {"orders_submitted.v1"}]
    assert {data(e)["player_id"] for e in mine} == {"p1"}


async def test_an_admin_who_plays_no_seat_and_the_operator_read_no_secrets(
    server: Server,
) -> None:
    api = server.api
    mo, bob, cy, di = [await api.account(name) for name in ("Mo", "Bob", "Cy", "Di")]
    game = await api.new_game(mo)
    game_id = game.id
    await _players(api, game_id, bob, cy, di)
    await api.start(game_id, mo)
    started = await api.game(game_id)
    await api.orders(game_id, bob, _holds(started, "p1", SECRET_WORDS[0]))

    # Mo, who plays no seat, and the operator read no orders before the resolution, and
    # no read of theirs is recorded: there is none to record.
    for reader in (mo, OPERATOR_TOKEN):
        feed = await api.events(game_id, reader)
        assert SECRET_WORDS[0] not in _text(feed)
        assert not _of_type(feed, "orders_submitted.v1")
    assert not _of_type(await api.events(game_id, bob), "private_events_read.v1")

    server.clock.advance(60)
    await api.admin(game_id, OPERATOR_TOKEN, "resolve")
    # Once the turn resolved, the submission is public, to them as to everyone.
    for after in (mo, OPERATOR_TOKEN, cy, None):
        revealed = _of_type(await api.events(game_id, after), "orders_submitted.v1")
        assert [data(e)["player_id"] for e in revealed] == ["p1"]
        assert SECRET_WORDS[0] in _text(revealed)


async def _play_until_won(api: Api, server: Server, game_id: str, farmer: Account) -> PublicGame:
    """The farmer (p1) builds a farm on a barracks in turn 1, then farms it every turn until
    the game ends (vp_target 1); nobody else gives an order."""
    game = await api.game(game_id)
    farm = _armies(game, "p1")[0]
    await api.orders(game_id, farmer, f"{farm} B")
    for _ in range(12):
        await api.admin(game_id, OPERATOR_TOKEN, "resolve")
        game = await api.game(game_id)
        if game.phase == "finished":
            return game
        server.clock.advance(PAST_THE_LOCK)
        await api.orders(game_id, farmer, f"{farm} F")
    raise AssertionError("the game did not end")


async def _votes_of(api: Api, game_id: str) -> list[Json]:
    feed = await api.events(game_id)
    votes = [data(e)["vote"] for e in feed if e.type == "game_started.v1"]
    votes += [data(e)["next_vote"] for e in feed if e.type == "turn_resolved.v1"]
    return [v for v in votes if v is not None]


async def test_the_secret_is_committed_at_the_start_and_reproduces_every_draw_at_the_end(
    schema_url: str,
) -> None:
    # A server that draws every game's secret as `skirmish serve` does.
    async with serving(schema_url, entropy=system_entropy) as server:
        await _two_games_of_one_seed(server)


async def _two_games_of_one_seed(server: Server) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    ids = []
    for _ in range(2):
        # The same seed for both: it picks the map, nothing else.
        game = await api.new_game(
            ann, seed=424242, vp_target=1, votes="every_turn", vote_start_turn=1
        )
        await _players(api, game.id, ann, bob, cy)
        await api.start(game.id, ann)
        ids.append(game.id)
    first, second = [await api.game(g) for g in ids]
    assert first.map == second.map
    assert first.commitment != second.commitment
    assert first.secret is None
    # Not in the feed either, for anyone: not its admin, not the operator.
    for reader in (None, ann, OPERATOR_TOKEN):
        (started,) = _of_type(await api.events(ids[0], reader), "game_started.v1")
        assert data(started)["secret"] is None
        assert data(started)["commitment"] == first.commitment

    finished = await _play_until_won(api, server, ids[0], ann)
    for _ in range(3):
        await api.admin(ids[1], OPERATOR_TOKEN, "resolve")
        server.clock.advance(PAST_THE_LOCK)
    assert (await _votes_of(api, ids[0]))[:3] != (await _votes_of(api, ids[1]))[:3]

    assert finished.secret is not None
    secret = bytes.fromhex(finished.secret)
    assert hashlib.sha256(secret).hexdigest() == finished.commitment == first.commitment
    votes = await _votes_of(api, ids[0])
    assert len(votes) >= 2
    for vote in votes:
        candidates, tie_break = draw_vote(secret, vote["turn"])
        assert (tuple(vote["candidates"]), vote["tie_break"]) == (candidates, tie_break)
    (started,) = _of_type(await api.events(ids[0]), "game_started.v1")
    assert data(started)["secret"] == finished.secret
    game_map = msgspec.convert(data(started)["map"], GameMap)
    _, homes = starting_board(game_map, ["p1", "p2", "p3"], secret)
    assert {p: list(h) for p, h in homes.items()} == data(started)["homes"]
