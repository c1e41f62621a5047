"""The Art of War's messages (P35) through the real server: public ones for everyone; in an
intrigue game private ones, seen by their sender and recipient alone, for ever, through every
read: the event feed, the websocket, every GET route (the history and the archive among
them), as another player, a spectator, an admin who plays no seat and the operator; the
recipient notified. Without intrigue a private message is a 422. Sent by the moves route
and by text commands alike; verify and replay take them."""

from typing import Any

from projections.loading import stream_of
from schema.game_events import game_codec
from server.ops.replay import replay_game
from tests.api.support import (
    OPERATOR_TOKEN,
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
from tests.api.test_no_peeking import Reader, _every_read

# Words of the private messages, which no reader but their two players may meet.
BEFORE, AFTER, REPLY = "zanzibar-parley", "quokka-accord", "wombat-whisper"


async def _started(api: Api, **options: Any) -> tuple[str, list[Account]]:
    accounts = [await api.account(f"envoy{n}") for n in range(1, 4)]
    body = {"name": "Intrigue", "game": "art-of-war", "options": {"map": "aow-mini", **options}}
    game_id = await joined_game(api, body, accounts)
    await api.start(game_id, accounts[0])
    return game_id, accounts


def _text(value: Any) -> str:
    return str(value)


async def test_private_messages_are_their_two_players_alone(server: Server) -> None:
    api = server.api
    game_id, (one, two, three) = await _started(api, intrigue=True)
    # An admin who plays no seat: a second account of the first player's.
    puppet = await api.account("puppet")
    await api.call("POST", f"/v1/games/{game_id}/admins", one, {"account": puppet.account_id})
    outsiders = [
        Reader("another player", three.token, frozenset({"p3"})),
        Reader("admin who plays no seat", puppet.token, frozenset()),
        Reader("operator", OPERATOR_TOKEN, frozenset()),
    ]
    async with (
        Live.open(server.base, game_id) as spectator,
        Live.open(server.base, game_id, token=three.token) as third,
        Live.open(server.base, game_id, token=puppet.token) as admin,
        Live.open(server.base, game_id, token=OPERATOR_TOKEN) as operator,
        Live.open(server.base, game_id, token=two.token) as recipient,
    ):
        sent = await make_move(api, game_id, one, {"message": f"ally? {BEFORE}", "to": "p2"})
        # The recipient's notice is theirs: not in the sender's answer.
        assert sent["events"] == ["play_recorded.v1"]
        said = await make_move(api, game_id, three, {"message": "peace to all"})
        assert said["events"] == ["play_recorded.v1"]
        # A private message is no turn, and no order: the turn waits for everyone still.
        view = await public_game(api, game_id)
        assert (view["turn"], view["to_move"]) == (1, ["p1", "p2", "p3"])
        replied = await command(api, game_id, two, f"tell p1 {REPLY}")
        assert replied["ok"] is True, replied
        assert replied["reply"] == "Sent, seen by you and p1 only."
        for who in (one, two, three):
            await make_move(api, game_id, who, "")
        assert (await public_game(api, game_id))["turn"] == 2
        # Sent after the last turn, then taken back by a rewind: in the archive.
        await make_move(api, game_id, one, {"message": AFTER, "to": "p2"})
        await api.call("POST", f"/v1/games/{game_id}/admin/rewind", one, {"reason": "oops"})

        last = max(e.position for e in await api.events(game_id, OPERATOR_TOKEN))
        for socket in (spectator, third, admin, operator):
            seen = await socket.wait_for_position(last)
            assert not [w for w in (BEFORE, AFTER, REPLY) if w in _text(seen)]
            assert "peace to all" in _text(seen)
        heard = await recipient.wait_for_position(last)
        assert BEFORE in _text(heard)

    for reader in outsiders:
        answers = await _every_read(server, game_id, reader)
        leaked = {
            path for path, text in answers.items() for w in (BEFORE, AFTER, REPLY) if w in text
        }
        assert leaked == set(), reader.label
    readers: list[Account | None] = [three, None]
    for reader_account in readers:
        public = played(await feed_of(api, game_id, reader_account), "message_sent.v1")
        assert public == [{"type": "message_sent.v1", "seat": "p3", "text": "peace to all"}]
    archive = await api.call("GET", f"/v1/games/{game_id}/archive", puppet)
    assert AFTER not in _text(archive)

    # The two of them read their messages; the recipient's notice is the recipient's.
    for who, notified in ((one, False), (two, True)):
        feed = await feed_of(api, game_id, who)
        assert played(feed, "message_sent.v1")[:2] == [
            {"type": "message_sent.v1", "seat": "p1", "text": f"ally? {BEFORE}", "to": "p2"},
            {"type": "message_sent.v1", "seat": "p3", "text": "peace to all"},
        ]
        assert {"type": "message_sent.v1", "seat": "p2", "text": REPLY, "to": "p1"} in (
            played(feed, "message_sent.v1")
        )
        notices = [e for e in feed if e["type"] == "player_notified.v1"]
        kinds = [(n["player_id"], n["kind"]) for n in notices]
        assert (("p2", "message") in kinds) is notified
        assert all(BEFORE not in n["text"] for n in notices)
    assert AFTER in _text(await api.call("GET", f"/v1/games/{game_id}/archive", one))

    assert (await api.call("GET", f"/v1/games/{game_id}/verify"))["ok"] is True
    store = server.app.state.services.games.store
    events = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of(game_id))]
    assert replay_game(game_id, events)[1] == []


