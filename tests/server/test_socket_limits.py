"""Counting open websockets per account, per address and in all (server.live.limits), and
their limits from the environment."""

from contextlib import ExitStack

import pytest

from schema.errors import Refusal
from server.accounts.store import OPERATOR, Identity
from server.live.limits import OpenSockets
from server.settings import Settings, SettingsError

ANN = Identity("acct-ann", "Ann")
BOB = Identity("acct-bob", "Bob")


def _limits(
    sockets_per_account: int = 20, sockets_per_address: int = 200, sockets_total: int = 10_000
) -> OpenSockets:
    return OpenSockets(
        Settings(
            sockets_per_account=sockets_per_account,
            sockets_per_address=sockets_per_address,
            sockets_total=sockets_total,
        )
    )


def test_an_account_past_its_limit_is_refused_and_others_are_not() -> None:
    sockets = _limits(sockets_per_account=2, sockets_per_address=10)
    with ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(sockets.seat()).take_address("10.0.0.1")
        with sockets.seat() as seat:
            seat.take_address("10.0.0.1")
            seat.take_account(ANN)
            with sockets.seat() as again:
                again.take_address("10.0.0.2")
                again.take_account(ANN)
                with sockets.seat() as third:
                    third.take_address("10.0.0.3")
                    with pytest.raises(Refusal) as refused:
                        third.take_account(ANN)
                    third.take_account(BOB)
    assert refused.value.status == 429
    assert "account" in refused.value.message
    assert sockets.counts == {}


def test_an_address_and_the_whole_process_have_limits_of_their_own() -> None:
    sockets = _limits(sockets_per_address=2, sockets_total=3)
    with ExitStack() as stack:
        for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2"):
            stack.enter_context(sockets.seat()).take_address(address)
        assert sockets.total == 3
        with sockets.seat() as seat, pytest.raises(Refusal, match="too many") as full:
            seat.take_address("10.0.0.3")
        assert full.value.status == 429
    with sockets.seat() as first, sockets.seat() as second:
        first.take_address("10.0.0.1")
        second.take_address("10.0.0.1")
        with sockets.seat() as third, pytest.raises(Refusal, match="from here"):
            third.take_address("10.0.0.1")
        with sockets.seat() as elsewhere:
            elsewhere.take_address("10.0.0.2")
            assert sockets.total == 3
    assert sockets.counts == {}


def test_a_refused_socket_gives_back_what_it_took() -> None:
    sockets = _limits(sockets_per_account=1)
    with sockets.seat() as holding:
        holding.take_address("10.0.0.1")
        holding.take_account(ANN)
        with sockets.seat() as refused:
            refused.take_address("10.0.0.1")
            with pytest.raises(Refusal):
                refused.take_account(ANN)
            assert sockets.total == 2
        assert sockets.total == 1
    assert sockets.total == 0


def test_the_operator_and_spectators_count_by_address_only() -> None:
    sockets = _limits(sockets_per_account=1, sockets_per_address=5)
    operator = Identity(OPERATOR, "operator", operator=True)
    with ExitStack() as stack:
        for _ in range(4):
            seat = stack.enter_context(sockets.seat())
            seat.take_address("10.0.0.1")
            seat.take_account(operator)
        spectator = stack.enter_context(sockets.seat())
        spectator.take_address("10.0.0.1")
        spectator.take_account(None)
        assert sockets.counts == {"total": 5, "address 10.0.0.1": 5}


def test_socket_limits_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "SKIRMISH_SOCKETS_PER_ACCOUNT": "5",
            "SKIRMISH_SOCKETS_PER_IP": "50",
            "SKIRMISH_SOCKETS_TOTAL": "500",
        }
    )
    assert (settings.sockets_per_account, settings.sockets_per_address) == (5, 50)
    assert settings.sockets_total == 500
    defaults = Settings.from_env({})
    assert (defaults.sockets_per_account, defaults.sockets_per_address) == (20, 200)
    assert defaults.sockets_total == 10_000


@pytest.mark.parametrize("value", ["0", "-1", "many", "2000000", "1.5"])
@pytest.mark.parametrize(
    "name", ["SKIRMISH_SOCKETS_PER_ACCOUNT", "SKIRMISH_SOCKETS_PER_IP", "SKIRMISH_SOCKETS_TOTAL"]
)
def test_a_bad_socket_limit_is_refused(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})
