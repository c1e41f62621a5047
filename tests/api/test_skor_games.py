"""Skor played through the real server, by its definition (rules/skor/definition.py) in the
room every such game shares (docs/skor.md, "Playing Skor on the server"): created, joined by
two, both setup choices sealed until both are in, actions in turn with their dice in the
feed, refusals, a rewind of the last action, a fork, verify, replay, and a resignation; a
draw offered and agreed, one declined and one lapsing, a resignation in the other's turn, all
by text commands as well as moves."""

from typing import Any

from projections.loading import stream_of
from rules.skor.board import NEIGHBOURS
from schema.game_events import game_codec
from server.ops.replay import replay_game
from tests.api.contracts import Recorder, answer_errors, openapi
from tests.api.support import (
    Account,
    Api,
    Live,
    Server,
    command,
    feed_of,
    joined_game,
    make_move,
    played,
    public_game,
)

Json = dict[str, Any]
DICTATORSHIP = {"culture": "dictatorship", "side": 1}
TECHNOCRACY = {"culture": "technocracy", "side": 4, "tech": "military"}


async def _skor_events(api: Api, game_id: str) -> list[Json]:
    """The game's own events of every step, in order, as the public feed shows them."""
    return played(await feed_of(api, game_id))


async def _end_turn(api: Api, game_id: str, who: Account) -> None:
    """`end`; a Dictatorship whose purge roll is 1 gives up a piece, which ends the turn."""
    await make_move(api, game_id, who, "end")
    game = (await public_game(api, game_id))["play"]["game"]
    if game["turn"].get("phase") == "purge":
        piece = next(p for p in game["pieces"] if p["player"] == game["turn"]["player"])
        await make_move(api, game_id, who, {"action": "remove", "at": piece["at"]})


