"""Nobody peeks (rules.md, "Decisions added after the second release"): in a real game no
one but its owner reads a private event before the turn resolves: not an admin who plays,
not an admin who plays no seat (a sock puppet of a player), not the operator. Every read
route of the app, the event feed and the websocket are checked for every private event type
across one turn; what the resolution makes public is public after it."""

from collections.abc import Iterable
from typing import Any

import msgspec

from schema.api import FeedEvent
from tests.api.game import ScriptedGame
from tests.api.routes import every_route
from tests.api.support import OPERATOR_TOKEN, Account, Json, Live, Server, data

PLAYERS = ("p1", "p2", "p3", "p4")
# Private until the resolution; the resolution makes the first two public.
REVEALED = {"orders_submitted.v1", "join_forces_requested.v1"}
STAY_PRIVATE = {"vote_cast.v1", "player_notified.v1"}
PRIVATE = REVEALED | STAY_PRIVATE
# Words in the others' orders that nobody but their player reads before the resolution.
SECRET_WORDS = {"p2": "zanzibar-gambit", "p3": "quokka-feint", "p4": "wombat-sally"}


class Reader(msgspec.Struct, frozen=True):
    label: str
    token: str
    # The seats the reader plays: their own private events are theirs to read.
    seats: frozenset[str]


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _owners(event: Json) -> set[str]:
    """The players a private event belongs to: its sender, and for a join-forces request,
    the player asked."""
    fields = event.get("data", event)
    return {fields["player_id"], *([fields["with_player"]] if "with_player" in fields else [])}


def _others_private(events: Iterable[Json], reader: Reader, kinds: set[str]) -> list[Json]:
    return [e for e in events if e["type"] in kinds and not _owners(e) & reader.seats]


def _feed(events: list[FeedEvent]) -> list[Json]:
    return [{"type": e.type, "data": data(e)} for e in events]


async def _every_read(server: Server, game_id: str, reader: Reader) -> dict[str, str]:
    """The answer of every GET route of the app, as the reader: each `player` a route takes
    in its query asked for every seat, `map.png` of the turn in play too."""
    answers: dict[str, str] = {}
    client = server.api.client
    headers = {"Authorization": f"Bearer {reader.token}"}
    # The turn in play (4) as well as a resolved one, wherever a route takes a turn.
    routes = {call for turn in ("1", "4") for call in every_route(server, game_id, {"turn": turn})}
    for method, path in sorted(routes):
        if method != "GET":
            continue
        paths = [path]
        if path.endswith("/orders"):
            paths += [f"{path}?player={p}" for p in PLAYERS]
        if path.endswith("/map.png"):
            paths.append(f"{path}?turn=4")
        for asked in paths:
            response = await client.get(asked, headers=headers)
            assert response.status_code < 500, (asked, response.status_code, response.text)
            answers[asked] = response.content.decode("utf-8", "replace")
    return answers


async def _turn_four(game: ScriptedGame) -> dict[str, str]:
    """The scripted game up to turn 4 under same-day votes, then its every private event:
    orders from everyone, a same-day ballot from everyone, Bob's request to join forces with
    Cy, and the reminders. The nonces of the others' submissions, by player."""
    api, game_id = game.api, game.game_id
    await game.join_and_start()
    for turn in (1, 2, 3):
        await game.submit(turn)
        if turn == 3:
            await _vote_all(game)
        await game.resolve()
    await game.join_forces("Bob", "Cy")
    nonces = {}
    for index, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        seat = f"p{index + 1}"
        words = SECRET_WORDS.get(seat, "anns-own-words")
        accepted = await api.orders(game_id, game.player(name), f"EA F, {words}", turn=4)
        nonces[seat] = accepted.nonce
    await _vote_all(game)
    # The reminders go out three minutes before the resolution: step to one minute before.
    state = await game.state()
    assert state.next_resolution_at is not None
    assert state.now is not None
    ahead = (state.next_resolution_at - state.now).total_seconds() - 60
    await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": ahead})
    return nonces


async def _vote_all(game: ScriptedGame) -> None:
    vote = (await game.state()).vote
    assert vote is not None
    await game.vote_all(vote.candidates[0])


def _leaks(text: str, reader: Reader, nonces: dict[str, str], *, of_game: bool = True) -> list[str]:
    """The others' secrets in `text`; in an answer about the game (not a schema, say), the
    private event types the reader has none of, which no earlier turn made public, too."""
    secrets = [w for seat, w in SECRET_WORDS.items() if seat not in reader.seats]
    secrets += [n for seat, n in nonces.items() if seat not in reader.seats]
    if of_game:
        # Bob's request to join forces with Cy is theirs alone (none of the readers is
        # either), and the notices and same-day ballots of the others stay theirs; the
        # earlier turns' submissions are public, this turn's are told by their words.
        secrets.append("join_forces_requested")
        if not reader.seats:
            secrets += sorted(STAY_PRIVATE)
    return [s for s in secrets if s in text]


