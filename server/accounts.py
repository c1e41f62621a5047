"""Accounts, bearer tokens and trusted clients, in PostgreSQL.

Tokens are 256 random bits, so a plain SHA-256 digest is a safe way to keep them: nothing
in the database lets anyone act, and a lookup is one indexed read.
"""

import hashlib
import hmac
import secrets
from datetime import datetime

import asyncpg
import msgspec

from schema.commands import Actor

OPERATOR = "operator"


class Identity(msgspec.Struct, frozen=True):
    """Who is calling: an account, possibly through a trusted client, or the operator."""

    account_id: str
    name: str
    operator: bool = False
    client_id: str | None = None
    # The trusted client says its user is an admin (X-Acting-User-Admin: true).
    vouched_admin: bool = False

    @property
    def actor(self) -> Actor:
        """Who this caller is to a game's commands."""
        vouched_by = self.client_id if self.vouched_admin else None
        return Actor(self.account_id, operator=self.operator, vouched_by=vouched_by)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


class Accounts:
    def __init__(self, pool: asyncpg.Pool, operator_token: str | None) -> None:
        self._pool = pool
        self._operator_digest = digest(operator_token) if operator_token else None

    async def create(self, name: str, now: datetime) -> tuple[str, str]:
        """A new account and its token (shown once; only the digest is kept)."""
        account_id, token = new_id("acct"), new_token()
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO accounts (account_id, name, created_at) VALUES ($1, $2, $3)",
                account_id,
                name,
                now,
            )
            await connection.execute(
                "INSERT INTO account_tokens (token_digest, account_id, created_at) "
                "VALUES ($1, $2, $3)",
                digest(token),
                account_id,
                now,
            )
        return account_id, token

    async def create_client(self, name: str, now: datetime) -> tuple[str, str]:
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

    async def identify(self, token: str) -> Identity | None:
        """The account a token belongs to, or None; for a client token, None too (use
        `client_of` and act for a user)."""
        token_digest = digest(token)
        if self._operator_digest is not None and hmac.compare_digest(
            token_digest, self._operator_digest
        ):
            return Identity(account_id=OPERATOR, name="operator", operator=True)
        row = await self._pool.fetchrow(
            "SELECT a.account_id, a.name FROM account_tokens t "
            "JOIN accounts a USING (account_id) WHERE t.token_digest = $1",
            token_digest,
        )
        return None if row is None else Identity(account_id=row[0], name=row[1])

    async def client_of(self, token: str) -> str | None:
        row = await self._pool.fetchrow(
            "SELECT client_id FROM clients WHERE token_digest = $1", digest(token)
        )
        return None if row is None else str(row[0])

    async def acting_user(
        self, client_id: str, external_id: str, name: str, now: datetime
    ) -> Identity:
        """The account of a client's user, created on first sight."""
        account_id = new_id("acct")
        row = await self._pool.fetchrow(
            "INSERT INTO accounts (account_id, name, client_id, external_id, created_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (client_id, external_id) "
            "DO UPDATE SET name = accounts.name RETURNING account_id, name",
            account_id,
            name,
            client_id,
            external_id,
            now,
        )
        assert row is not None
        return Identity(account_id=row[0], name=row[1], client_id=client_id)

    async def name_of(self, account_id: str) -> str | None:
        row = await self._pool.fetchrow(
            "SELECT name FROM accounts WHERE account_id = $1", account_id
        )
        return None if row is None else str(row[0])