async def test_skor_is_played_through_the_room(server: Server) -> None:
    api = server.api
    recorder = Recorder()
    recorder.follow(api.client)
    one, two = await api.account("one"), await api.account("two")
    body = {"name": "Skor", "game": "skor", "options": {"round_limit": 3}}
    game_id = await joined_game(api, body, (one, two))
    await api.start(game_id, one)
    seat = {"p1": one, "p2": two}
    # Who plays first is rolled at the start, before the choices: the first is a
    # Dictatorship, whose every `end` rolls a die.
    first_seat, second_seat = (await public_game(api, game_id))["play"]["setup"]["players"]
    first, second = seat[first_seat], seat[second_seat]

    view = await public_game(api, game_id)
    assert (view["game"], view["phase"], view["turn"]) == ("skor", "running", 1)
    assert view["options"] == {"round_limit": 3, "alternative_culture": False, "turn_time": 86_400}
    assert view["to_move"] == ["p1", "p2"]
    assert view["play"]["game"] is None
    started = next(e for e in await feed_of(api, game_id) if e["type"] == "play_started.v1")
    labels = [die["labels"] for die in started["setup"][0]["dice"]]
    assert labels[:3] == ["order", "terrain|A|0", "terrain|A|1"]

    # The setup's choices are sealed: the other seat, the public and a socket see none
    # before both are in.
    async with Live.open(server.base, game_id) as spectator:
        refused = await make_move(api, game_id, first, {"culture": "feudal", "side": 9}, expect=422)
        assert refused["error"]["code"] == "move_refused"
        assert (await make_move(api, game_id, first, DICTATORSHIP))["events"] == ["move_sealed.v1"]
        for reader in (second, None):
            assert all(e["type"] != "move_sealed.v1" for e in await feed_of(api, game_id, reader))
        assert (await public_game(api, game_id))["play"]["game"] is None
        both = await make_move(api, game_id, second, TECHNOCRACY)
        # The notice of the seat to move next is theirs: not in the mover's answer.
        assert both["events"] == ["move_sealed.v1", "play_recorded.v1"]
        await spectator.wait_for(
            lambda ms: any(m.get("event", {}).get("type") == "play_recorded.v1" for m in ms)
        )
        assert [e for e in spectator.events if e["type"] == "move_sealed.v1"] == []
    shown = [e["move"] for e in await feed_of(api, game_id) if e["type"] == "move_sealed.v1"]
    assert shown == [{**DICTATORSHIP, "tech": None}, TECHNOCRACY]

    game = (await public_game(api, game_id))["play"]["game"]
    assert game["players"] == [first_seat, second_seat]
    assert game["cultures"] == {first_seat: "dictatorship", second_seat: "technocracy"}
    assert game["tech"][second_seat]["military"] == 1
    assert (await public_game(api, game_id))["to_move"] == [first_seat]

    # Out of turn, unreadable, and the engine's own refusal.
    assert (await make_move(api, game_id, second, "end", expect=409))["error"]["code"] == (
        "not_your_move"
    )
    unread = await make_move(api, game_id, first, "fly A0", expect=422)
    assert (unread["error"]["code"], unread["error"]["message"]) == (
        "move_refused",
        "cannot read: fly A0",
    )
    full = await make_move(api, game_id, first, "spawn", expect=422)
    assert "already holds 2 pieces" in full["error"]["message"]

    # A civilian leaves the City for a free neighbour (text), then turns go by; every
    # `end` of the Dictatorship rolls its d2 in the open.
    city = "A0"
    free = next(
        hex_
        for hex_ in NEIGHBOURS[city]
        if game["structures"].get(hex_, {}).get("kind") != "obstruction"
    )
    moved = await make_move(api, game_id, first, f"move {city} {free}")
    assert moved["events"] == ["play_recorded.v1"]
    await _end_turn(api, game_id, first)
    await make_move(api, game_id, second, {"action": "end"})
    await make_move(api, game_id, first, "end")
    engine_events = await _skor_events(api, game_id)
    acted = [event for event in engine_events if event["type"] == "skor_acted.v1"]
    rolls = [die for event in acted for die in event["dice"]]
    assert [die["for"] for die in rolls] == ["purge"] * len(rolls)
    assert len(rolls) >= 2
    assert all(die["labels"].startswith("roll|") for die in rolls)
    assert [die["labels"].split("|")[2] for die in rolls] == ["0"] * len(rolls)

    # The last action taken back (its die seen by all): made again, it draws in generation 1.
    before = await public_game(api, game_id)
    await api.call("POST", f"/v1/games/{game_id}/admin/rewind", one, {"reason": "again"})
    rewound = await public_game(api, game_id)
    assert (rewound["turn"], rewound["to_move"]) == (before["turn"] - 1, [first_seat])
    # Its turn passes, and the other seat is told, unless the purge's d2 says otherwise.
    assert (await make_move(api, game_id, first, "end"))["events"][0] == "play_recorded.v1"
    last = [e for e in await feed_of(api, game_id) if e["type"] == "play_recorded.v1"][-1]
    assert (last["move"], last["generation"]) == ("end", 1)
    (die,) = last["events"][0]["dice"]
    assert die["labels"] == rolls[-1]["labels"].replace("|0|", "|1|")

    # A fork at the turn after the choices plays on from there.
    fork = await api.call("POST", f"/v1/games/{game_id}/fork", one, {"turn": 2}, expect=201)
    forked = await public_game(api, fork["id"])
    assert (forked["game"], forked["phase"], forked["turn"]) == ("skor", "running", 2)
    assert forked["play"]["game"]["pieces"] == game["pieces"]
    played = await api.call(
        "POST", f"/v1/games/{fork['id']}/moves", one, {"move": "end", "player": first_seat}
    )
    assert played["events"][0] == "play_recorded.v1"

    for checked in (game_id, fork["id"]):
        verified = await api.call("GET", f"/v1/games/{checked}/verify")
        assert verified["ok"] is True, str(verified)
    store = server.app.state.services.games.store
    events = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of(game_id))]
    replayed, differences = replay_game(game_id, events)
    assert differences == []
    assert replayed >= 6

    # Resigning ends the game: the other seat wins.
    await api.call("POST", f"/v1/games/{game_id}/resign", second)
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"] == {
        "by": "resignation",
        "results": {first_seat: "won", second_seat: "resigned"},
    }
    assert view["play"]["game"]["ending"] == {"winner": first_seat, "by": "resignation"}
    assert view["to_move"] == []
    assert view["secret"] is not None

    rest = openapi(await api.call("GET", "/openapi.json"))
    answers = [e for e in recorder.exchanges if e.path.startswith("/v1/")]
    errors = [error for exchange in answers for error in answer_errors(rest, exchange)]
    assert not errors, "\n".join(errors[:30])