async def test_without_intrigue_messages_are_public_only(server: Server) -> None:
    api = server.api
    game_id, (one, two, _) = await _started(api)
    refused = await make_move(api, game_id, one, {"message": "psst", "to": "p2"}, expect=422)
    assert refused["error"]["code"] == "move_refused"
    assert refused["error"]["message"] == (
        "private messages need the intrigue option: this game sends public messages only"
    )
    told = await command(api, game_id, one, "tell p2 psst")
    assert (told["ok"], told["reply"]) == (False, refused["error"]["message"])
    assert (await command(api, game_id, two, "say hello, all"))["ok"] is True
    messages = played(await feed_of(api, game_id), "message_sent.v1")
    assert messages == [{"type": "message_sent.v1", "seat": "p2", "text": "hello, all"}]


async def test_a_private_message_names_its_recipient_by_name_or_seat(server: Server) -> None:
    """Players know each other by name: `to` (and `tell`'s player) takes a player's name,
    case-insensitive, as well as a seat; the game is handed, and the log keeps, the seat."""
    api = server.api
    game_id, (one, two, three) = await _started(api, intrigue=True)
    by_name = await make_move(api, game_id, one, {"message": "by name", "to": "ENVOY2"})
    assert by_name["events"] == ["play_recorded.v1"]
    told = await command(api, game_id, three, "tell Envoy1 by text")
    assert (told["ok"], told["reply"]) == (True, "Sent, seen by you and p1 only.")
    assert (await command(api, game_id, two, "tell P3 by seat"))["ok"] is True
    mine = [e["move"] for e in await feed_of(api, game_id, one) if e["type"] == "play_recorded.v1"]
    assert mine == [{"message": "by name", "to": "p2"}, {"message": "by text", "to": "p1"}]

    # A name that is nobody's, or that could be several players' (spaces may be left out,
    # as in a Discord mention): a 422 that says which, and nothing is sent.
    unknown = await make_move(api, game_id, one, {"message": "hi", "to": "Zed"}, expect=422)
    assert unknown["error"]["code"] == "move_refused"
    assert unknown["error"]["message"] == (
        "no player called Zed in this game (players: envoy1, envoy2, envoy3)"
    )
    refused = await command(api, game_id, one, "tell nobody hi")
    assert refused == {
        "ok": False,
        "reply": "no player called nobody in this game (players: envoy1, envoy2, envoy3)",
        "result": None,
    }
    for who, name in ((two, "Ann Lee"), (three, "An nLee")):
        await api.call("PATCH", f"/v1/games/{game_id}/players/me", who, {"name": name})
    twice = await make_move(api, game_id, one, {"message": "hi", "to": "annlee"}, expect=422)
    assert twice["error"] == {
        "code": "player_ambiguous",
        "message": "annlee could be any of Ann Lee (p2), An nLee (p3): use the player id",
    }
    assert (await command(api, game_id, one, "tell AnnLee hi"))["ok"] is False
    assert (await command(api, game_id, one, "tell ann-lee hi"))["reply"].startswith(
        "no player called ann-lee"
    )
    after = [e for e in await feed_of(api, game_id, one) if e["type"] == "play_recorded.v1"]
    assert len(after) == len(mine)
    assert (await api.call("GET", f"/v1/games/{game_id}/verify"))["ok"] is True
