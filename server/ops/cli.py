"""`skirmish ...`: the command line. Each subcommand is a thin edge over a module."""

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from server.ops.client_tools import add_parser as add_clients_parser
from server.ops.demo_tools import add_parser as add_demo_parser


def _serve(args: argparse.Namespace) -> int:
    from server.ops.serve import serve

    if args.fake_clock and args.workers not in (None, 1):
        # Each process would have a clock of its own, moved by whichever took the request.
        print("error: --fake-clock runs one process: leave --workers out", file=sys.stderr)
        return 2
    status: int = serve(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        fake_clock=args.fake_clock,
        workers=1 if args.fake_clock else args.workers,
        log_format=args.log_format,
    )
    return status


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, not {text!r}")
    return int(text)


def _rebuild(args: argparse.Namespace) -> int:
    from server.ops.rebuild import run

    def rebuild(database_url: str) -> int:
        events = run(database_url)
        print(f"rebuilt every read model from {events:,} events", file=sys.stderr)
        return 0

    return _with_database(args, rebuild)


def _replay(args: argparse.Namespace) -> int:
    from server.ops.replay import describe
    from server.ops.replay_store import run

    def replay(database_url: str) -> int:
        report = run(database_url, args.game)
        for difference in report.differences:
            print(describe(difference))
        print(
            f"replayed {report.turns:,} turns of {report.games:,} games: "
            f"{len(report.differences):,} differ",
            file=sys.stderr,
        )
        return 1 if report.differences else 0

    return _with_database(args, replay)


def _verify(args: argparse.Namespace) -> int:
    import asyncio

    from server.ops.verify import KeptMoving, describe, head_hash, verify_all

    expected_head = None
    if args.expected_head is not None:
        if args.game is None:
            print("error: --expected-head needs --game", file=sys.stderr)
            return 2
        try:
            expected_head = head_hash(args.expected_head)
        except ValueError as error:
            print(f"error: --expected-head: {error}", file=sys.stderr)
            return 2

    async def verify(database_url: str) -> int:
        games = differing = 0
        async for found in verify_all(database_url, args.game, expected_head):
            if found.events == found.archived == 0:
                print(f"error: there is no game {found.game}", file=sys.stderr)
                return 2
            print(describe(found))
            games += 1
            differing += not found.ok
        print(f"verified {games:,} games: {differing:,} differ", file=sys.stderr)
        return 1 if differing else 0

    def run(database_url: str) -> int:
        try:
            return asyncio.run(verify(database_url))
        except KeptMoving as error:
            print(f"error: {error}", file=sys.stderr)
            return 2

    return _with_database(args, run)


def _with_database(args: argparse.Namespace, use: Callable[[str], int]) -> int:
    """Run `use` with DATABASE_URL, or else the embedded PostgreSQL of --data-dir (held for
    it, started if it was not running, and stopped after unless another process, a server,
    still holds it), knowing the games of SKIRMISH_GAMES as the server does; exit 2 on bad
    settings, 1 if the database will not start."""
    import os

    import msgspec

    from server.ops.database import EmbeddedPostgres, EmbeddedPostgresError
    from server.plugins import GameNotFound, register_games
    from server.settings import Settings, SettingsError

    try:
        settings = Settings.from_env(os.environ)
        # The stored games of those it would not know otherwise are read by their rules.
        register_games(settings.games)
    except (SettingsError, GameNotFound) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.data_dir is not None:
        settings = msgspec.structs.replace(settings, data_dir=args.data_dir)
    if settings.database_url is not None:
        return use(settings.database_url)
    embedded = EmbeddedPostgres(settings.data_dir)
    try:
        return use(embedded.start())
    except EmbeddedPostgresError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        embedded.stop()


def _clients(args: argparse.Namespace) -> int:
    from server.ops.client_tools import run

    return _with_database(args, lambda database_url: run(database_url, args))


