"""Who may see each event (rules.md, "Who sees what before a turn resolves")."""

import msgspec
import pytest
from msgspec.structs import replace

from projections.game import GameState
from projections.visibility import Viewer, can_see, owners_of, shown
from rules.kit.prng import commitment
from rules.skirmish.maps import builtin_map
from schema.game_events import (
    GameCreated,
    GameEvent,
    GameStarted,
    JoinForcesRequested,
    MessageBroadcast,
    OrdersSubmitted,
    PlayerJoined,
    PlayerNotified,
    PlayRecorded,
    PrivateEventsRead,
    RecordedPosition,
    Settings,
    TurnRewound,
    VoteCast,
)
from tests.projections.skirmish_events import turn_resolved
from tests.server.decide.given import ADMIN, NOON, T0

NORMAL = Settings(name="Seen")
SAME_DAY = Settings(name="Seen", voting_mode="same_day")
SECRET = bytes(range(32))
# A game at turn 1, and the same game once turn 1 has resolved.
AT_TURN_1 = GameState(phase="running", settings=NORMAL, turn=1, secret=SECRET.hex())
AT_TURN_2 = GameState(phase="running", settings=NORMAL, turn=2, secret=SECRET.hex())
SAME_DAY_GAME = GameState(phase="running", settings=SAME_DAY, turn=1)

OWNER = Viewer(players=frozenset({"p1"}))
OTHER = Viewer(players=frozenset({"p2"}))
# An admin who plays p2 sees what p2 sees: that is OTHER. An admin who plays no seat, and
# the operator, see who acted, and no private event.
MODERATOR = Viewer(sees_actors=True)
OPERATOR = Viewer(sees_actors=True, operator=True)
SPECTATOR = Viewer.spectator()

ORDERS = OrdersSubmitted(
    player_id="p1",
    turn=1,
    text="AB to CD",
    account_id="acct-1",
    checked=[],
    receipt="ab" * 32,
    nonce="cd" * 32,
)
BALLOT = VoteCast(player_id="p1", turn=1, effect="FEAST")
# p1 asks p3 to join forces.
REQUEST = JoinForcesRequested(player_id="p1", with_player="p3", turn=1)
REMINDER = PlayerNotified(player_id="p1", kind="reminder", turn=1, text="soon")
CREATED = GameCreated(game_id="g1", settings=NORMAL, admin=ADMIN, seed=982_451_653, at=T0)
STARTED = GameStarted(
    map=builtin_map("rulebook"),
    board=RecordedPosition(armies={}, control={}, farms=[]),
    homes={},
    at=T0,
    secret=SECRET.hex(),
    commitment=commitment(SECRET),
)
READ = PrivateEventsRead(reader=ADMIN, turn=1)
RESOLVED = turn_resolved(board=RecordedPosition(armies={}, control={}, farms=[]))


def test_orders_are_their_owners_alone() -> None:
    assert owners_of(ORDERS, AT_TURN_1) == frozenset({"p1"})
    assert shown(OWNER, ORDERS, AT_TURN_1) == {
        "type": "orders_submitted.v1",
        "player_id": "p1",
        "turn": 1,
        "text": "AB to CD",
        "account_id": "acct-1",
        "checked": [],
        "receipt": "ab" * 32,
        "nonce": "cd" * 32,
    }
    for viewer in (OTHER, SPECTATOR, MODERATOR, OPERATOR, OTHER.own_seats_only()):
        assert not can_see(viewer, ORDERS, AT_TURN_1)
        assert shown(viewer, ORDERS, AT_TURN_1) is None


def test_a_resolved_turns_submissions_are_revealed_to_all_with_their_nonce() -> None:
    for viewer in (OTHER, SPECTATOR, MODERATOR):
        assert shown(viewer, ORDERS, AT_TURN_2) == shown(OWNER, ORDERS, AT_TURN_1)
    # Other private events stay private.
    for viewer in (OTHER, MODERATOR, OPERATOR):
        assert not can_see(viewer, REMINDER, AT_TURN_2)
        assert not can_see(viewer, BALLOT, replace(SAME_DAY_GAME, turn=2))


def test_a_join_forces_request_is_its_sender_and_the_player_asked_until_resolved() -> None:
    assert owners_of(REQUEST, AT_TURN_1) == frozenset({"p1", "p3"})
    asked = Viewer(players=frozenset({"p3"}))
    for viewer in (OWNER, asked, asked.own_seats_only()):
        assert can_see(viewer, REQUEST, AT_TURN_1)
    for viewer in (OTHER, SPECTATOR, MODERATOR, OPERATOR):
        assert not can_see(viewer, REQUEST, AT_TURN_1)
        assert can_see(viewer, REQUEST, AT_TURN_2)
        # A socket sent it as it was: hidden.
        assert not can_see(viewer.own_seats_only(), REQUEST, AT_TURN_2)


def test_the_archive_and_sockets_reveal_nothing_a_resolution_revealed_later() -> None:
    # What a rewind removed never resolved, even once the game has passed its turn; a socket
    # sends each event as it was when it happened.
    for viewer in (OTHER, SPECTATOR, MODERATOR):
        assert not can_see(viewer.own_seats_only(), ORDERS, AT_TURN_2)
    assert can_see(OWNER.own_seats_only(), ORDERS, AT_TURN_2)


