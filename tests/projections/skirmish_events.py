"""A Skirmish Society game's events as the tests of its folded state build them, and the
fold of them from nothing (tests/projections/test_evolve.py, test_room_facts.py)."""

from msgspec.structs import replace

from projections.evolve import fold
from projections.game import GameState
from rules.skirmish.maps import builtin_map
from schema.game_events import (
    GameCreated,
    GameEvent,
    GameStarted,
    OrdersSubmitted,
    PlayerJoined,
    RecordedPosition,
    Settings,
    TurnResolved,
    Vote,
)
from tests.server.decide.given import ADMIN, T0, noon

SETTINGS = Settings(name="Folded")
VOTE = Vote(turn=1, candidates=("FEAST", "STORM"), tie_break="STORM")


def fold_events(*events: GameEvent) -> GameState:
    return fold(GameState(), enumerate(events, start=1))


def joined_events(*names: str) -> list[GameEvent]:
    events: list[GameEvent] = [
        GameCreated(game_id="g1", settings=SETTINGS, admin=ADMIN, seed=7, at=T0)
    ]
    for i, name in enumerate(names, start=1):
        events.append(
            PlayerJoined(player_id=f"p{i}", account_id=f"acct-{i}", name=name, color=i, pattern=1)
        )
    return events


def started_events(*names: str, vote: Vote | None = None) -> list[GameEvent]:
    armies = {"EH": "p1", "MA": "p2", "MJ": "p3", "KU": "p4"}
    players = {f"p{i}" for i in range(1, len(names) + 1)}
    armies = {t: p for t, p in armies.items() if p in players}
    board = RecordedPosition(armies=armies, control=dict(armies), farms=[])
    start = GameStarted(map=builtin_map("rulebook"), board=board, homes={}, at=T0, vote=vote)
    return [*joined_events(*names), start]


def turn_resolved(turn: int = 1, **fields: object) -> TurnResolved:
    event = TurnResolved(
        turn=turn,
        at=noon(turn),
        effect=None,
        orders=[],
        board=RecordedPosition(armies={"EH": "p1"}, control={"EH": "p1", "BF": "p1"}, farms=[]),
        dead=[],
        vp={},
        vp_gained={},
        eliminated=[],
        winner=None,
        joined={},
        vote_outcome=None,
        next_vote=None,
        next_effect=None,
    )
    return replace(event, **fields)


def orders(player: str, text: str) -> OrdersSubmitted:
    return OrdersSubmitted(player_id=player, turn=1, text=text, account_id="acct", checked=[])
