"""Each game's home worker. With `skirmish serve --workers N` the kernel hands a player's
connection to any worker, so every worker would write to every game: their appends race,
each lost race costs the loser three round trips, and one process can keep beating another
(docs/operations.md, "Several workers"). Instead each game has a home, one of the workers, and a
command to a game that another worker took is run by the game's home: the home's queue
takes the game's commands in turn and appends them in groups, from the state it keeps,
as one process alone would.

The workers talk over Unix sockets in a directory only the server's user can enter:
`place-K.sock` for the worker in place K. A frame is a 4-byte length and a msgpack body: a
command one way, what it appended (or why it was refused) the other, matched by a number,
so one connection carries many commands at once. A home that cannot be reached (restarting)
leaves the command to the worker that took it: the expected version still keeps two writers
apart. A home that goes away with a command under way answers 503 busy: whether it was
appended is not known, as when any connection drops, and the client sends it again.
"""

import asyncio
import contextlib
import itertools
import logging
import os
import struct
import tempfile
import zlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import msgspec

from eventstore.outages import UNREACHABLE
from projections.schedule import Due
from schema import errors as codes
from schema.commands import GameCommand
from schema.errors import CODES, Refusal
from server.game.outcome import Outcome
from server.http.errors import NO_DATABASE

_log = logging.getLogger(__name__)
_LENGTH = struct.Struct(">I")
# A command is a request's body at most (64 KiB) with a few fields; its answer a few events.
MAX_FRAME = 1 << 20
_PREFIX = "skirmish-homes-"
# The longest path a Unix socket may have on macOS (Linux allows 107 bytes).
_LONGEST_PATH = 103
# A forwarded command waits this long for its home at most, then the player is told busy.
ANSWER_SECONDS = 30.0
_BUSY_MESSAGE = "the game's worker could not answer; try again"


class BadFrame(Exception):
    """A frame longer than any command or answer can be."""


def sockets_directory() -> tempfile.TemporaryDirectory[str]:
    """A new directory for the workers' sockets, for the server's user only: in the
    temporary directory, or in /tmp where that one's path leaves no room for a socket's."""
    parent = tempfile.gettempdir()
    longest = os.path.join(parent, f"{_PREFIX}12345678", "place-9999.sock")
    if len(longest.encode()) > _LONGEST_PATH:
        parent = "/tmp"
    return tempfile.TemporaryDirectory(prefix=_PREFIX, dir=parent)


class Places(msgspec.Struct, frozen=True):
    """Where the workers of one server listen for one another, and which one this is."""

    directory: str
    place: int
    count: int

    def home_of(self, game_id: str) -> int:
        # crc32: the same in every process (str's hash is salted per process).
        return zlib.crc32(game_id.encode()) % self.count

    def path(self, place: int) -> str:
        return os.path.join(self.directory, f"place-{place}.sock")


class _Forwarded(msgspec.Struct, frozen=True, array_like=True):
    number: int
    game_id: str
    command: GameCommand


class _Appended(msgspec.Struct, frozen=True, array_like=True, tag="appended"):
    number: int
    acted: Outcome[Due]


class _Refused(msgspec.Struct, frozen=True, array_like=True, tag="refused"):
    number: int
    code: str
    message: str
    retry_after: int | None
    details: dict[str, Any]


_encode = msgspec.msgpack.Encoder().encode
_decode_forwarded = msgspec.msgpack.Decoder(_Forwarded).decode
_decode_answer = msgspec.msgpack.Decoder(_Appended | _Refused).decode

Run = Callable[[str, GameCommand], Awaitable[Outcome[Due]]]


class Relayed(Refusal):
    """A refusal from the game's home, as the home said it."""

    def __init__(self, refused: _Refused) -> None:
        entry = CODES.get(refused.code, codes.BUSY)
        super().__init__(entry, refused.message, retry_after=refused.retry_after)
        self._details = refused.details

    def details(self) -> dict[str, Any]:
        return self._details


