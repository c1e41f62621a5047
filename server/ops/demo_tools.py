"""`skirmish demo`: a game of bots on a server of its own (bots/run.py, docs/bots.md), its
games, their flags and their pace as each game says (`Demoed`, rules/house.py; bots.games)."""

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.house import DemoFlag


def _demo(args: argparse.Namespace) -> int:
    import asyncio
    from dataclasses import replace

    from bots.games import demo_games
    from bots.run import Demo, default_demo_dir, run_demo, seat_range
    from client import ApiError

    demo = Demo(
        game=args.game,
        turn_seconds=args.turn_seconds
        if args.turn_seconds is not None
        else demo_games()[args.game],
        seed=args.seed,
        vp_target=args.vp,
        flags={flag.name: getattr(args, flag.name) for flag in _demo_flags(args.game)},
    )
    try:
        fewest, most = seat_range(demo)
    except ValueError as error:  # the game's OptionsRefused: its reason
        print(f"error: {error}", file=sys.stderr)
        return 2
    players = args.players if args.players is not None else min(4, most)
    if not fewest <= players <= most:
        seated = str(most) if fewest == most else f"{fewest} to {most}"
        print(f"error: {args.game} is played by {seated} players", file=sys.stderr)
        return 2
    data_dir = args.data_dir or default_demo_dir()
    try:
        return asyncio.run(run_demo(replace(demo, players=players), args.port, data_dir))
    except KeyboardInterrupt:
        return 130
    except (RuntimeError, ApiError) as error:  # ApiError: a game the server would not start
        print(f"error: {error}", file=sys.stderr)
        return 1


def _demo_flags(game: str) -> "tuple[DemoFlag, ...]":
    """The game's own flags of `skirmish demo`, as its definition says (`Demoed`)."""
    from rules.house import Demoed
    from rules.registry import definitions

    rules = definitions().get(game)
    return rules.demo_flags if isinstance(rules, Demoed) else ()


_HELP = "watch a game of bots on a server of its own"


def add_parser(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]", *, whole: bool = True
) -> None:
    """`skirmish demo`, with each game's own flags, as the games say (docs/bots.md). Not
    `whole`: its line in `skirmish --help` only, for a command line that is not the demo's,
    so that other commands start without loading every game and its bots."""
    if not whole:
        commands.add_parser("demo", help=_HELP)
        return
    from bots.games import SKIRMISH_TURN_SECONDS, demo_games
    from rules.registry import DEFAULT_GAME

    paces = demo_games()
    demo = commands.add_parser(
        "demo",
        help=_HELP,
        description="Start a server on a fake clock (embedded PostgreSQL in its own data "
        "directory unless DATABASE_URL), a game of bots on it (random and greedy by turns), "
        "and print where to watch it. Skirmish Society (the default) plays fast mode, the "
        "clock moved a turn every --turn-seconds; every other game plays through its "
        "moves, each bot waiting --turn-seconds before each of its steps (docs/bots.md).",
    )
    demo.add_argument(
        "--game",
        choices=list(paces),
        default=DEFAULT_GAME,
        help="the game the bots play (default: skirmish-society)",
    )
    demo.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="bots: 4 by default, or as many as the game seats if fewer; a number it does "
        "not seat is refused, saying how many it does",
    )
    demo.add_argument("--port", type=int, default=8000, help="port to listen on")
    others = ", ".join(f"{game} {pace:g}" for game, pace in paces.items() if game != DEFAULT_GAME)
    demo.add_argument(
        "--turn-seconds",
        type=float,
        default=None,
        help=f"real seconds a Skirmish Society turn ({SKIRMISH_TURN_SECONDS:g}), or before "
        f"each bot's step in another game ({others})",
    )
    demo.add_argument("--seed", type=int, default=0, help="the map's and the bots' seed")
    demo.add_argument("--vp", type=int, default=10, help="Skirmish Society's VP target, 1 to 50")
    for game in paces:
        for flag in _demo_flags(game):
            bounds = f", {flag.bounds[0]} to {flag.bounds[1]}" if flag.bounds else ""
            demo.add_argument(
                "--" + flag.name.replace("_", "-"),
                type=type(flag.default),
                choices=flag.choices or None,
                default=flag.default,
                help=f"{flag.help}{bounds} (default {flag.default})",
            )
    demo.add_argument("--data-dir", type=Path, default=None, help="the demo's embedded PostgreSQL")
    demo.set_defaults(run=_demo)
