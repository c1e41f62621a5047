"""What verifying a game's history answers (server/ops/verify.py, server/ops/replay.py): the
`GET /v1/games/{game}/verify` body, and `skirmish verify` and `skirmish replay`'s findings."""

from typing import Any, Literal

import msgspec

from eventstore.chain import ChainBreak


class FieldChange(msgspec.Struct, frozen=True):
    """One field of a turn's outcome: as recorded, and as the engine decides it now (JSON
    values). `field` is a dotted path: `vp.p2` for one player's entry of a mapping."""

    field: str
    recorded: Any
    now: Any


class TurnDifference(msgspec.Struct, frozen=True):
    """A resolved turn whose outcome differs now; `error` if it can no longer be resolved."""

    game_id: str
    turn: int
    changes: list[FieldChange]
    error: str | None = None


class Anchor(msgspec.Struct, frozen=True, kw_only=True):
    """A head seen before (a verification's `head`, or the `hash` of an event read from the
    feed), looked for in the history: `found` "live" when the stream still holds it, at
    `version`; "archived" when a rewind took it away and the archive keeps it; null when
    nothing holds it: events were removed (a tail cut, even with the stream's head rewritten
    to match) or rewritten since. A hash stands for its event's version and everything
    before it, so finding it is enough."""

    hash: str
    found: Literal["live", "archived"] | None
    version: int | None
    reason: str | None


class Verification(msgspec.Struct, frozen=True, kw_only=True):
    """What verifying a game found: `ok` when its hash chain holds, every resolution
    replays the same, and the history still holds the head the caller expected (`anchor`,
    null when none was given). `head` is the hash (hex) of its last event, which changes
    whenever anything before it does, at `head_position`: keep it to anchor a later
    verification. `differences` lists the first differing turns, `turns_differing` counts
    them all."""

    game: str
    ok: bool
    events: int
    archived: int
    head: str | None
    chain_break: ChainBreak | None
    turns_replayed: int
    turns_differing: int
    differences: list[TurnDifference]
    head_position: int | None = None
    anchor: Anchor | None = None
