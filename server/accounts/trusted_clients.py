"""Trusted clients (bots that act for their own users), in PostgreSQL: made, listed, rotated
and revoked by the operator, through the API (server/http/routes/clients.py) or
`skirmish clients` (server/ops/client_tools.py).

A client's users' accounts are keyed by the client's id and the user's id there, never by
its token: rotating gives the same client a new token, so that every user keeps their
account, seats and games; revoking takes the token away and keeps the client, so that a
later rotation brings its users back. Whatever ends a token announces it
(server.live.revocations), so that the sockets opened with it close too.
"""

from datetime import datetime

import asyncpg

from schema.accounts import ClientInfo
from server.accounts.store import digest, new_id, new_token
from server.live.revocations import announce


class TrustedClients:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def create(self, name: str, now: datetime) -> tuple[str, str]:
        """A new client and its token (shown once; only the digest is kept)."""
        client_id, token = new_id("client"), new_token()
        await self._pool.execute(
            "INSERT INTO clients (client_id, name, token_digest, created_at) "
            "VALUES ($1, $2, $3, $4)",
            client_id,
            name,
            digest(token),
            now,
        )
        return client_id, token

    async def client_of(self, token: str) -> str | None:
        """The client this token is the token of, if any."""
        row = await self._pool.fetchrow(
            "SELECT client_id FROM clients WHERE token_digest = $1", digest(token)
        )
        return None if row is None else str(row[0])

    async def listed(self) -> list[ClientInfo]:
        """Every client, in the order they were made, with how many users it has (never
        its token)."""
        rows = await self._pool.fetch(
            "SELECT c.client_id, c.name, c.created_at, c.rotated_at, c.revoked_at, "
            "(SELECT count(*) FROM accounts a WHERE a.client_id = c.client_id) "
            "FROM clients c ORDER BY c.added"
        )
        return [ClientInfo(*row) for row in rows]

    async def rotate(self, client_id: str, now: datetime) -> str | None:
        """A new token for the client (shown once), revoked or not; the old one stops
        working at once. None if there is no such client."""
        token = new_token()
        async with self._pool.acquire() as connection, connection.transaction():
            row = await connection.fetchrow(
                "SELECT token_digest FROM clients WHERE client_id = $1 FOR UPDATE", client_id
            )
            if row is None:
                return None
            await connection.execute(
                "UPDATE clients SET token_digest = $2, rotated_at = $3, revoked_at = NULL "
                "WHERE client_id = $1",
                client_id,
                digest(token),
                now,
            )
            if row[0] is not None:
                await announce(connection, [row[0]])
        return token

    async def revoke(self, client_id: str, now: datetime) -> bool:
        """Take the client's token away, if it has one; False if there is no such client."""
        async with self._pool.acquire() as connection, connection.transaction():
            row = await connection.fetchrow(
                "SELECT token_digest FROM clients WHERE client_id = $1 FOR UPDATE", client_id
            )
            if row is None:
                return False
            if row[0] is not None:
                await connection.execute(
                    "UPDATE clients SET token_digest = NULL, revoked_at = $2 WHERE client_id = $1",
                    client_id,
                    now,
                )
                await announce(connection, [row[0]])
        return True
