"""Whether a player takes notices (their `notifications`) is theirs alone: an action that makes
notices for others answers its caller the same whether or not those others take them, through
the routes and the text commands alike. Each game is played twice, the same way, once with
every player but the caller taking notices and once with them all turned off; the caller's
answers must not tell the two apart, while the recipients' feeds show that notices were made
in the first and not in the second."""

from typing import Any

from tests.api.game import ScriptedGame
from tests.api.support import (
    PAST_THE_LOCK,
    Account,
    Api,
    Server,
    command,
    feed_of,
    joined_game,
    make_move,
)

Json = dict[str, Any]


async def _quiet(api: Api, game_id: str, accounts: list[Account]) -> None:
    """Turn the notices of `accounts` off."""
    for who in accounts:
        path = f"/v1/games/{game_id}/players/me"
        await api.call("PATCH", path, who, {"notifications": False})


async def _notices(api: Api, game_id: str, who: Account) -> list[str]:
    """The kinds of the notices `who` got, in order."""
    feed = await feed_of(api, game_id, who)
    return [e["kind"] for e in feed if e["type"] == "player_notified.v1"]


async def _art_of_war(api: Api, notices: bool) -> tuple[Json, list[str]]:
    """An intrigue game of three, its admin (p1) the caller of everything that notifies: the
    start, a private message by the moves route and by text, and the last move of the turn,
    which resolves it. Its answers, and the notices the recipient (p2) got."""
    one, two, three = [await api.account(f"{name}{int(notices)}") for name in ("An", "Bo", "Cy")]
    options = {"map": "aow-mini", "intrigue": True}
    body = {"name": "Whispers", "game": "art-of-war", "options": options}
    game_id = await joined_game(api, body, [one, two, three])
    if not notices:
        await _quiet(api, game_id, [two, three])
    answers: Json = {"start": (await api.start(game_id, one)).events}
    sent = await make_move(api, game_id, one, {"message": "an alliance?", "to": "p2"})
    answers["message"] = sent["events"]
    told = await command(api, game_id, one, "tell p2 think it over")
    answers["tell"] = (told["reply"], told["result"]["events"])
    for who in (two, three):
        await make_move(api, game_id, who, "")
    answers["last move"] = (await make_move(api, game_id, one, ""))["events"]
    return answers, await _notices(api, game_id, two)


async def test_a_message_or_a_turn_tells_its_sender_nothing_of_notices(server: Server) -> None:
    api = server.api
    answers, noticed = await _art_of_war(api, notices=True)
    assert noticed == ["your_turn", "message", "message", "your_turn"]
    quiet_answers, unnoticed = await _art_of_war(api, notices=False)
    assert unnoticed == []
    assert answers == quiet_answers
    assert answers == {
        "start": ["play_started.v1"],
        "message": ["play_recorded.v1"],
        "tell": ("Sent, seen by you and p2 only.", ["play_recorded.v1"]),
        "last move": ["move_sealed.v1", "play_recorded.v1"],
    }


async def _skirmish(server: Server, notices: bool) -> tuple[Json, list[str]]:
    """The scripted game of four (tests/api/game.py), Ann its admin: her start, broadcast,
    early resolutions (by the route and by /resolve) and vote; Bob's requests to join forces
    with Cy. Their answers, and the notices Bob got."""
    game = ScriptedGame(server)
    await game.create(broadcasting=True)
    api, ann, bob = game.api, game.admin, game.player("Bob")
    for account in game.accounts:
        await api.join(game.game_id, account)
    if not notices:
        await _quiet(api, game.game_id, game.accounts[1:])
    answers: Json = {"start": (await api.start(game.game_id, ann)).events}
    answers["broadcast"] = (await api.as_(ann).broadcast(game.game_id, "peace")).events
    for turn in (1, 2):
        await game.submit(turn)
        for index, account in enumerate(game.accounts):
            if index not in (0, 3):
                await api.orders(game.game_id, account, ",", turn=turn)
        if turn == 1:
            answers["resolve"] = (await api.as_(ann).resolve(game.game_id)).events
        else:
            resolved = await command(api, game.game_id, ann, "/resolve")
            answers["/resolve"] = resolved["result"]["events"]
        server.clock.advance(PAST_THE_LOCK)
    answers["vote"] = (await api.as_(ann).vote(game.game_id, "MOBILIZE")).events
    for account in game.accounts[1:]:
        await api.as_(account).vote(game.game_id, "MOBILIZE")
    await game.submit(3)
    await game.resolve()
    answers["join forces"] = (await game.join_forces("Bob", "Cy")).events
    answers["join forces back"] = (await game.join_forces("Cy", "Bob")).events
    return answers, await _notices(api, game.game_id, bob)


async def test_skirmish_societys_answers_tell_nothing_of_notices(server: Server) -> None:
    answers, noticed = await _skirmish(server, notices=True)
    assert noticed.count("results") == 3
    quiet_answers, unnoticed = await _skirmish(server, notices=False)
    assert unnoticed == []
    assert answers == quiet_answers
    assert answers == {
        "start": ["game_started.v1"],
        "broadcast": ["message_broadcast.v1"],
        "resolve": ["turn_resolved.v1"],
        "/resolve": ["turn_resolved.v1"],
        "vote": ["vote_cast.v1"],
        "join forces": ["join_forces_requested.v1"],
        "join forces back": ["join_forces_requested.v1"],
    }