async def test_no_admin_nor_the_operator_reads_a_private_event_before_the_resolution(
    server: Server,
) -> None:
    api = server.api
    game = ScriptedGame(server)
    await game.create(voting_mode="same_day", votes="every_turn")
    ann = game.admin
    # Ann's second account, made an admin: it plays no seat.
    puppet: Account = await api.account("Alt")
    path = f"/v1/games/{game.game_id}/admins"
    await api.call("POST", path, ann, {"account": puppet.account_id})
    readers = [
        Reader("sock puppet", puppet.token, frozenset()),
        Reader("admin who plays", ann.token, frozenset({"p1"})),
        Reader("operator", OPERATOR_TOKEN, frozenset()),
    ]
    sockets = {}
    async with (
        Live.open(server.base, game.game_id, token=puppet.token) as sockets["sock puppet"],
        Live.open(server.base, game.game_id, token=ann.token) as sockets["admin who plays"],
        Live.open(server.base, game.game_id, token=OPERATOR_TOKEN) as sockets["operator"],
    ):
        nonces = await _turn_four(game)
        # Every private event type is in the log, each for its owner.
        owned = _feed(await api.events(game.game_id, game.player("Cy")))
        assert {e["type"] for e in owned if e["type"] in PRIVATE} == PRIVATE
        last = max(e.position for e in await api.events(game.game_id, OPERATOR_TOKEN))

        for reader in readers:
            answers = await _every_read(server, game.game_id, reader)
            assert len(answers) > 15
            leaked = {
                path: found
                for path, text in answers.items()
                if (
                    found := _leaks(
                        text, reader, nonces, of_game=f"/v1/games/{game.game_id}" in path
                    )
                )
            }
            assert leaked == {}, reader.label
            feed = _feed(await api.events(game.game_id, reader.token))
            # The earlier turns' submissions are public: they resolved.
            this_turn = [e for e in feed if e["data"].get("turn") == 4]
            assert _others_private(this_turn, reader, PRIVATE) == [], reader.label
            assert _others_private(feed, reader, STAY_PRIVATE) == [], reader.label
            socket = await sockets[reader.label].wait_for_position(last)
            events = [m["event"] for m in socket if m["type"] == "event"]
            assert _others_private(events, reader, PRIVATE) == [], reader.label
            assert not _leaks(_text(socket), reader, nonces), reader.label
        # Ann sees her own, as any player does.
        anns = _feed(await api.events(game.game_id, ann))
        assert {e["type"] for e in anns if e["type"] in PRIVATE} == PRIVATE - {
            "join_forces_requested.v1"
        }

        # The operator may resolve at once; then the resolution's reveals are public.
        server.clock.advance(60)
        await api.admin(game.game_id, OPERATOR_TOKEN, "resolve")
        for reader in readers:
            feed = _feed(await api.events(game.game_id, reader.token))
            revealed = _others_private(feed, reader, REVEALED)
            turn_four = [e for e in revealed if e["data"]["turn"] == 4]
            assert {e["data"]["player_id"] for e in turn_four if "nonce" in e["data"]} >= {
                "p2",
                "p3",
                "p4",
            }
            hidden_before = {n for seat, n in nonces.items() if seat not in reader.seats}
            assert {e["data"].get("nonce") for e in turn_four} >= hidden_before
            requests = [e["data"] for e in turn_four if e["type"] == "join_forces_requested.v1"]
            asked = {"player_id": "p2", "with_player": "p3", "turn": 4}
            assert requests == [{"type": "join_forces_requested.v1", **asked}]
            assert _others_private(feed, reader, STAY_PRIVATE) == [], reader.label
            socket = await sockets[reader.label].wait_for(
                lambda ms: any(m["type"] == "resolved" and m["turn"] == 4 for m in ms)
            )
            events = [m["event"] for m in socket if m["type"] == "event"]
            assert any(e["type"] == "turn_resolved.v1" for e in events)
            # A socket sends each event as it was when it happened: nothing revealed later.
            assert _others_private(events, reader, PRIVATE) == [], reader.label


async def test_join_forces_requests_are_seen_by_both_players_before_the_resolution(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    for turn in (1, 2, 3):
        await game.submit(turn)
        await game.resolve()
    await game.join_forces("Bob", "Cy")
    for name, sees in (("Bob", True), ("Cy", True), ("Di", False), ("Ann", False)):
        feed = _feed(await game.api.events(game.game_id, game.player(name)))
        requests = [e for e in feed if e["type"] == "join_forces_requested.v1"]
        assert bool(requests) is sees, name
    assert not [
        e for e in await game.api.events(game.game_id) if e.type == "join_forces_requested.v1"
    ]
