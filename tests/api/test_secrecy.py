"""Secrets stay secret: other players' orders and same-day ballots until the turn resolves,
and the game's secret from everyone until the game ends, over every read endpoint and
socket."""

from typing import Any

import msgspec

from schema.api import FeedEvent
from tests.api.support import (
    OPERATOR_TOKEN,
    TEST_SECRET,
    Account,
    Api,
    Json,
    Live,
    Server,
    data,
    until,
)

SEED = 918_273_645_546
SECRET_WORDS = ("zanzibar-gambit", "quokka-feint")


async def _read_everything(api: Api, game_id: str, who: Account | None) -> list[Any]:
    """Every read endpoint of the API, as `who` (None: anonymous)."""
    auth = who if who is not None else None
    answers = [
        await api.call("GET", f"/v1/games/{game_id}", auth),
        await api.call("GET", "/v1/games", auth),
        await api.call("GET", "/v1/games?phase=running", auth),
        await api.events(game_id, who),
        await api.call("GET", f"/v1/games/{game_id}/events?after=3&limit=2", auth),
        await api.call("GET", f"/v1/games/{game_id}/turns/1", auth),
        await api.call("GET", "/v1/me", auth, expect=401 if who is None else 200),
        await api.call(
            "GET", f"/v1/games/{game_id}/archive", auth, expect=401 if who is None else 403
        ),
        await api.call(
            "GET", f"/v1/games/{game_id}/orders", auth, expect=401 if who is None else 200
        ),
    ]
    if who is not None:
        # Nobody reads another player's orders.
        answers.append(
            await api.call("GET", f"/v1/games/{game_id}/orders?player=p4", who, expect=403)
        )
    return answers


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _leaks(texts: str) -> list[str]:
    return [word for word in (*SECRET_WORDS, TEST_SECRET.hex()) if word in texts]


async def test_nothing_of_other_players_leaks_before_resolution(server: Server) -> None:
    api = server.api
    ann, bob, cy, di = [await api.account(name) for name in ("Ann", "Bob", "Cy", "Di")]
    game = await api.new_game(
        ann, seed=SEED, votes="every_turn", vote_start_turn=1, voting_mode="same_day"
    )
    game_id = game.id
    for account in (ann, bob, cy, di):
        await api.join(game_id, account)
    await api.start(game_id, ann)
    started = await api.game(game_id)
    vote = started.vote
    assert vote is not None
    assert vote.tally is None
    first, second = vote.candidates
    armies = started.board.armies

    def holds(player: str, secret: str) -> str:
        mine = sorted(t for t, owner in armies.items() if owner == player)
        return ", ".join([*(f"{t} H" for t in mine), secret])

    async with (
        Live.open(server.base, game_id, headers=bob.auth) as bobs,
        Live.open(server.base, game_id) as spectators,
    ):
        for live in (bobs, spectators):
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        # Cy and Di order and vote; Bob orders and votes too, with nothing secret in it.
        cys = await api.orders(game_id, cy, holds("p3", SECRET_WORDS[0]))
        dis = await api.orders(game_id, di, holds("p4", SECRET_WORDS[1]))
        # Their receipts' nonces, which only they hold until the resolution reveals them.
        nonces = (cys.nonce, dis.nonce)
        await api.orders(game_id, bob, holds("p2", "bobs own words"))
        for voter, effect in ((cy, first), (di, second), (bob, first)):
            voted = await api.call("POST", f"/v1/games/{game_id}/votes", voter, {"effect": effect})
        # The read models have caught up with everything (the list shows the position), and
        # so has the live feed: Bob's socket has his ballot, the last event.
        await until(
            lambda: _listed_position(api, game_id, voted["position"]),
            what="the read models to catch up",
        )
        await bobs.wait_for_position(voted["position"])

        for reader in (bob, None):
            answers = await _read_everything(api, game_id, reader)
            text = _text(answers)
            assert _leaks(text) == []
            assert not [n for n in nonces if n in text]
            feed: list[FeedEvent] = answers[3]
            types = [(e.type, data(e).get("player_id")) for e in feed]
            assert ("vote_cast.v1", "p3") not in types
            assert ("vote_cast.v1", "p4") not in types
            assert ("orders_submitted.v1", "p3") not in types
            assert answers[0]["vote"]["tally"] is None
        # Bob reads his own orders and his own ballot.
        bob_feed = _text(await api.events(game_id, bob))
        assert "bobs own words" in bob_feed
        assert _text(await api.events(game_id)).count("bobs own words") == 0
        assert [
            data(e)["player_id"] for e in await api.events(game_id, bob) if e.type == "vote_cast.v1"
        ] == ["p2"]

        # Nothing secret went down the sockets either.
        assert _leaks(_text(bobs.messages)) == []
        assert _leaks(_text(spectators.messages)) == []
        for live in (bobs, spectators):
            assert not [n for n in nonces if n in _text(live.messages)]
        assert {e["data"]["player_id"] for e in bobs.events if e["type"] in _PRIVATE} == {"p2"}
        assert not [e for e in spectators.events if e["type"] in _PRIVATE]

        # The resolution makes the orders and the tally public, in `turn_resolved`.
        server.clock.advance(60)
        # Ann has sent nothing: the operator resolves at once.
        await api.admin(game_id, OPERATOR_TOKEN, "resolve")
        for live in (bobs, spectators):
            await live.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
    # Everything before the resolution has reached the sockets by now.
    assert {e["data"]["player_id"] for e in bobs.events if e["type"] in _PRIVATE} == {"p2"}
    assert not [e for e in spectators.events if e["type"] in _PRIVATE]
    resolved = next(m for m in spectators.messages if m["type"] == "resolved")["resolution"]
    texts = {o["text"] for o in resolved["orders"]}
    assert set(SECRET_WORDS) <= texts
    assert resolved["vote_outcome"]["tally"] == {first: 2, second: 1}
    assert resolved["effect"] == first
    public = _text(await api.events(game_id))
    assert all(word in public for word in SECRET_WORDS)
    # The submissions are revealed in the feed, with their nonces (rules.md, "Receipts").
    assert all(nonce in public for nonce in nonces)
    # The ballots themselves stay with their owners; the game's secret with nobody, not
    # even its admin, until the game ends.
    assert '"vote_cast.v1"' not in public
    assert _leaks(_text(spectators.messages)) == [*SECRET_WORDS]
    assert TEST_SECRET.hex() not in public
    assert TEST_SECRET.hex() not in _text(await api.events(game_id, ann))


_PRIVATE = {"orders_submitted.v1", "vote_cast.v1", "player_notified.v1"}


async def _listed_position(api: Api, game_id: str, position: int) -> bool:
    listed: Json = await api.call("GET", "/v1/games")
    return any(g["id"] == game_id and g["position"] >= position for g in listed["games"])
