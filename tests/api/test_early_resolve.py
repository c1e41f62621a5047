"""An admin's early resolution and the rewind, over the real server (rules.md, "Decisions
added after the second release"): an admin resolves a real game early only once every
active player has sent orders, so that resolving, reading the others' orders, rewinding and
changing one's own is no longer a way to peek; the operator resolves at once; a rewind is
public, with who did it and why."""

from typing import Any

import msgspec

from schema.views import PublicGame
from tests.api.support import (
    OPERATOR_TOKEN,
    PAST_THE_LOCK,
    Account,
    Api,
    Live,
    Server,
    command,
    data,
)

BOBS_SECRET = "zanzibar-gambit"


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _holds(game: PublicGame, player: str, extra: str = "") -> str:
    mine = sorted(t for t, owner in game.board.armies.items() if owner == player)
    return ", ".join([*(f"{t} H" for t in mine), *([extra] if extra else [])])


async def _game(api: Api) -> tuple[str, Account, Account, Account]:
    """A real game of Ann (its admin, who plays p1), Bob (p2) and Cy (p3), started."""
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game_id = (await api.new_game(ann)).id
    for account in (ann, bob, cy):
        await api.join(game_id, account)
    await api.start(game_id, ann)
    return game_id, ann, bob, cy


async def test_an_admins_early_resolution_waits_for_every_active_players_orders(
    server: Server,
) -> None:
    api = server.api
    game_id, ann, bob, cy = await _game(api)
    started = await api.game(game_id)
    resolve = f"/v1/games/{game_id}/admin/resolve"
    await api.orders(game_id, bob, _holds(started, "p2", BOBS_SECRET))
    await api.orders(game_id, ann, _holds(started, "p1"))

    # The peek: Ann, who plays, resolves early to read Bob's orders, rewinds and
    # changes hers. Cy has sent nothing, so the resolution is refused, and says how many
    # are missing, not who.
    refused = await api.call("POST", resolve, ann, expect=409)
    assert refused["error"]["code"] == "orders_missing"
    message = refused["error"]["message"]
    assert message.startswith("1 of the 3 active players has not sent orders for turn 1")
    assert not [name for name in ("Ann", "Bob", "Cy", "p1", "p2", "p3") if name in message]
    said = await command(api, game_id, ann, "/resolve")
    assert not said["ok"]
    assert said["reply"].startswith("1 of the 3 active players has not sent orders")
    assert BOBS_SECRET not in _text(await api.events(game_id, ann))
    rewind = await api.call("POST", f"/v1/games/{game_id}/admin/rewind", ann, expect=409)
    assert rewind["error"]["code"] == "nothing_to_rewind"
    assert (await api.game(game_id)).turn == 1

    # Cy says "ready" with an empty submission: now everyone's orders are in.
    await api.orders(game_id, cy, ",")
    await api.call("POST", resolve, ann)
    game = await api.game(game_id)
    assert game.turn == 2

    # The operator resolves at once, with nobody's orders in.
    server.clock.advance(PAST_THE_LOCK)
    await api.call("POST", resolve, OPERATOR_TOKEN)
    assert (await api.game(game_id)).turn == 3


async def test_a_rewind_is_shown_to_everyone_with_who_did_it_and_why(server: Server) -> None:
    api = server.api
    game_id, ann, bob, _ = await _game(api)
    await api.call("POST", f"/v1/games/{game_id}/admin/resolve", OPERATOR_TOKEN)
    server.clock.advance(PAST_THE_LOCK)
    async with Live.open(server.base, game_id, headers=bob.auth) as bobs:
        done = await api.admin(game_id, ann, "rewind", reason="a misclick on turn one")
        messages = await bobs.wait_for_position(done.position)
    for reader in (bob, None, OPERATOR_TOKEN):
        (rewound,) = [e for e in await api.events(game_id, reader) if e.type == "turn_rewound.v1"]
        assert (data(rewound)["by"], data(rewound)["reason"]) == (
            ann.account_id,
            "a misclick on turn one",
        )
    (event,) = [m["event"] for m in messages if m["type"] == "event"][-1:]
    assert event["type"] == "turn_rewound.v1"
    assert (event["data"]["by"], event["data"]["reason"]) == (
        ann.account_id,
        "a misclick on turn one",
    )
    (message,) = [m for m in messages if m["type"] == "rewound"]
    assert (message["turn"], message["by"], message["reason"]) == (
        1,
        ann.account_id,
        "a misclick on turn one",
    )

    # By text command, and without a reason; a reason is bounded.
    await api.call("POST", f"/v1/games/{game_id}/admin/resolve", OPERATOR_TOKEN)
    server.clock.advance(PAST_THE_LOCK)
    too_long = await api.call(
        "POST", f"/v1/games/{game_id}/admin/rewind", ann, {"reason": "x" * 501}, expect=422
    )
    assert too_long["error"]["code"] == "invalid_body"
    assert "length <= 500" in too_long["error"]["message"]
    said = await command(api, game_id, ann, "/rewind " + "x" * 501)
    assert not said["ok"]
    assert "too long" in said["reply"]
    said = await command(api, game_id, ann, "/rewind")
    assert said["ok"], said["reply"]
    rewinds = [e for e in await api.events(game_id, bob) if e.type == "turn_rewound.v1"]
    assert [(data(e)["by"], data(e)["reason"]) for e in rewinds] == [
        (ann.account_id, "a misclick on turn one"),
        (ann.account_id, None),
    ]
