"""The Art of War played through the real server, by its definition (rules/artofwar/definition.py):
orders sealed until the last player submits, stances public at once, the turn's battles and
draws in the feed, rewind, fork, verify, replay, and a game to its end."""

from typing import Any

from projections.loading import stream_of
from rules.artofwar.maps import builtin_board
from schema.game_events import game_codec
from server.ops.replay import replay_game
from tests.api.support import (
    Account,
    Api,
    Server,
    command,
    feed_of,
    joined_game,
    make_move,
    played,
    public_game,
)

Json = dict[str, Any]
MINI = builtin_board("aow-mini")


async def _game(api: Api, players: int, **options: Any) -> tuple[str, list[Account]]:
    """A game of the Art of War on aow-mini, created by the first account, joined by all."""
    accounts = [await api.account(f"general{n}") for n in range(1, players + 1)]
    body = {
        "name": "The Art of War",
        "game": "art-of-war",
        "options": {"map": "aow-mini", **options},
    }
    game_id = await joined_game(api, body, accounts)
    return game_id, accounts


async def _started(api: Api, players: int, **options: Any) -> tuple[str, list[Account]]:
    game_id, accounts = await _game(api, players, **options)
    await api.start(game_id, accounts[0])
    return game_id, accounts


def _attacks(play: Json, seat: str) -> str:
    """Every territory of `seat` attacks its first neighbour it does not own with all its units
    but one: every battle has defenders, so draws."""
    owners, units = play["position"]["owners"], play["position"]["units"]
    lines = []
    for territory in sorted(t for t, owner in owners.items() if owner == seat):
        targets = sorted(n for n in MINI.neighbours[territory] if owners.get(n) != seat)
        if targets and units.get(territory, 0) > 1:
            lines.append(f"{territory} {units[territory] - 1} to {targets[0]}")
    return ", ".join(lines)


async def test_orders_stay_sealed_until_the_last_player_submits(server: Server) -> None:
    api = server.api
    game_id, (one, two, three) = await _started(api, 3, initial="fill")
    view = await public_game(api, game_id)
    assert (view["game"], view["phase"], view["turn"]) == ("art-of-war", "running", 1)
    assert view["to_move"] == ["p1", "p2", "p3"]
    play = view["play"]
    assert sorted(set(play["position"]["owners"].values())) == ["p1", "p2", "p3"]

    assert view["moved"] == []
    assert (await make_move(api, game_id, one, _attacks(play, "p1")))["events"] == [
        "move_sealed.v1"
    ]
    # Who has submitted is public (§7); what, nobody else knows.
    assert (await public_game(api, game_id))["moved"] == ["p1"]
    # Several submissions (§3.4): all of them are the seat's orders, in the order sent; the
    # newest valid order per territory counts, an invalid one displaces none, and `F hold`
    # cancels F's earlier move. Refused shapes are a 422.
    first = _attacks(play, "p1")
    held, kept = (line.split()[0] for line in first.split(", ")[:2])
    again = [f"{held} hold", f"{kept} 999 to {held}"]
    await make_move(api, game_id, one, again)
    assert (await public_game(api, game_id, one))["sealed"] == {"p1": [first, *again]}
    assert (await public_game(api, game_id, two))["sealed"] == {}
    refused = await make_move(api, game_id, two, {"orders": 3}, expect=422)
    assert refused["error"]["code"] == "move_refused"
    assert [e for e in await feed_of(api, game_id, two) if e["type"] == "move_sealed.v1"] == []

    # A change of stance is public at once, and runs no turn.
    act = await make_move(api, game_id, three, {"stance": "draw", "draw_max": 3})
    assert act["events"] == ["play_recorded.v1"]
    view = await public_game(api, game_id)
    assert view["play"]["position"]["players"]["p3"]["stance"] == {"kind": "draw", "draw_max": 3}
    assert (view["turn"], view["to_move"]) == (1, ["p1", "p2", "p3"])

    await make_move(api, game_id, two, _attacks(play, "p2"))
    last = await make_move(api, game_id, three, "stance no mercy")  # free diplomacy: tightened
    assert last["events"] == ["play_recorded.v1"]
    ran = await make_move(api, game_id, three, _attacks(play, "p3"))
    # Each seat's notice that turn 2 waits for it is theirs: not in the mover's answer.
    assert ran["events"] == ["move_sealed.v1", "play_recorded.v1"]

    view = await public_game(api, game_id)
    assert (view["turn"], view["play"]["position"]["turn"]) == (2, 2)
    feed = await feed_of(api, game_id)
    shown = [e["move"] for e in feed if e["type"] == "move_sealed.v1"]
    # p1 twice (each event its new submission alone), then p2 and p3: everyone's, once run.
    assert shown[:2] == [[first], again]
    assert len(shown) == 4
    (turn,) = played(feed, "turn_run.v1")
    assert (turn["turn"], turn["generation"], len(turn["seed"])) == (1, 0, 16)
    assert turn["orders"]["p1"] == [first, *again]
    results = {
        (report["text"], report["result"])
        for report in turn["result"]["orders"]
        if report["player"] == "p1"
    }
    lines = first.split(", ")
    assert {(lines[0], "replaced"), (again[0], "held"), (again[1], "invalid")} <= results
    carried = [result for text, result in results if text in lines[1:]]
    assert len(carried) == len(lines) - 1
    assert not {"replaced", "invalid"} & set(carried)
    assert turn["result"]["battles"]
    assert turn["result"]["draws"]
    assert turn["result"]["owners"] == view["play"]["position"]["owners"]
    # The fold joins the submissions as the room did: verify and replay find no difference.
    assert (await api.call("GET", f"/v1/games/{game_id}/verify"))["ok"] is True
    store = server.app.state.services.games.store
    events = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of(game_id))]
    assert replay_game(game_id, events)[1] == []


