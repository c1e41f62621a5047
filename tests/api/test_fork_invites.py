"""A real fork invites (docs/rules.md, "Forks"): the source's players find the invitation in
GET /v1/me and claim their old seat or decline it; nobody is seated without asking; the fork
waits until its admin starts it, and a seat nobody claimed by then plays as resigned, with
no notice to anyone who did not claim."""

from typing import Any

import pytest

from tests.api.forks import assert_begins_at, fork_of, played
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, Account, Json, Server, until


async def _mine(server: Server, who: Account, game: str) -> Json | None:
    """The game as GET /v1/me lists it for `who`, or None."""
    me: Json = await server.api.call("GET", "/v1/me", who)
    return next((g for g in me["games"] if g["id"] == game), None)


async def _listed_as(server: Server, who: Account, game: str, **expected: Any) -> None:
    """GET /v1/me lists `game` for `who` with `expected` (a read model: a moment behind)."""

    async def listed() -> bool:
        found = await _mine(server, who, game)
        return found is not None and all(found[k] == v for k, v in expected.items())

    await until(listed, what=f"{who.name}'s /v1/me to list {game} with {expected}")


async def _unlisted(server: Server, who: Account, game: str) -> None:
    async def gone() -> bool:
        return await _mine(server, who, game) is None

    await until(gone, what=f"{game} to leave {who.name}'s /v1/me")


async def _call(server: Server, game: str, action: str, who: Account, expect: int = 200) -> Json:
    answer: Json = await server.api.call("POST", f"/v1/games/{game}/{action}", who, expect=expect)
    return answer


def _code(answer: Json) -> str:
    code: str = answer["error"]["code"]
    return code


async def _play_turn(server: Server, game: str, turn: int, players: list[Account]) -> None:
    """Every player's orders in (all hold), then the turn resolved by the first, an admin."""
    for who in players:
        await server.api.orders(game, who, "EA H", turn=turn)
    server.clock.advance(60)
    await server.api.as_(players[0]).resolve(game)
    server.clock.advance(PAST_THE_LOCK)


@pytest.mark.timeout(120)
async def test_a_real_fork_invites_its_sources_players_and_starts_when_its_admin_starts_it(
    server: Server,
) -> None:
    source = await played(server, 1)
    ann, bob, cy, di = source.accounts
    eve = await server.api.account("Eve")
    fork = await fork_of(server, source.game_id, ann, turn=2, sandbox=False)
    game = fork["id"]
    await assert_begins_at(server, source.game_id, fork, 2)
    # Waiting: nobody seated, every active seat invited, no resolution due.
    assert (fork["phase"], fork["next_resolution_at"]) == ("joining", None)
    assert fork["claims"] == {"p1": "invited", "p2": "invited", "p3": "invited", "p4": "invited"}
    for who, seat in ((bob, "p2"), (cy, "p3"), (di, "p4")):
        await _listed_as(server, who, game, invited_to=seat, player=None, admin=False)
    await _listed_as(server, ann, game, invited_to="p1", player=None, admin=True)
    assert await _mine(server, eve, game) is None
    refused = await server.api.call(
        "PUT", f"/v1/games/{game}/orders", bob, {"orders": "EA H"}, expect=409
    )
    assert _code(refused) == "wrong_phase"

    # Bob claims his seat; Cy declines hers; Ann claims by the text command; Di says nothing.
    claimed = await _call(server, game, "claim", bob)
    assert (claimed["events"], claimed["player"]) == (["seat_claimed.v1"], "p2")
    assert _code(await _call(server, game, "claim", bob, 409)) == "already_claimed"
    await _listed_as(server, bob, game, invited_to=None, player="p2", player_status="active")
    declined = await _call(server, game, "decline", cy)
    assert declined["events"] == ["seat_declined.v1"]
    await _unlisted(server, cy, game)
    assert _code(await _call(server, game, "claim", cy, 403)) == "not_invited"
    assert _code(await _call(server, game, "claim", eve, 403)) == "not_invited"
    assert _code(await _call(server, game, "decline", eve, 403)) == "not_invited"
    assert _code(await _call(server, game, "join", eve, 409)) == "fork_not_joinable"
    reply = await server.api.call("POST", f"/v1/games/{game}/commands", ann, {"text": "/claim"})
    assert reply["ok"], reply["reply"]
    waiting: Json = await server.api.call("GET", f"/v1/games/{game}")
    assert waiting["claims"] == {
        "p1": "claimed",
        "p2": "claimed",
        "p3": "vacant",
        "p4": "invited",
    }

    # Only its admin starts it; then Cy's and Di's seats play as resigned.
    assert _code(await _call(server, game, "start", bob, 403)) == "admin_only"
    started = await _call(server, game, "start", ann)
    assert started["events"] == ["fork_started.v1"]
    running: Json = await server.api.call("GET", f"/v1/games/{game}")
    assert (running["phase"], running["turn"], running["claims"]) == ("running", 2, None)
    assert running["next_resolution_at"] is not None
    statuses = {p["id"]: p["status"] for p in running["players"]}
    assert statuses == {"p1": "active", "p2": "active", "p3": "resigned", "p4": "resigned"}
    assert _code(await _call(server, game, "claim", di, 409)) == "wrong_phase"
    await _unlisted(server, di, game)

    # The claimants play; the others give no orders and get no notices.
    for who in (cy, di):
        refused = await server.api.call(
            "PUT", f"/v1/games/{game}/orders", who, {"orders": "EA H"}, expect=403
        )
        assert _code(refused) == "not_a_player"
    for turn in (2, 3):
        await _play_turn(server, game, turn, [ann, bob])
    assert (await server.api.game(game)).turn == 4
    log = await server.api.events(game, OPERATOR_TOKEN)
    noticed = {e.data.player_id for e in log if e.type == "player_notified.v1"}  # type: ignore[attr-defined]
    assert noticed <= {"p1", "p2"}
    for who in (cy, di, eve):
        assert not [e for e in await server.api.events(game, who) if e.type == "player_notified.v1"]
    # The source went on untouched.
    assert (await source.state()).turn == 2