class Homes:
    """This worker's part: it runs the commands other workers send to the games whose home
    it is (`run`), and sends the others' commands to their homes. `count` is told how each
    command it sent went (the metrics)."""

    def __init__(self, places: Places, run: Run, count: Callable[[str], None]) -> None:
        self.places = places
        self._run = run
        self._count = count
        self._server: asyncio.Server | None = None
        self._peers = {p: _Peer(places.path(p)) for p in range(places.count) if p != places.place}
        # Connections being read, and commands being run: a command runs to its end even if
        # its sender's connection goes (cancelled, it would take down the commands queued
        # with it), but not past `close`.
        self._serving: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        path = self.places.path(self.places.place)
        # The socket of this place's previous worker, if it died.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        self._server = await asyncio.start_unix_server(self._connected, path, limit=MAX_FRAME)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in self._serving:
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)
        for peer in self._peers.values():
            await peer.close()

    async def forward(self, game_id: str, command: GameCommand) -> Outcome[Due] | None:
        """The command run by the game's home; None when that is here, or cannot be reached
        (the caller runs it)."""
        peer = self._peers.get(self.places.home_of(game_id))
        if peer is None:
            return None
        try:
            acted = await peer.send(game_id, command)
        except Relayed:
            self._count("refused")
            raise
        except Refusal:
            self._count("failed")
            raise
        self._count("unreachable" if acted is None else "appended")
        return acted

    def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # A task of our own rather than asyncio's for a coroutine callback, which on Python
        # 3.11 logs the cancellation that `close` makes as an error.
        self._start(self._serve(reader, writer))

    def _start(self, serving: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(serving)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while (body := await _read_frame(reader)) is not None:
                self._start(self._answer(_decode_forwarded(body), writer))
        except (OSError, BadFrame, msgspec.DecodeError, asyncio.IncompleteReadError) as error:
            _log.warning("a worker's connection failed: %r", error)
        finally:
            writer.close()

    async def _answer(self, forwarded: _Forwarded, writer: asyncio.StreamWriter) -> None:
        number = forwarded.number
        answer: _Appended | _Refused
        try:
            answer = _Appended(number, await self._run(forwarded.game_id, forwarded.command))
        except Refusal as refused:
            answer = _Refused(
                number, refused.code, refused.message, refused.retry_after, refused.details()
            )
        except UNREACHABLE:
            answer = _Refused(number, codes.DATABASE_UNAVAILABLE.code, NO_DATABASE, None, {})
        except Exception as error:
            _log.exception("a forwarded command failed", exc_info=error)
            answer = _Refused(number, codes.BUSY.code, _BUSY_MESSAGE, None, {})
        if not writer.is_closing():
            body = _encode(answer)
            writer.write(_LENGTH.pack(len(body)) + body)


class _Peer:
    """Another worker, reached over one connection at a time: opened when first needed and
    again after a failure, carrying any number of commands at once."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._connection: _Connection | None = None
        self._numbers = itertools.count()
        self._connecting = asyncio.Lock()

    async def send(self, game_id: str, command: GameCommand) -> Outcome[Due] | None:
        connection = await self._connected()
        if connection is None:
            return None
        number = next(self._numbers)
        answer: asyncio.Future[_Appended | _Refused] = asyncio.get_running_loop().create_future()
        connection.waiting[number] = answer
        body = _encode(_Forwarded(number, game_id, command))
        try:
            connection.writer.write(_LENGTH.pack(len(body)) + body)
            async with asyncio.timeout(ANSWER_SECONDS):
                got = await answer
        except (OSError, TimeoutError):  # ConnectionError too: the connection failed
            raise Refusal(codes.BUSY, _BUSY_MESSAGE) from None
        finally:
            connection.waiting.pop(number, None)
        if isinstance(got, _Refused):
            raise Relayed(got)
        return got.acted

    async def _connected(self) -> "_Connection | None":
        async with self._connecting:
            if self._connection is None or self._connection.writer.is_closing():
                try:
                    reader, writer = await asyncio.open_unix_connection(self._path, limit=MAX_FRAME)
                except OSError:
                    return None
                self._connection = _Connection(reader, writer)
            return self._connection

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()


class _Connection:
    """One connection to another worker, and the commands waiting for their answers on it:
    when it fails, they fail, and not those of the connection opened after it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.waiting: dict[int, asyncio.Future[_Appended | _Refused]] = {}
        self._reading = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while (body := await _read_frame(reader)) is not None:
                answer = _decode_answer(body)
                waiting = self.waiting.get(answer.number)
                if waiting is not None and not waiting.done():
                    waiting.set_result(answer)
        except (OSError, BadFrame, msgspec.DecodeError, asyncio.IncompleteReadError) as error:
            _log.warning("a worker's connection failed: %r", error)
        finally:
            self.writer.close()
            for waiting in self.waiting.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError("the game's worker went away"))

    async def close(self) -> None:
        self.writer.close()
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading


async def _read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """The next frame's body; None at the end of the stream."""
    try:
        head = await reader.readexactly(_LENGTH.size)
    except asyncio.IncompleteReadError as error:
        if error.partial:
            raise
        return None
    (length,) = _LENGTH.unpack(head)
    if length > MAX_FRAME:
        raise BadFrame(f"a frame of {length} bytes")
    return await reader.readexactly(length)