def _adjudicate(args: argparse.Namespace) -> int:
    from rules.adjudication import RequestError, adjudicate_json

    source = args.file
    try:
        data = sys.stdin.buffer.read() if source in (None, "-") else Path(source).read_bytes()
    except OSError as error:
        print(f"error: cannot read {source}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        response = adjudicate_json(data)
    except RequestError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(response + b"\n")
    return 0


def _map_generate(args: argparse.Namespace) -> int:
    from rules.skirmish.board import encode_map
    from rules.skirmish.mapgen import MapGenerationError, generate

    try:
        game_map = generate(players=args.players, map_type=args.type, seed=args.seed)
    except MapGenerationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(encode_map(game_map) + b"\n")
    return 0


def _discord(args: argparse.Namespace) -> int:
    import os

    from discord_bot.bot import run
    from discord_bot.settings import Settings, SettingsError

    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    run(settings, sync=args.sync)
    return 0


def _bot(args: argparse.Namespace) -> int:
    import asyncio

    from bots.run import play_bot

    try:
        return asyncio.run(
            play_bot(args.api, args.game, args.strategy, args.seed, args.token, args.name)
        )
    except KeyboardInterrupt:
        return 130


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the `argv` it will read, `skirmish demo`'s flags
    (which ask every game) are built only when that is the demo's."""
    parser = argparse.ArgumentParser(prog="skirmish", description="The Skirmish Society server.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the HTTP and websocket server",
        description="Run the server. With DATABASE_URL unset, an embedded PostgreSQL is "
        "started in the data directory (or the one running there adopted) and stopped on "
        "exit, unless another process still uses it.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the embedded PostgreSQL keeps its data (default: the user's data dir)",
    )
    serve.add_argument(
        "--workers",
        type=_positive,
        default=None,
        metavar="N",
        help="server processes on the one port (default: as many as the database's "
        "connections fit, one per core at most; 1 serves in this process)",
    )
    serve.add_argument(
        "--fake-clock",
        action="store_true",
        help="run on a clock that only the operator moves (POST /v1/admin/clock), to watch "
        "games resolve by themselves without waiting (in one process)",
    )
    serve.add_argument(
        "--log-format",
        choices=["text", "json"],
        default=None,
        help="json: one JSON object a line, with the request id of each request's lines "
        "(default: SKIRMISH_LOG_FORMAT, else text)",
    )
    serve.set_defaults(run=_serve)

    rebuild = commands.add_parser(
        "rebuild",
        help="rebuild every read model from the event log",
        description="Forget the read models (game list, public views, turn history) and "
        "rebuild them from the event log, with a progress bar. DATABASE_URL as for serve.",
    )
    rebuild.add_argument("--data-dir", type=Path, default=None, help="as for serve")
    rebuild.set_defaults(run=_rebuild)

    replay = commands.add_parser(
        "replay",
        help="re-adjudicate every resolved turn and show those whose outcome differs",
        description="Re-adjudicate every resolved turn of every game in the store with the "
        "engine as it is now, and print each turn whose outcome differs from the recorded "
        "one as a diff (- recorded, + now). Exit 0 when none differs, 1 otherwise. "
        "DATABASE_URL as for serve.",
    )
    replay.add_argument("--game", default=None, help="replay only this game (its id)")
    replay.add_argument("--data-dir", type=Path, default=None, help="as for serve")
    replay.set_defaults(run=_replay)

    verify = commands.add_parser(
        "verify",
        help="recompute every game's hash chain and replay its resolutions",
        description=(
            "Recompute the hash chain of every game in the store (or of --game), its archive "
            "included, and replay its resolutions through the rules engine: print what first "
            "differs, if anything; exit 0 when every game verifies, 1 otherwise, 2 for a "
            "--game that does not exist or a game that kept moving while it was read. "
            "DATABASE_URL as for serve."
        ),
    )
    verify.add_argument("--game", default=None, help="verify only this game (its id)")
    verify.add_argument(
        "--expected-head",
        default=None,
        metavar="HASH",
        help="with --game: a head seen before (a verification's head, or an event's hash "
        "in the feed), which the game's history must still hold: a tail cut shows",
    )
    verify.add_argument("--data-dir", type=Path, default=None, help="as for serve")
    verify.set_defaults(run=_verify)

    add_clients_parser(commands)
    commands.choices["clients"].set_defaults(run=_clients)

    adjudicate = commands.add_parser(
        "adjudicate",
        help="adjudicate one turn: JSON request in, JSON response out",
        description="Read an adjudication request (docs/adjudicate.md) from FILE or standard "
        "input and print the response. Exit 2 with a one-line error on a malformed request.",
    )
    adjudicate.add_argument("file", nargs="?", default=None, metavar="FILE")
    adjudicate.set_defaults(run=_adjudicate)

    discord = commands.add_parser(
        "discord",
        help="run the Discord bot",
        description="Run the Discord bot (docs/discord.md) against a running server. Needs "
        "DISCORD_TOKEN, SKIRMISH_API_URL and SKIRMISH_CLIENT_TOKEN (a trusted client's token "
        "from POST /v1/clients).",
    )
    discord.add_argument(
        "--sync",
        action="store_true",
        help="tell Discord the bot's commands even if they are those it last synced",
    )
    discord.set_defaults(run=_discord)

    bot = commands.add_parser(
        "bot",
        help="play a game with a bot",
        description="Play one game as a bot (docs/bots.md) until it ends or Ctrl-C. Without "
        "--token it creates an account (--name) and prints its token first; it joins the "
        "game unless the account has a seat in it already.",
    )
    bot.add_argument("--api", default="http://127.0.0.1:8000", help="the server's base URL")
    bot.add_argument("--game", required=True, help="the game's id")
    bot.add_argument("--strategy", choices=["random", "greedy"], default="greedy")
    bot.add_argument("--seed", type=int, default=0, help="the bot's randomness (replayable)")
    who = bot.add_mutually_exclusive_group()
    who.add_argument("--token", default=None, help="play as this account")
    who.add_argument("--name", default=None, help="the name of the account to create")
    bot.set_defaults(run=_bot)

    add_demo_parser(commands, whole=argv is None or list(argv[:1]) == ["demo"])

    maps = commands.add_parser("map", help="map tools")
    map_commands = maps.add_subparsers(dest="map_command", required=True, metavar="COMMAND")
    generate = map_commands.add_parser(
        "generate",
        help="print a generated map as JSON",
        description="Generate a map for 3 to 20 players, deterministic from the seed.",
    )
    generate.add_argument("--players", type=int, required=True, help="3 to 20")
    generate.add_argument("--type", choices=["normal", "spacious"], default="normal")
    generate.add_argument("--seed", type=int, required=True)
    generate.set_defaults(run=_map_generate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
