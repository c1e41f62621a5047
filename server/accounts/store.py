"""Accounts and their bearer tokens, in PostgreSQL (trusted clients:
server.accounts.trusted_clients).

Tokens are 256 random bits, so a plain SHA-256 digest is a safe way to keep them: nothing
in the database lets anyone act, and a lookup is one indexed read. Nothing is cached: every
request looks its token up, so that a revoked token stops working at once in every process;
whatever ends a token says so (server.live.revocations), so that the sockets opened with it end
too.
"""

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

import asyncpg
import msgspec

from eventstore.migrations import Connection
from schema.accounts import TokenInfo
from schema.commands import Actor
from server.live.revocations import announce

OPERATOR = "operator"
# Tokens per account: one a device, with room to spare.
MAX_TOKENS = 20
# The name of the token an account is made with.
FIRST_TOKEN = "first"
# `last_used_at` is written at most this often per token: a write on every request would
# cost more than the lookup itself.
LAST_USED_STEP = timedelta(hours=1)


class Identity(msgspec.Struct, frozen=True):
    """Who is calling: an account, possibly through a trusted client, or the operator."""

    account_id: str
    name: str
    operator: bool = False
    client_id: str | None = None
    # The user's id at that client (X-Acting-User).
    external_id: str | None = None
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


class TooManyTokens(Exception):
    pass


class LastToken(Exception):
    pass


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
            await _insert_token(connection, token, account_id, FIRST_TOKEN, now)
        return account_id, token

    async def identify(self, token: str, now: datetime) -> Identity | None:
        """The account a token belongs to, or None; for a client token, None too (see
        server.accounts.trusted_clients, and act for a user). Notes when the token was
        used, to the hour."""
        token_digest = digest(token)
        if self._operator_digest is not None and hmac.compare_digest(
            token_digest, self._operator_digest
        ):
            return Identity(account_id=OPERATOR, name="operator", operator=True)
        row = await self._pool.fetchrow(
            "SELECT a.account_id, a.name, t.last_used_at FROM account_tokens t "
            "JOIN accounts a USING (account_id) WHERE t.token_digest = $1",
            token_digest,
        )
        if row is None:
            return None
        account_id, name, last_used_at = row
        if last_used_at is None or now - last_used_at >= LAST_USED_STEP:
            await self._pool.execute(
                "UPDATE account_tokens SET last_used_at = $2 WHERE token_digest = $1",
                token_digest,
                now,
            )
        return Identity(account_id=account_id, name=name)

    async def tokens(self, account_id: str) -> list[TokenInfo]:
        """The account's tokens, oldest first (never the tokens themselves)."""
        rows = await self._pool.fetch(
            "SELECT token_id, name, created_at, last_used_at FROM account_tokens "
            "WHERE account_id = $1 ORDER BY added",
            account_id,
        )
        return [TokenInfo(*row) for row in rows]

    async def add_token(self, account_id: str, name: str, now: datetime) -> tuple[TokenInfo, str]:
        """A new token for the account (shown once); TooManyTokens past MAX_TOKENS."""
        token = new_token()
        async with self._pool.acquire() as connection, connection.transaction():
            # The account's row is the lock that keeps two adds from passing the bound.
            await _lock_account(connection, account_id)
            held = await connection.fetchval(
                "SELECT count(*) FROM account_tokens WHERE account_id = $1", account_id
            )
            if held >= MAX_TOKENS:
                raise TooManyTokens
            token_id = await _insert_token(connection, token, account_id, name, now)
        return TokenInfo(token_id, name, now, None), token

    async def revoke_token(self, account_id: str, token_id: str) -> bool:
        """Revoke one of the account's tokens: False if it has no such token, LastToken if
        it is the only one left (the account could never be used again)."""
        async with self._pool.acquire() as connection, connection.transaction():
            await _lock_account(connection, account_id)
            tokens = await connection.fetch(
                "SELECT token_id FROM account_tokens WHERE account_id = $1", account_id
            )
            if token_id not in {row[0] for row in tokens}:
                return False
            if len(tokens) == 1:
                raise LastToken
            revoked = await connection.fetchval(
                "DELETE FROM account_tokens WHERE account_id = $1 AND token_id = $2 "
                "RETURNING token_digest",
                account_id,
                token_id,
            )
            await announce(connection, [revoked])
        return True

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
        return Identity(
            account_id=row[0], name=row[1], client_id=client_id, external_id=external_id
        )

    async def known(self, digests: list[bytes]) -> set[bytes]:
        """Which of these token digests still stand for someone."""
        rows = await self._pool.fetch(
            "SELECT token_digest FROM account_tokens WHERE token_digest = ANY($1::bytea[]) "
            "UNION SELECT token_digest FROM clients WHERE token_digest = ANY($1::bytea[])",
            digests,
        )
        found = {bytes(row[0]) for row in rows}
        if self._operator_digest in digests:
            found.add(self._operator_digest)
        return found

    async def name_of(self, account_id: str) -> str | None:
        row = await self._pool.fetchrow(
            "SELECT name FROM accounts WHERE account_id = $1", account_id
        )
        return None if row is None else str(row[0])


async def _lock_account(connection: Connection, account_id: str) -> None:
    await connection.execute("SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE", account_id)


async def _insert_token(
    connection: Connection,
    token: str,
    account_id: str,
    name: str,
    now: datetime,
) -> str:
    """Keep the token's digest under a new id; return the id."""
    token_id = new_id("tok")
    await connection.execute(
        "INSERT INTO account_tokens (token_digest, account_id, created_at, token_id, name) "
        "VALUES ($1, $2, $3, $4, $5)",
        digest(token),
        account_id,
        now,
        token_id,
        name,
    )
    return token_id
