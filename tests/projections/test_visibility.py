"""Who may see each event."""

import pytest

from projections.visibility import Viewer, audience, can_see, shown
from schema.game_events import (
    Board,
    GameCreated,
    GameEvent,
    MessageBroadcast,
    OrdersSubmitted,
    PlayerJoined,
    Settings,
    TurnResolved,
    VoteCast,
)
from tests.server.decide.given import ADMIN, NOON, T0

NORMAL = Settings(name="Seen")
SAME_DAY = Settings(name="Seen", voting_mode="same_day")

OWNER = Viewer(players=frozenset({"p1"}))
OTHER = Viewer(players=frozenset({"p2"}))
ADMIN_VIEW = Viewer(admin=True)
SPECTATOR = Viewer.spectator()

ORDERS = OrdersSubmitted(player_id="p1", turn=1, text="AB to CD", account_id="acct-1", checked=[])
BALLOT = VoteCast(player_id="p1", turn=1, effect="FEAST")
CREATED = GameCreated(game_id="g1", settings=NORMAL, admin=ADMIN, seed=982_451_653, at=T0)
RESOLVED = TurnResolved(
    turn=1,
    at=NOON,
    effect=None,
    orders=[],
    board=Board(armies={}, control={}, farms=[]),
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


def test_orders_are_their_owners_alone() -> None:
    assert audience(ORDERS, NORMAL) == ("owner", "p1")
    assert shown(OWNER, ORDERS, NORMAL) == {
        "type": "orders_submitted.v1",
        "player_id": "p1",
        "turn": 1,
        "text": "AB to CD",
        "account_id": "acct-1",
        "checked": [],
    }
    for viewer in (OTHER, SPECTATOR):
        assert not can_see(viewer, ORDERS, NORMAL)
        assert shown(viewer, ORDERS, NORMAL) is None


def test_a_joint_viewer_sees_the_orders_of_every_player_it_acts_for() -> None:
    both = Viewer(players=frozenset({"p1", "p3"}))
    assert can_see(both, ORDERS, NORMAL)


def test_same_day_votes_are_secret_to_all_but_the_voter() -> None:
    assert audience(BALLOT, SAME_DAY) == ("owner", "p1")
    assert can_see(OWNER, BALLOT, SAME_DAY)
    assert not can_see(OTHER, BALLOT, SAME_DAY)
    assert shown(SPECTATOR, BALLOT, SAME_DAY) is None


def test_normal_votes_are_public() -> None:
    assert audience(BALLOT, NORMAL) == ("public", None)
    for viewer in (OWNER, OTHER, SPECTATOR):
        assert shown(viewer, BALLOT, NORMAL) == {
            "type": "vote_cast.v1",
            "player_id": "p1",
            "turn": 1,
            "effect": "FEAST",
        }


@pytest.mark.parametrize("viewer", [OWNER, SPECTATOR])
def test_the_seed_is_hidden_from_everyone_but_admins(viewer: Viewer) -> None:
    data = shown(viewer, CREATED, NORMAL)
    assert data is not None
    assert "seed" not in data
    assert data["game_id"] == "g1"


def test_admins_see_everything_including_the_seed() -> None:
    for event in (ORDERS, BALLOT, RESOLVED):
        assert shown(ADMIN_VIEW, event, SAME_DAY) is not None
    data = shown(ADMIN_VIEW, CREATED, NORMAL)
    assert data is not None
    assert data["seed"] == 982_451_653


@pytest.mark.parametrize(
    "event",
    [
        RESOLVED,
        MessageBroadcast(message="hello"),
        PlayerJoined(player_id="p2", account_id="acct-2", name="Bob", color=2, pattern=1),
    ],
)
def test_everything_else_is_public(event: GameEvent) -> None:
    for settings in (NORMAL, SAME_DAY):
        assert audience(event, settings) == ("public", None)
        assert shown(SPECTATOR, event, settings) is not None
