"""The client's own HTTP/1.1 connections, against a loopback peer that answers as told:
the shapes of answer a server or a proxy may give, and the failures of a connection."""

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from client.connections import MAX_BODY, ConnectionFailed, Connections

Reply = Callable[[int], bytes | None]


class Peer:
    """A loopback server: the n-th request (read up to its blank line: the tests send no
    body) gets `reply(n)`; None is no answer at all. A connection closes after `per_connection`
    requests (None: when the client closes it)."""

    def __init__(self, reply: Reply, per_connection: int | None) -> None:
        self.reply = reply
        self.per_connection = per_connection
        self.requests = 0
        self.connections = 0
        self.done = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        served = 0
        try:
            while self.per_connection is None or served < self.per_connection:
                await reader.readuntil(b"\r\n\r\n")
                self.requests += 1
                served += 1
                answer = self.reply(self.requests)
                if answer is None:
                    await self.done.wait()
                    return
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            writer.close()


@asynccontextmanager
async def peer(
    reply: Reply, per_connection: int | None = None
) -> AsyncIterator[tuple[Peer, Connections]]:
    found = Peer(reply, per_connection)
    listening = await asyncio.start_server(found.serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    connections = Connections(f"http://127.0.0.1:{port}", timeout=2.0)
    try:
        yield found, connections
    finally:
        found.done.set()
        await connections.aclose()
        listening.close()
        await listening.wait_closed()


def _ok(body: bytes = b"{}", extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), extra, body)


async def test_one_connection_carries_request_after_request() -> None:
    async with peer(lambda n: _ok(b'{"n": %d}' % n)) as (found, connections):
        answers = [await connections.request("GET", "/v1/health", {}) for _ in range(3)]
    assert [a.body for a in answers] == [b'{"n": 1}', b'{"n": 2}', b'{"n": 3}']
    assert found.connections == 1


async def test_chunks_and_a_body_to_the_end_of_the_connection_are_read_whole() -> None:
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
    )
    async with peer(lambda n: chunked) as (_, connections):
        assert (await connections.request("GET", "/", {})).body == b"abcde"
    until_closed = b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it"
    async with peer(lambda n: until_closed, per_connection=1) as (_, connections):
        answer = await connections.request("GET", "/", {})
    assert (answer.status, answer.body) == (200, b"all of it")
    assert answer.headers[b"content-type"] == b"text/plain"


async def test_a_connection_the_server_closed_while_idle_is_replaced_once() -> None:
    # One request a connection, as if the server's idle timeout came after each: the kept
    # connection is dead on the next call.
    async with peer(lambda n: _ok(), per_connection=1) as (found, connections):
        await connections.request("GET", "/", {})
        assert found.connections == 1
        await asyncio.sleep(0.05)
        await connections.request("POST", "/v1/games/g/join", {})
    assert (found.requests, found.connections) == (2, 2)


async def test_an_answer_cut_short_is_a_failure_and_is_never_sent_again() -> None:
    cut = b'HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"cut'
    async with peer(lambda n: cut, per_connection=1) as (found, connections):
        with pytest.raises(ConnectionFailed, match="the connection failed"):
            await connections.request("PUT", "/v1/games/g/orders", {}, b"{}")
    assert found.requests == 1


async def test_no_answer_in_time_is_a_failure() -> None:
    async with peer(lambda n: None) as (_, connections):
        with pytest.raises(ConnectionFailed, match="no answer within"):
            await connections.request("GET", "/", {})


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY + 1),
        b"HTTP/1.1 200 OK\r\nContent-Length: lots\r\n\r\n",
        b"SSH-2.0-OpenSSH_9.2\r\n\r\n",
    ],
)
async def test_an_answer_too_large_or_not_http_is_a_failure(answer: bytes) -> None:
    async with peer(lambda n: answer, per_connection=1) as (_, connections):
        with pytest.raises(ConnectionFailed):
            await connections.request("GET", "/", {})


async def test_nobody_listening_is_a_failure() -> None:
    listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    listening.close()
    await listening.wait_closed()
    connections = Connections(f"http://127.0.0.1:{port}", timeout=2.0)
    with pytest.raises(ConnectionFailed, match="cannot connect"):
        await connections.request("GET", "/", {})