async def test_a_claimant_who_leaves_before_the_start_gives_the_seat_back(
    server: Server,
) -> None:
    source = await played(server, 1)
    ann, bob, cy, di = source.accounts
    game = (await fork_of(server, source.game_id, ann, turn=2, sandbox=False))["id"]
    await _call(server, game, "claim", bob)
    left = await _call(server, game, "resign", bob)
    assert left["events"] == ["seat_declined.v1"]
    # A ban before the start keeps the seat (it plays banned), and bars a claim.
    await _call(server, game, "claim", cy)
    await server.api.admin(game, ann, "ban", player="p3")
    await server.api.admin(game, ann, "ban", player="p4")
    assert _code(await _call(server, game, "claim", di, 403)) == "banned"
    await _unlisted(server, di, game)
    state: Json = await server.api.call("GET", f"/v1/games/{game}")
    assert len(state["players"]) == 4
    assert state["claims"] == {"p1": "invited", "p2": "vacant", "p3": "claimed", "p4": "vacant"}
    await _call(server, game, "start", ann)
    started: Json = await server.api.call("GET", f"/v1/games/{game}")
    seats = {p["id"]: (p["status"], p["banned"]) for p in started["players"]}
    assert seats == {
        "p1": ("resigned", False),
        "p2": ("resigned", False),
        "p3": ("active", True),
        "p4": ("resigned", True),
    }


async def test_who_makes_which_fork_of_what(server: Server) -> None:
    """A sandbox runs at once, its admin in every seat; a real fork of a sandbox has nobody
    to invite; a waiting fork is not forked before it starts."""
    source = await played(server, 1)
    ann = source.admin
    sandbox = await fork_of(server, source.game_id, ann, turn=2)
    assert (sandbox["phase"], sandbox["claims"]) == ("running", None)
    refused = await fork_of(server, sandbox["id"], ann, 409, turn=2, sandbox=False)
    assert _code(refused) == "real_fork_of_sandbox"
    real = await fork_of(server, source.game_id, ann, turn=2, sandbox=False)
    assert _code(await fork_of(server, real["id"], ann, 409, turn=2)) == "wrong_phase"
    # A sandbox takes no claims.
    assert _code(await _call(server, sandbox["id"], "claim", source.player("Bob"), 409)) == (
        "wrong_phase"
    )
