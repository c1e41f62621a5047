"""The clocks of games run by their definition, through a real server on a fake clock
(POST /v1/admin/clock, whose scheduler times out what falls due): an Art of War turn runs at
its deadline without the missing orders, Skor's turns time out and the third in a row
forfeits, a paused game's clock stands still, and "your turn" reaches the player's socket and
the game's webhook."""

import json
from datetime import datetime, timedelta

from tests.api.clocks import advance, choose, deadline_of, hooked_skor, started, steps
from tests.api.support import START, Live, Server, feed_of, make_move, public_game, until


async def test_an_art_of_war_turn_runs_at_its_deadline_without_the_missing_orders(
    server: Server,
) -> None:
    api = server.api
    game_id, (one, _, _) = await started(api, "art-of-war", 3, map="aow-mini", deadline=3_600)
    assert deadline_of(await public_game(api, game_id)) == START + timedelta(hours=1)
    await make_move(api, game_id, one, "")
    await advance(api, 3_599)
    assert (await public_game(api, game_id))["turn"] == 1
    await advance(api, 1)
    view = await public_game(api, game_id)
    assert (view["turn"], view["to_move"]) == (2, ["p1", "p2", "p3"])
    assert deadline_of(view) == START + timedelta(hours=2)
    (step,) = steps(await feed_of(api, game_id))
    assert (step["kind"], step["player_id"], step["turn"]) == ("timeout", None, 1)
    # p1's empty submission counts; p2 and p3 sent none: they gave no orders.
    assert step["events"][0]["orders"] == {"p1": []}
    verified = await api.call("GET", f"/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified


async def test_skor_turns_time_out_and_the_third_in_a_row_forfeits(server: Server) -> None:
    api = server.api
    game_id, accounts = await started(api, "skor", 2, turn_time=600)
    # The setup's choices wait for ever.
    assert deadline_of(await public_game(api, game_id)) is None
    await choose(api, game_id, accounts)
    view = await public_game(api, game_id)
    first_seat, second_seat = view["play"]["game"]["players"]
    timed_out = []
    for turn in range(1, 5):
        await advance(api, 600)
        game = (await public_game(api, game_id))["play"]["game"]
        assert game["turn"]["number"] == turn + 1
        timed_out.append(steps(await feed_of(api, game_id))[-1]["player_id"])
    assert timed_out == [first_seat, second_seat] * 2
    await advance(api, 600)
    view = await public_game(api, game_id)
    assert view["phase"] == "finished"
    assert view["play"]["game"]["ending"] == {"winner": second_seat, "by": "forfeit"}
    assert deadline_of(view) is None
    last = steps(await feed_of(api, game_id))[-1]
    assert (last["kind"], last["player_id"]) == ("timeout", first_seat)
    assert last["events"][0]["forfeited"] is True
    verified = await api.call("GET", f"/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified


async def test_a_move_of_the_player_starts_its_count_of_timeouts_again(server: Server) -> None:
    api = server.api
    game_id, accounts = await started(api, "skor", 2, turn_time=600)
    first, second = await choose(api, game_id, accounts)
    first_seat = (await public_game(api, game_id))["play"]["game"]["players"][0]
    for _ in range(2):
        await advance(api, 600)
        await make_move(api, game_id, second, "end")
    assert (await public_game(api, game_id))["play"]["timeouts"][first_seat] == 2
    await make_move(api, game_id, first, "end")
    await make_move(api, game_id, second, "end")
    await advance(api, 600)
    # Two timeouts, a move, a timeout: not three in a row.
    view = await public_game(api, game_id)
    assert view["phase"] == "running"
    assert view["play"]["timeouts"][first_seat] == 1


async def test_a_paused_games_clock_stands_still(server: Server) -> None:
    api = server.api
    game_id, (admin, _) = await started(api, "art-of-war", 2, map="aow-mini", deadline=3_600)
    await advance(api, 1_200)
    await api.call("POST", f"/v1/games/{game_id}/admin/pause", admin)
    assert deadline_of(await public_game(api, game_id)) is None
    await advance(api, 7_200)
    assert (await public_game(api, game_id))["turn"] == 1
    await api.call("POST", f"/v1/games/{game_id}/admin/unpause", admin)
    # 40 minutes were left when it paused: they are left now.
    resumed = START + timedelta(seconds=8_400)
    assert deadline_of(await public_game(api, game_id)) == resumed + timedelta(minutes=40)
    await advance(api, 2_399)
    assert (await public_game(api, game_id))["turn"] == 1
    await advance(api, 1)
    assert (await public_game(api, game_id))["turn"] == 2


async def test_your_turn_reaches_the_players_socket_and_the_webhook(schema_url: str) -> None:
    async with hooked_skor(schema_url) as game:
        server, receiver, game_id = game.server, game.receiver, game.game_id
        api, first, second = server.api, game.first, game.second
        seat_of = {game.accounts[0].token: "p1", game.accounts[1].token: "p2"}
        async with (
            Live.open(server.base, game_id, token=second.token) as mine,
            Live.open(server.base, game_id, token=first.token) as theirs,
        ):
            # Caught up before the move: a catch-up tells the deadline as the game stands then.
            await mine.wait_for(lambda ms: any(m["type"] == "your_turn" for m in ms))
            await make_move(api, game_id, first, "end")
            messages = await mine.wait_for(
                lambda ms: any(m["type"] == "your_turn" and m["turn"] == 3 for m in ms)
            )
            # The start's (the choices), caught up: the game waits for another now: no deadline.
            caught_up, told = [m for m in messages if m["type"] == "your_turn"]
            assert (caught_up["turn"], caught_up["deadline"]) == (1, None)
            assert (told["player_id"], told["turn"]) == (seat_of[second.token], 3)
            deadline = START + timedelta(seconds=600)
            assert datetime.fromisoformat(told["deadline"]) == deadline
            notice = next(
                e
                for e in mine.events
                if e["type"] == "player_notified.v1"
                and e["data"]["kind"] == "your_turn"
                and e["data"]["turn"] == 3
            )
            assert "it is your turn, until 2030-03-04 08:10 UTC" in notice["data"]["text"]
            # Nobody else is told on their socket: they see the step, not the notice after it.
            await theirs.wait_for_position(told["position"] - 1)
            assert [m for m in theirs.messages if m["type"] == "your_turn"][-1]["turn"] == 2

        def after_the_choices() -> list[tuple[str, int]]:
            """Who each your-turn delivery after the choices tells, and of which turn."""
            bodies = [json.loads(body) for _, body in receiver.received]
            return [
                (b["recipients"][0]["account_id"], b["event"]["turn"])
                for b in bodies
                if b["event"].get("kind") == "your_turn" and b["event"]["turn"] > 1
            ]

        await until(lambda: len(after_the_choices()) == 2, what="the your-turn notices delivered")
        # By turn: a game's deliveries go out several at a time (docs/api.md, "Concurrency"),
        # so they may arrive in either order.
        delivered = sorted(after_the_choices(), key=lambda delivery: delivery[1])
        assert delivered == [(first.account_id, 2), (second.account_id, 3)]


async def test_an_admin_changes_the_settings_of_every_game(server: Server) -> None:
    """Broadcasting and fast mode are the room's, whatever the game: a game run by its
    definition takes them as Skirmish Society does."""
    api = server.api
    for game, options in (("art-of-war", {"map": "aow-mini"}), ("skor", {})):
        game_id, (admin, *_) = await started(api, game, 2, **options)
        body = {"broadcasting": False, "fast_mode": True}
        await api.call("PATCH", f"/v1/games/{game_id}/settings", admin, body, expect=200)
        settings = (await public_game(api, game_id))["settings"]
        assert (settings["broadcasting"], settings["fast_mode"]) == (False, True)
