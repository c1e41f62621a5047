"""Verification of a game's history, for `skirmish verify` and `GET /v1/games/{game}/verify`:
its hash chain recomputed (eventstore/chain.py), archive included, and every resolution
replayed through the rules engine as it is now (server/ops/replay.py). `verify` is a pure
function, the stored events in and what differs out; `read_stored` and `verify_stored` read
them from the store."""

import asyncio
import hashlib
from collections.abc import AsyncIterator

import msgspec

from eventstore.base import EventStore
from eventstore.chain import first_break
from eventstore.records import RecordedEvent, Truncation
from projections.loading import stream_of
from schema.events import EventSchemaError
from schema.game_events import GameEvent, game_codec
from schema.verification import Anchor, TurnDifference, Verification
from server.ops.replay import describe as describe_turn
from server.ops.replay import replay_game
from server.ops.replay_store import opened_store, stored_games

# The most differing turns an answer lists (the first ones): one is enough to distrust a
# game, and a changed rule can make every turn of a long game differ.
MAX_LISTED = 20
# Attempts at reading a game while it does not move.
_READS = 5
_fingerprint = msgspec.msgpack.Encoder().encode


class KeptMoving(Exception):
    """The game moved while it was read, every time."""


def verify(
    game_id: str,
    head_version: int,
    live: list[RecordedEvent],
    archive: list[Truncation],
    expected_head: bytes | None = None,
) -> Verification:
    """Recompute the chain of the game's stream and replay its resolutions; with
    `expected_head`, look for that hash in the history too."""
    broken = first_break(head_version, live, archive)
    anchor = None if expected_head is None else anchored(expected_head, live, archive)
    events, undecodable = _decoded(game_id, live)
    replayed, differences = replay_game(game_id, events)
    if undecodable is not None:
        differences.append(undecodable)
    return Verification(
        game=game_id,
        ok=broken is None and not differences and (anchor is None or anchor.found is not None),
        events=len(live),
        archived=sum(len(truncation.events) for truncation in archive),
        head=live[-1].hash.hex() if live else None,
        head_position=live[-1].position if live else None,
        anchor=anchor,
        chain_break=broken,
        turns_replayed=replayed,
        turns_differing=len(differences),
        differences=differences[:MAX_LISTED],
    )


def head_hash(text: str) -> bytes:
    """A head as given (hex), or ValueError saying what one is."""
    if len(text) != 64 or any(digit not in "0123456789abcdefABCDEF" for digit in text):
        raise ValueError(f"a head is 64 hexadecimal digits, not {text[:80]!r}")
    return bytes.fromhex(text)


def anchored(expected_head: bytes, live: list[RecordedEvent], archive: list[Truncation]) -> Anchor:
    """Where the history holds the event of hash `expected_head`, if anywhere. (That the
    chain up to it holds is `first_break`'s finding.)"""
    hash_ = expected_head.hex()
    for event in live:
        if event.hash == expected_head:
            return Anchor(hash=hash_, found="live", version=event.version, reason=None)
    for truncation in archive:
        for event in truncation.events:
            if event.hash == expected_head:
                return Anchor(hash=hash_, found="archived", version=event.version, reason=None)
    reason = "the history holds no event of this hash: events were removed or rewritten"
    return Anchor(hash=hash_, found=None, version=None, reason=reason)


def _decoded(
    game_id: str, live: list[RecordedEvent]
) -> tuple[list[GameEvent], TurnDifference | None]:
    """The events up to the first that cannot be decoded, and a difference saying which."""
    events: list[GameEvent] = []
    for recorded in live:
        try:
            events.append(game_codec.decode_recorded(recorded))
        except (EventSchemaError, msgspec.DecodeError) as error:
            reason = f"event {recorded.version} ({recorded.type}) cannot be read: {error}"
            return events, TurnDifference(game_id, 0, [], error=reason)
    return events, None


class Stored(msgspec.Struct, frozen=True):
    """A game's events as the store held them while its head stood still."""

    game_id: str
    head_version: int
    live: list[RecordedEvent]
    archive: list[Truncation]

    def fingerprint(self) -> bytes:
        """What the verification depends on, all of it, hashed: a row changed by hand, a
        rewind or a new event changes it."""
        return hashlib.sha256(_fingerprint(self)).digest()


async def read_stored(store: EventStore, game_id: str) -> Stored:
    """The game as the store holds it now. The reads are not one transaction: they count
    only if the stream's head did not move meanwhile, else they are read again (a game
    being played moves a few times a minute at most)."""
    stream = stream_of(game_id)
    for _ in range(_READS):
        head = await store.stream_version(stream)
        live = await store.read_stream(stream)
        archive = await store.read_archive(stream)
        if await store.stream_version(stream) == head:
            return Stored(game_id, head, live, archive)
    raise KeptMoving(f"game {game_id} moved during each of {_READS} reads; try again")


def verify_read(stored: Stored, expected_head: bytes | None = None) -> Verification:
    """`verify` of what was read (the server runs it in a worker process, server/http/heavy.py)."""
    return verify(stored.game_id, stored.head_version, stored.live, stored.archive, expected_head)


async def verify_stored(
    store: EventStore, game_id: str, expected_head: bytes | None = None
) -> Verification:
    """Verify the game as the store holds it now."""
    stored = await read_stored(store, game_id)
    # Hashing and adjudicating: seconds for the longest games, off the event loop.
    return await asyncio.to_thread(verify_read, stored, expected_head)


async def verify_all(
    database_url: str, game_id: str | None, expected_head: bytes | None = None
) -> AsyncIterator[Verification]:
    """`skirmish verify`: every game of the store (or `game_id`, anchored on
    `expected_head` if given), one after the other."""
    async with opened_store(database_url) as store:
        games = [game_id] if game_id is not None else [g async for g in stored_games(store)]
        for game in games:
            yield await verify_stored(store, game, expected_head)


def describe(verification: Verification) -> str:
    """A verification as lines of text: a summary, then what differs."""
    found = verification
    summary = (
        f"game {found.game}: {found.events:,} events, {found.archived:,} archived, "
        f"{found.turns_replayed:,} turns replayed"
    )
    if found.ok:
        return f"{summary}: ok, head {found.head}"
    lines = [f"{summary}: DIFFERS"]
    anchor = found.anchor
    if anchor is not None and anchor.found is None:
        lines.append(f"  the head {anchor.hash} seen before is missing: {anchor.reason}")
    broken = found.chain_break
    if broken is not None:
        where = "" if broken.truncation_id is None else f" (truncation {broken.truncation_id})"
        lines.append(
            f"  the hash chain breaks at version {broken.version}{where}, "
            f"{broken.type or 'no event'} at position {broken.position}: {broken.reason}"
        )
    lines.extend(describe_turn(difference) for difference in found.differences)
    if found.turns_differing > len(found.differences):
        lines.append(f"  ... {found.turns_differing - len(found.differences)} more turns differ")
    return "\n".join(lines)