def test_a_joint_viewer_sees_the_orders_of_every_player_it_acts_for() -> None:
    both = Viewer(players=frozenset({"p1", "p3"}))
    assert can_see(both, ORDERS, AT_TURN_1)


def test_same_day_votes_are_secret_to_all_but_the_voter() -> None:
    assert owners_of(BALLOT, SAME_DAY_GAME) == frozenset({"p1"})
    assert can_see(OWNER, BALLOT, SAME_DAY_GAME)
    assert not can_see(OTHER, BALLOT, SAME_DAY_GAME)
    assert shown(SPECTATOR, BALLOT, SAME_DAY_GAME) is None


def test_normal_votes_are_public() -> None:
    assert owners_of(BALLOT, AT_TURN_1) is None
    for viewer in (OWNER, OTHER, SPECTATOR):
        assert shown(viewer, BALLOT, AT_TURN_1) == {
            "type": "vote_cast.v1",
            "player_id": "p1",
            "turn": 1,
            "effect": "FEAST",
        }


def test_no_admin_nor_the_operator_sees_another_players_private_event() -> None:
    private = ((ORDERS, AT_TURN_1), (BALLOT, SAME_DAY_GAME), (REMINDER, AT_TURN_1))
    for event, state in (*private, (REQUEST, AT_TURN_1)):
        for viewer in (MODERATOR, OPERATOR):
            assert not can_see(viewer, event, state)


def test_a_sandbox_admin_plays_every_seat_and_sees_everything() -> None:
    sandbox_admin = Viewer(players=frozenset({"p1", "p2", "p3"}), sees_actors=True)
    for event in (ORDERS, REMINDER, REQUEST):
        assert can_see(sandbox_admin, event, AT_TURN_1)
    assert can_see(sandbox_admin, BALLOT, SAME_DAY_GAME)


def test_a_moderators_read_in_an_old_log_is_public() -> None:
    # Older servers recorded it; it holds nobody's secret.
    for viewer in (OWNER, OTHER, SPECTATOR, MODERATOR, OTHER.own_seats_only()):
        assert can_see(viewer, READ, AT_TURN_1)


def test_the_seed_is_public_it_only_picks_the_map() -> None:
    data = shown(SPECTATOR, CREATED, AT_TURN_1)
    assert data is not None
    assert data["seed"] == 982_451_653


@pytest.mark.parametrize("viewer", [OWNER, SPECTATOR, MODERATOR])
def test_the_secret_in_use_is_shown_to_nobody_while_the_game_goes_on(viewer: Viewer) -> None:
    data = shown(viewer, STARTED, AT_TURN_2)
    assert data is not None
    assert "secret" not in data
    assert data["commitment"] == commitment(SECRET)


def test_the_secret_is_revealed_when_the_game_ends_or_in_a_sandbox() -> None:
    finished = GameState(phase="finished", settings=NORMAL, turn=5, secret=SECRET.hex())
    sandbox = GameState(
        phase="running", settings=Settings(name="S", sandbox=True), turn=1, secret=SECRET.hex()
    )
    for state in (finished, sandbox):
        data = shown(SPECTATOR, STARTED, state)
        assert data is not None
        assert data["secret"] == SECRET.hex()


def test_a_secret_replaced_by_a_rewind_is_revealed_and_the_new_one_hidden() -> None:
    new = bytes(32)
    rewound = TurnRewound(turn=4, at=NOON, secret=new.hex(), commitment=commitment(new))
    state = GameState(phase="running", settings=NORMAL, turn=4, secret=new.hex())
    old = shown(SPECTATOR, STARTED, state)
    assert old is not None
    assert old["secret"] == SECRET.hex()
    current = shown(SPECTATOR, rewound, state)
    assert current is not None
    assert "secret" not in current


@pytest.mark.parametrize(
    "event",
    [
        RESOLVED,
        MessageBroadcast(message="hello"),
        PlayerJoined(player_id="p2", account_id="acct-2", name="Bob", color=2, pattern=1),
    ],
)
def test_everything_else_is_public(event: GameEvent) -> None:
    for state in (AT_TURN_1, SAME_DAY_GAME):
        assert owners_of(event, state) is None
        assert shown(SPECTATOR, event, state) is not None


def test_a_private_step_is_its_audience_alone_for_ever() -> None:
    """A game's `Private` move (a private message): its sender's and recipient's, never
    revealed by a later turn, to no moderator and not to the operator."""
    step = PlayRecorded(
        turn=1, kind="act", events=msgspec.Raw(b"[]"), player_id="p1", audience=["p1", "p3"]
    )
    assert owners_of(step, AT_TURN_2) == frozenset({"p1", "p3"})
    for viewer in (OWNER, Viewer(players=frozenset({"p3"}))):
        assert can_see(viewer, step, AT_TURN_2)
    for viewer in (OTHER, MODERATOR, OPERATOR, SPECTATOR):
        assert not can_see(viewer, step, AT_TURN_2)
    public = replace(step, audience=None)
    assert all(can_see(v, public, AT_TURN_1) for v in (OTHER, MODERATOR, SPECTATOR))