async def _chosen(api: Api) -> tuple[str, Account, Account]:
    """A Skor game past its setup, both choices made in text: its first and second player."""
    one, two = await api.account("one"), await api.account("two")
    body = {"name": "Skor", "game": "skor", "options": {}}
    game_id = await joined_game(api, body, (one, two))
    await api.start(game_id, one)
    sealed = await command(api, game_id, one, "choose feudal 1")
    assert (sealed["ok"], sealed["result"]["events"]) == (True, ["move_sealed.v1"])
    assert sealed["reply"].startswith("Your move for turn 1 is sealed")
    both = await command(api, game_id, two, "/choose Feudal 4")
    assert both["reply"].endswith("Every move is in: turn 1 is played.")
    first_seat = (await public_game(api, game_id))["play"]["game"]["turn"]["player"]
    return game_id, *((one, two) if first_seat == "p1" else (two, one))


async def test_a_draw_agreed_in_text_ends_the_game(server: Server) -> None:
    api = server.api
    game_id, first, second = await _chosen(api)
    forms = await command(api, game_id, second, "help")
    assert "- `offer draw`: offer a draw, in your turn" in forms["reply"]
    assert "- `move A0 A4`" in forms["reply"]

    out_of_turn = await command(api, game_id, second, "offer draw")
    assert (out_of_turn["ok"], out_of_turn["reply"]) == (
        False,
        "skor waits for another seat's move",
    )
    offered = await command(api, game_id, first, "offer draw")
    assert (offered["ok"], offered["reply"]) == (True, "Played.")
    view = await public_game(api, game_id)
    first_seat = view["play"]["game"]["turn"]["player"]
    assert view["play"]["offer"] == {"by": first_seat, "turn": 1}
    refused = await make_move(api, game_id, first, {"draw": "accept"}, expect=422)
    assert refused["error"]["message"] == "there is no offer of a draw to accept"
    assert (await command(api, game_id, first, "end"))["ok"] is True

    accepted = await command(api, game_id, second, "accept draw")
    assert accepted["ok"] is True, accepted
    assert accepted["reply"] == "Played.\nThe game is over (agreement): p1 drew, p2 drew."
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"] == {"by": "agreement", "results": {"p1": "drew", "p2": "drew"}}
    assert view["play"]["game"]["ending"] == {"winner": None, "by": "agreement"}
    kinds = [e["type"] for e in await _skor_events(api, game_id)]
    assert kinds[-2:] == ["skor_acted.v1", "skor_draw_accepted.v1"]
    assert (await api.call("GET", f"/v1/games/{game_id}/verify"))["ok"] is True


async def test_an_offer_lapses_and_a_player_resigns_in_the_other_turn(server: Server) -> None:
    api = server.api
    game_id, first, second = await _chosen(api)
    first_seat = (await public_game(api, game_id))["play"]["game"]["turn"]["player"]
    second_seat = "p2" if first_seat == "p1" else "p1"
    await make_move(api, game_id, first, {"draw": "offer"})
    await make_move(api, game_id, first, "end")
    declined = await make_move(api, game_id, second, "decline draw")
    assert declined["events"] == ["play_recorded.v1"]
    assert (await public_game(api, game_id))["play"]["offer"] is None
    await make_move(api, game_id, second, "offer draw")
    await make_move(api, game_id, second, "end")
    await make_move(api, game_id, first, "end")
    # The offerer's next turn started: the offer lapsed unanswered.
    assert (await public_game(api, game_id))["play"]["offer"] is None
    lapsed = await make_move(api, game_id, second, "accept draw", expect=422)
    assert lapsed["error"]["message"] == "there is no offer of a draw to accept"

    # In the second player's turn, the first resigns (a text command, the room's own).
    assert (await public_game(api, game_id))["to_move"] == [second_seat]
    resigned = await command(api, game_id, first, "resign")
    assert resigned["ok"] is True, resigned
    view = await public_game(api, game_id)
    assert view["ending"] == {
        "by": "resignation",
        "results": {first_seat: "resigned", second_seat: "won"},
    }
    assert view["play"]["game"]["ending"] == {"winner": second_seat, "by": "resignation"}
