"""The standings of a game run by its definition, through the real server (rules/game.py
`Ranked`): the public game's `players` and the socket's `standings` message, pushed after
every step, in the game's order with its own columns (`standing`), whose turn it is
(`to_move`) and, where the game makes it public, who has moved (`moved`): the Art of War's
territories, units, stances and submitted flags, Skor's cultures, pieces and Resource."""

from typing import Any

from tests.api.support import Account, Api, Live, Server, joined_game, make_move, public_game

Json = dict[str, Any]


def _standings(live: Live) -> list[Json]:
    """The last `standings` message's rows."""
    rows: list[Json] = live.of_type("standings")[-1]["standings"]
    return rows


async def _pushed(live: Live, since: int, condition: Any) -> list[Json]:
    """The rows of the first `standings` message after the first `since` that satisfies
    `condition`."""

    def found() -> list[Json] | None:
        pushed = live.of_type("standings")[since:]
        return next((m["standings"] for m in pushed if condition(m["standings"])), None)

    await live.wait_for(lambda _: found() is not None)
    rows = found()
    assert rows is not None
    return rows


async def _started(api: Api, game: str, players: int, **options: Any) -> tuple[str, list[Account]]:
    accounts = [await api.account(f"{game}{n}") for n in range(1, players + 1)]
    body = {"name": game, "game": game, "options": options}
    game_id = await joined_game(api, body, accounts)
    await api.start(game_id, accounts[0])
    return game_id, accounts


def _owned(play: Json, seat: str) -> tuple[int, int]:
    position = play["position"]
    held = [t for t, owner in position["owners"].items() if owner == seat]
    return len(held), sum(position["units"].get(t, 0) for t in held)


async def test_the_art_of_war_shows_territories_units_stances_and_who_has_submitted(
    server: Server,
) -> None:
    api = server.api
    game_id, (one, two, three) = await _started(
        api, "art-of-war", 3, map="aow-mini", initial="fill"
    )
    view = await public_game(api, game_id)
    async with Live.open(server.base, game_id) as spectator:
        await spectator.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        rows = _standings(spectator)
        # The same rows as the public game's players, in the game's order: most territories
        # first, then most units.
        assert rows == view["players"]
        ranked = [(-r["standing"]["territories"], -r["standing"]["units"]) for r in rows]
        assert ranked == sorted(ranked)
        for row in rows:
            territories, units = _owned(view["play"], row["id"])
            assert row["standing"] == {
                "territories": territories,
                "units": units,
                "stance": "no mercy",
                "status": "active",
            }
            assert (row["to_move"], row["moved"]) == (True, False)
            # Skirmish Society's columns say nothing here.
            assert (row["vp"], row["territories"], row["armies"]) == (0, 0, 0)

        # Who has submitted is public (§7): pushed as it happens, the orders not.
        since = len(spectator.of_type("standings"))
        await make_move(api, game_id, one, "")
        rows = await _pushed(spectator, since, lambda rs: any(r["moved"] for r in rs))
        assert {r["id"]: r["moved"] for r in rows} == {"p1": True, "p2": False, "p3": False}
        # A stance is public at once.
        since = len(spectator.of_type("standings"))
        await make_move(api, game_id, three, "stance draw 3")
        rows = await _pushed(
            spectator, since, lambda rs: any(r["standing"]["stance"] == "draw (3)" for r in rs)
        )
        assert {r["id"]: r["standing"]["stance"] for r in rows}["p3"] == "draw (3)"

        # The last submission runs the turn: the new turn waits for everyone again.
        since = len(spectator.of_type("standings"))
        await make_move(api, game_id, two, "")
        await make_move(api, game_id, three, "")
        view = await public_game(api, game_id)
        assert view["turn"] == 2
        rows = await _pushed(spectator, since, lambda rs: not any(r["moved"] for r in rs))
        assert rows == view["players"]

        # A player that resigns surrenders and stands after those still playing.
        since = len(spectator.of_type("standings"))
        await api.call("POST", f"/v1/games/{game_id}/resign", one)
        rows = await _pushed(spectator, since, lambda rs: rs[-1]["status"] == "resigned")
        assert rows[-1]["id"] == "p1"
        assert rows[-1]["standing"]["status"] == "resigned"
        assert rows[-1]["standing"]["stance"] == "surrender"
        assert (rows[-1]["status"], rows[-1]["to_move"]) == ("resigned", False)
        assert "moved" not in rows[-1]


async def test_skor_shows_cultures_pieces_and_resource_and_whose_turn_it_is(
    server: Server,
) -> None:
    api = server.api
    game_id, accounts = await _started(api, "skor", 2)
    seat = dict(zip(("p1", "p2"), accounts, strict=True))
    view = await public_game(api, game_id)
    first, second = view["play"]["setup"]["players"]
    async with Live.open(server.base, game_id) as spectator:
        await spectator.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        rows = _standings(spectator)
        assert rows == view["players"]
        # A plays first; both choose, in secret: neither culture is known, nor who chose.
        assert [(r["id"], r["standing"]["territory"]) for r in rows] == [
            (first, "A"),
            (second, "B"),
        ]
        assert [r["standing"]["culture"] for r in rows] == [None, None]
        assert all(r["to_move"] and "moved" not in r for r in rows)

        since = len(spectator.of_type("standings"))
        await make_move(api, game_id, seat[first], {"culture": "feudal", "side": 1})
        assert (await public_game(api, game_id))["players"] == rows
        await make_move(api, game_id, seat[second], {"culture": "dictatorship", "side": 2})
        rows = await _pushed(spectator, since, lambda rs: rs[0]["standing"]["culture"] is not None)
        # The first choice pushed nothing: the next standings are those of both choices.
        assert spectator.of_type("standings")[since]["standings"] == rows
        game = (await public_game(api, game_id))["play"]["game"]
        assert [(r["standing"]["culture"], r["to_move"]) for r in rows] == [
            ("feudal", True),
            ("dictatorship", False),
        ]
        for row in rows:
            kinds = [p["kind"] for p in game["pieces"] if p["player"] == row["id"]]
            assert (row["standing"]["civilians"], row["standing"]["military"]) == (
                kinds.count("civilian"),
                kinds.count("military"),
            )
            assert row["standing"]["status"] == "active"
        assert rows[0]["standing"]["available"] == game["turn"].get("available", 0)
        assert rows[1]["standing"]["available"] == 0

        # The turn passes on after `end` (a Feudal player has no purge).
        since = len(spectator.of_type("standings"))
        await make_move(api, game_id, seat[first], "end")
        rows = await _pushed(spectator, since, lambda rs: rs[1]["to_move"])
        assert [r["to_move"] for r in rows] == [False, True]

        # A resignation: the winner stands first.
        since = len(spectator.of_type("standings"))
        await api.call("POST", f"/v1/games/{game_id}/resign", seat[first])
        rows = await _pushed(spectator, since, lambda rs: rs[0]["id"] == second)
        assert [(r["id"], r["standing"]["status"], r["to_move"]) for r in rows] == [
            (second, "won", False),
            (first, "resigned", False),
        ]
        assert (await public_game(api, game_id))["players"] == rows
