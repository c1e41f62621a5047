"""Skor games for the browser tests, played over HTTP."""

from typing import Any

from rules.skor.board import NEIGHBOURS, territory_of
from tests.browser.support import Player, Server

Json = dict[str, Any]


async def skor_game(server: Server) -> tuple[Player, Player]:
    """A Skor game created, joined by two and started over HTTP: the seats in turn order."""
    ann, bob = await server.sign_up(("Ann", "Bob"))
    body = {"name": "Skor in the browser", "game": "skor", "options": {"round_limit": 50}}
    first, _ = (await server.begin(body))["play"]["setup"]["players"]
    return (ann, bob) if first == ann.id else (bob, ann)


async def move(server: Server, who: Player, text: Any) -> None:
    await server.call("POST", f"/v1/games/{server.game_id}/moves", who, {"move": text})


def free_neighbour(game: Json, hex_: str) -> str:
    """A neighbour of `hex_` with no obstruction and no piece."""
    taken = {p["at"] for p in game["pieces"]}
    return next(
        n
        for n in NEIGHBOURS[hex_]
        if game["structures"].get(n, {}).get("kind") != "obstruction" and n not in taken
    )


def way_to_resource(game: Json, city: str) -> list[str]:
    """The hexes of a shortest way from `city` to the nearest Resource hex of its territory
    (without `city`), around obstructions."""
    blocked = {h for h, s in game["structures"].items() if s["kind"] == "obstruction"}
    came: dict[str, str] = {city: city}
    frontier = [city]
    while frontier:
        ahead = []
        for here in frontier:
            for near in NEIGHBOURS[here]:
                if near in came or near in blocked:
                    continue
                came[near] = here
                kind = game["structures"].get(near, {}).get("kind")
                if kind == "resource" and territory_of(near) == territory_of(city):
                    way = [near]
                    while came[way[0]] != city:
                        way.insert(0, came[way[0]])
                    return way
                ahead.append(near)
        frontier = ahead
    raise AssertionError(f"no Resource hex can be reached from {city}")