async def test_rewind_fork_verify_and_replay(server: Server) -> None:
    api = server.api
    game_id, accounts = await _started(api, 3, initial="fill", diplomacy="binding")
    seats = ("p1", "p2", "p3")
    play = (await public_game(api, game_id))["play"]
    for seat, who in zip(seats, accounts, strict=True):
        await make_move(api, game_id, who, _attacks(play, seat))
    # The second turn: nobody orders anything (an empty submission counts, P31).
    waiting = (await public_game(api, game_id))["to_move"]
    for seat, who in zip(seats, accounts, strict=True):
        if seat in waiting:
            await make_move(api, game_id, who, [])
    await make_move(api, game_id, accounts[0], {"stance": "offer_mercy"})
    refused = await make_move(api, game_id, accounts[0], {"stance": "no_mercy"}, expect=422)
    assert "binding diplomacy" in refused["error"]["message"]
    first = played(await feed_of(api, game_id), "turn_run.v1")

    await api.call("POST", f"/v1/games/{game_id}/admin/rewind", accounts[0], {"reason": "again"})
    view = await public_game(api, game_id)
    assert (view["turn"], view["to_move"]) == (2, waiting)
    # The stance change after the rewound turn is taken back with it.
    assert view["play"]["position"]["players"]["p1"]["stance"] == {"kind": "no_mercy"}
    for seat, who in zip(seats, accounts, strict=True):
        if seat in waiting:
            await make_move(api, game_id, who, "")
    again = played(await feed_of(api, game_id), "turn_run.v1")
    # The turn ran again with fresh draws: a new generation, a new seed.
    assert (again[-1]["turn"], again[-1]["generation"]) == (2, 1)
    assert again[-1]["seed"] != first[-1]["seed"]

    fork = await api.call("POST", f"/v1/games/{game_id}/fork", accounts[0], {"turn": 2}, expect=201)
    forked = await public_game(api, fork["id"])
    assert forked["turn"] == 2
    assert forked["play"]["position"]["owners"] == first[0]["result"]["owners"]
    for checked in (game_id, fork["id"]):
        verified = await api.call("GET", f"/v1/games/{checked}/verify")
        assert verified["ok"] is True, str(verified)
    store = server.app.state.services.games.store
    events = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of(game_id))]
    replayed, differences = replay_game(game_id, events)
    assert differences == []
    assert replayed >= 3


async def test_a_game_ends_by_mercy_when_the_other_resigns(server: Server) -> None:
    api = server.api
    game_id, (one, two) = await _started(api, 2)
    await make_move(api, game_id, one, {"stance": "offer_mercy"})
    await api.call("POST", f"/v1/games/{game_id}/resign", two)
    view = await public_game(api, game_id)
    assert (view["phase"], view["to_move"]) == ("running", ["p1"])
    assert view["play"]["position"]["players"]["p2"]["stance"] == {"kind": "surrender"}
    await make_move(api, game_id, one, "")
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["ending"] == {"by": "mercy", "results": {"p1": "won", "p2": "resigned"}}
    assert view["secret"] is not None
    (turn,) = played(await feed_of(api, game_id), "turn_run.v1")
    assert turn["result"]["treaty"]["by"] == "mercy"
    assert turn["orders"] == {"p1": []}


