"""The store's size bound leaves room for the largest resolution the rules allow.

Per turn, each player sends at most 100 submissions and 1,000 order lines in all, each
submission at most 4,000 characters (docs/rules.md); a game has at most 20 players; an
order line is at most 100 characters (longer ones are refused and reported cut) and a
reason quotes at most 40 of them. The largest `turn_resolved` then reports 20,000 lines of
100 characters, each four bytes of UTF-8, each with a reason that quotes it."""

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from eventstore.base import MAX_APPEND_BYTES, MAX_EVENT_BYTES
from projections.evolve import fold
from projections.game import GameState
from rules.skirmish.parse import MAX_ORDER_LENGTH
from schema.commands import (
    Actor,
    CreateGame,
    GameCommand,
    JoinGame,
    ResolveTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import GameEvent, Settings, game_codec
from server.game.decide import decide

PLAYERS = 20
SUBMISSIONS = 100
LINES_PER_SUBMISSION = 10  # 1,000 lines in all
# The longest line an order may be, every character a four-byte one.
LINE = "\N{GRINNING FACE}" * MAX_ORDER_LENGTH
NOW = datetime(2030, 1, 1, 12, tzinfo=UTC)


def _run(state: GameState, command: GameCommand) -> tuple[GameState, list[GameEvent]]:
    events = decide(state, command)
    return fold(state, enumerate(events, start=state.version + 1)), events


def test_the_largest_resolution_fits_with_room_to_spare() -> None:
    settings = Settings(name="largest", votes="disabled")
    state, _ = _run(
        GameState(),
        CreateGame(actor=Actor("admin"), now=NOW, game_id="g", settings=settings, seed=1),
    )
    for n in range(PLAYERS):
        state, _ = _run(state, JoinGame(actor=Actor(f"acct-{n}"), now=NOW, name=f"P{n}"))
    state, _ = _run(state, StartGame(actor=Actor("admin"), now=NOW, secret=bytes(32)))
    submission = "\n".join([LINE] * LINES_PER_SUBMISSION)
    assert len(submission) <= 4000
    for n in range(PLAYERS):
        for _ in range(SUBMISSIONS):
            state, _ = _run(
                state,
                SubmitOrders(nonce=bytes(32), actor=Actor(f"acct-{n}"), now=NOW, text=submission),
            )

    _, events = _run(
        state,
        ResolveTurn(
            actor=Actor("admin", operator=True),
            now=NOW + timedelta(days=1),
        ),
    )

    sizes = [
        len(game_codec.new_event(e, occurred_at=NOW, actor="a", correlation_id=uuid4()).data)
        for e in events
    ]
    # Measured: 13.3 MB for the resolution, 13.7 MB for the whole append (its notices).
    assert game_codec.type_of(events[0]) == "turn_resolved.v1"
    assert sizes[0] == max(sizes) > 13_000_000
    assert sizes[0] * 2 <= MAX_EVENT_BYTES
    assert sum(sizes) * 2 <= MAX_APPEND_BYTES
