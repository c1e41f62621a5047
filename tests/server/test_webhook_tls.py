"""A TLS delivery connects to the address it checked, yet names the host in SNI and checks
the certificate against the host's name. A loopback TLS receiver with a certificate made for
the test."""

import asyncio
import contextlib
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx
from msgspec.structs import replace

from eventstore.postgres import PostgresEventStore
from server.clock import FakeClock
from server.game.handlers import GameService
from server.webhooks.outbox import Webhooks
from server.webhooks.sender import WebhookSender
from tests.server.scripted import START
from tests.server.webhook_support import enqueue, hooked_game


def _certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for `name`, and its key."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", f"/CN={name}"),
            *("-addext", f"subjectAltName=DNS:{name}"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


class TlsReceiver:
    """Answers every request 204, and notes the name each client asked for (SNI) and the
    Host header it sent."""

    def __init__(self, cert: Path, key: Path) -> None:
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.context.sni_callback = self._named
        self.names: list[str | None] = []
        self.hosts: list[str] = []

    def _named(self, _: ssl.SSLObject, name: str | None, __: ssl.SSLContext) -> None:
        self.names.append(name)

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[int]:
        server = await asyncio.start_server(self._answer, "127.0.0.1", 0, ssl=self.context)
        try:
            yield server.sockets[0].getsockname()[1]
        finally:
            server.close()
            await server.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            headers = dict(
                line.split(": ", 1) for line in head.decode().split("\r\n")[1:] if ": " in line
            )
            self.hosts.append(headers.get("host", ""))
            await reader.readexactly(int(headers.get("content-length", "0")))
            writer.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
            await writer.drain()
        finally:
            writer.close()


async def test_a_tls_delivery_names_its_host_and_checks_the_certificate_against_it(
    tmp_path: Path, postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    cert, key = _certificate(tmp_path, "localhost")
    receiver = TlsReceiver(cert, key)
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    sender = WebhookSender(pool, clock, allow_private=True, per_game=6)
    # The deliveries' client, trusting the test's certificate.
    trusting = ssl.create_default_context(cafile=str(cert))
    async with (
        receiver.serving() as port,
        httpx.AsyncClient(verify=trusting, trust_env=False) as http,
    ):
        await hooked_game(pool, postgres_store, f"https://localhost:{port}/hook")
        await enqueue(webhooks, postgres_store, pool)
        claims = await sender.claim()
        outcomes = await asyncio.gather(*(sender.send(http, claim) for claim in claims))
        assert outcomes == [None] * 6
        assert receiver.names == ["localhost"] * 6
        assert receiver.hosts == [f"localhost:{port}"] * 6

        # The same receiver by its address: its certificate is not for that name.
        by_address = replace(claims[0], url=f"https://127.0.0.1:{port}/hook")
        refused = await sender.send(http, by_address)
    assert refused is not None
    assert "certificate verify failed" in refused