async def test_a_start_the_map_cannot_seat_is_refused_and_bad_options_too(server: Server) -> None:
    api = server.api
    game_id, accounts = await _game(api, 5)
    refused = await api.call("POST", f"/v1/games/{game_id}/start", accounts[0], expect=422)
    assert refused["error"]["code"] == "options_refused"
    assert "cannot seat 5 players apart" in refused["error"]["message"]
    body = {"name": "Bad", "game": "art-of-war", "options": {"map": "mars"}}
    bad = await api.call("POST", "/v1/games", accounts[0], body, expect=422)
    assert bad["error"]["code"] == "options_refused"


async def test_text_commands_play_the_art_of_war(server: Server) -> None:
    api = server.api
    game_id, (one, two) = await _started(api, 2)
    owners = (await public_game(api, game_id))["play"]["position"]["owners"]
    home = {seat: territory for territory, seat in owners.items()}

    forms = await command(api, game_id, two, "/help")
    assert forms["ok"] is True
    assert "Waiting for: general1, general2." in forms["reply"]
    # The game's own standings, best first: a territory each, at the start.
    standings = forms["reply"].split("Standings:\n")[1].split("\n")[:2]
    assert [line[:3] for line in standings] == ["1. ", "2. "]
    players = sorted(line[3:].split(": ")[0] for line in standings)
    assert players == ["general1 (p1)", "general2 (p2)"]
    assert all(": territories 1, units " in line for line in standings)
    assert all(line.endswith("stance no mercy, status active") for line in standings)
    assert "- `US 3 to AK, MX hold`: orders (§3.6)" in forms["reply"]
    assert "- `tell <player> <text>`: a private message, to a name or seat" in forms["reply"]
    assert forms["result"]["game"] == "art-of-war"

    stance = await command(api, game_id, one, "stance draw 2")
    assert (stance["ok"], stance["reply"]) == (True, "Played.")
    said = await command(api, game_id, two, "say well met")
    assert said["ok"] is True
    # A text that is neither a command nor one of the game's forms is told as neither (it was
    # most likely meant as a move), with a close command if there is one.
    unknown = await command(api, game_id, one, "strat")
    assert (unknown["ok"], unknown["reply"].split("\n")) == (
        False,
        [
            "Neither a command nor one of art-of-war's moves: strat",
            "Did you mean /start?",
            "Send /help for the commands and the forms art-of-war's moves take.",
        ],
    )
    typo = await command(api, game_id, one, f"{home['p1']} 3 too AK")
    assert (typo["ok"], typo["reply"].split("\n")[0]) == (
        False,
        f"Neither a command nor one of art-of-war's moves: {home['p1']} 3 too AK",
    )
    assert "/help" in typo["reply"]
    # A room's command written wrong is still told as the command's own problem.
    assert (await command(api, game_id, one, "/start now"))["reply"].startswith(
        "/start takes nothing after it."
    )
    sealed = await command(api, game_id, one, f"{home['p1']} hold")
    assert sealed["ok"] is True
    assert sealed["reply"].startswith("Your move for turn 1 is sealed")
    assert sealed["reply"].endswith("you may send another until then.")
    # A room's command still is one: /start with an argument is refused, not an order.
    assert (await command(api, game_id, one, "/start now"))["ok"] is False
    ran = await command(api, game_id, two, f"{home['p2']} 1 -> {home['p1']}")
    assert ran["reply"].endswith("Every move is in: turn 1 is played.")

    (turn,) = played(await feed_of(api, game_id), "turn_run.v1")
    assert turn["orders"] == {
        "p1": [f"{home['p1']} hold"],
        "p2": [f"{home['p2']} 1 -> {home['p1']}"],
    }
    view = await public_game(api, game_id)
    assert view["play"]["position"]["players"]["p1"]["stance"] == {"kind": "draw", "draw_max": 2}
    resigned = await command(api, game_id, two, "resign")
    assert resigned["ok"] is True
    assert (await public_game(api, game_id))["play"]["resigned"] == ["p2"]
