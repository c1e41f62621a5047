"""`skirmish clients list|create|rotate|revoke`: the operator's trusted clients from the
command line, on the database itself (DATABASE_URL, or the embedded PostgreSQL of
--data-dir, as for `verify`), through the same code as the API's calls
(server/accounts/trusted_clients.py): a rotation or revocation closes the sockets opened with the
old token in every running server. A token made is printed alone on standard output (to
capture it), everything else on standard error."""

import argparse
import asyncio
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from server.accounts.trusted_clients import TrustedClients

# The columns of `skirmish clients list`.
_HEADER = ("CLIENT", "NAME", "CREATED", "ROTATED", "REVOKED", "USERS")


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """`skirmish clients` and its commands; each sets `clients_command`."""
    clients = commands.add_parser(
        "clients",
        help="list, create, rotate and revoke trusted clients (operator)",
        description="The trusted clients (bots acting for their users: docs/api.md, "
        '"Trusted clients"), on the database itself. DATABASE_URL as for serve. A new '
        "token is printed alone on standard output, once.",
    )
    # Each command takes it, after its own arguments or before them.
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument("--data-dir", type=Path, default=None, help="as for serve")
    actions = clients.add_subparsers(dest="clients_command", required=True, metavar="COMMAND")
    actions.add_parser(
        "list", parents=[database], help="every client, revoked ones too (never a token)"
    )
    create = actions.add_parser("create", parents=[database], help="a new client; prints its token")
    create.add_argument("name", help="one line of at most 32 characters")
    rotate = actions.add_parser(
        "rotate",
        parents=[database],
        help="a new token for the same client (its users keep their accounts and seats); "
        "the old one stops working and its sockets close; prints the new token",
    )
    rotate.add_argument("client_id")
    revoke = actions.add_parser(
        "revoke",
        parents=[database],
        help="take the client's token away (its sockets close); `rotate` gives it a new one",
    )
    revoke.add_argument("client_id")


def run(database_url: str, args: argparse.Namespace) -> int:
    """Exit 0 when done, 2 for a name refused or a client that does not exist."""
    return asyncio.run(_run(database_url, args, sys.stdout, sys.stderr))


async def _run(database_url: str, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from eventstore.migrations import migrate
    from server.accounts.trusted_clients import TrustedClients
    from server.clock import SystemClock
    from server.ops.database import create_pool

    pool = await create_pool(database_url, max_size=2)
    try:
        await migrate(pool)
        clients = TrustedClients(pool)
        command = _COMMANDS[args.clients_command]
        return await command(clients, args, SystemClock().now(), out, err)
    finally:
        await pool.close()


async def _list(
    clients: "TrustedClients", args: argparse.Namespace, now: datetime, out: TextIO, err: TextIO
) -> int:
    rows = [_HEADER]
    for c in await clients.listed():
        times = (_when(c.created_at), _when(c.rotated_at), _when(c.revoked_at))
        rows.append((c.client_id, c.name, *times, str(c.users)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADER))]
    for row in rows:
        line = "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True))
        out.write(line.rstrip() + "\n")
    return 0


async def _create(
    clients: "TrustedClients", args: argparse.Namespace, now: datetime, out: TextIO, err: TextIO
) -> int:
    from schema.bounds import check_name
    from schema.refusals import InvalidCommand

    try:
        name = check_name("the name", args.name)
    except InvalidCommand as error:
        err.write(f"error: {error.message}\n")
        return 2
    client_id, token = await clients.create(name, now)
    out.write(token + "\n")
    err.write(f"made trusted client {client_id} ({name}); its token is shown once\n")
    return 0


async def _rotate(
    clients: "TrustedClients", args: argparse.Namespace, now: datetime, out: TextIO, err: TextIO
) -> int:
    token = await clients.rotate(args.client_id, now)
    if token is None:
        return _no_such_client(args.client_id, err)
    out.write(token + "\n")
    err.write(
        f"a new token for {args.client_id}, shown once; the old one no longer works and its "
        "sockets are closed\n"
    )
    return 0


async def _revoke(
    clients: "TrustedClients", args: argparse.Namespace, now: datetime, out: TextIO, err: TextIO
) -> int:
    if not await clients.revoke(args.client_id, now):
        return _no_such_client(args.client_id, err)
    err.write(
        f"revoked the token of {args.client_id}; its sockets are closed, its users' accounts "
        f"kept (`skirmish clients rotate {args.client_id}` gives it a new one)\n"
    )
    return 0


_COMMANDS = {"list": _list, "create": _create, "rotate": _rotate, "revoke": _revoke}


def _no_such_client(client_id: str, err: TextIO) -> int:
    err.write(f"error: there is no trusted client {client_id!r} (see `skirmish clients list`)\n")
    return 2


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")
