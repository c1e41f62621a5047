"""Refusals become exceptions of their kind, with the code, message and Retry-After."""

import pytest

from client import (
    ApiError,
    Conflict,
    Forbidden,
    Gone,
    Invalid,
    NotFound,
    RateLimited,
    SkirmishClient,
    TooLarge,
    Unauthorized,
    Unavailable,
    Unreachable,
)
from client.errors import error_from_answer
from schema.api import NewGame
from server.accounts.ratelimit import Rate, RateLimits
from tests.api.support import Server, serving
from tests.support import free_port


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, Invalid),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (409, Conflict),
        (410, Gone),
        (413, TooLarge),
        (422, Invalid),
        (429, RateLimited),
        (503, Unavailable),
        (418, ApiError),
    ],
)
def test_each_status_has_its_kind_and_keeps_code_message_and_retry_after(
    status: int, kind: type[ApiError]
) -> None:
    body = b'{"error": {"code": "some_code", "message": "what went wrong"}}'
    error = error_from_answer(status, body, "7")
    assert type(error) is kind
    assert (error.status, error.code, error.message, error.retry_after) == (
        status,
        "some_code",
        "what went wrong",
        7.0,
    )


def test_an_answer_not_in_the_error_form_keeps_its_text() -> None:
    error = error_from_answer(502, b"<html>Bad gateway</html>", None)
    assert (error.code, error.message, error.retry_after) == (
        "http_502",
        "<html>Bad gateway</html>",
        None,
    )


async def test_the_servers_refusals_raise_typed_errors_with_their_codes(
    server: Server, anyone: SkirmishClient
) -> None:
    ann = anyone.using((await anyone.create_account("Ann")).token)
    bob = anyone.using((await anyone.create_account("Bob")).token)
    game = await ann.create_game(NewGame("Errors", fast_mode=True))
    with pytest.raises(Unauthorized) as no_token:
        await anyone.join(game.id)
    assert no_token.value.code == "token_required"
    with pytest.raises(Unauthorized) as bad_token:
        await anyone.using("not-a-token").get_game(game.id)
    assert bad_token.value.code == "bad_token"
    with pytest.raises(Forbidden) as not_admin:
        await bob.start(game.id)
    assert not_admin.value.status == 403
    with pytest.raises(NotFound):
        await anyone.get_game("no-such-game")
    with pytest.raises(Invalid) as too_long:
        await anyone.create_account("x" * 100)
    assert too_long.value.status == 422
    with pytest.raises(TooLarge):
        await ann.submit_orders(game.id, "EA H, " * 20_000)
    await ann.join(game.id)
    with pytest.raises(Conflict) as twice:
        await ann.join(game.id)
    assert twice.value.code
    await ann.kill(game.id)
    with pytest.raises(Gone) as killed:
        await anyone.get_game(game.id)
    assert killed.value.status == 410


async def test_a_rate_limit_raises_rate_limited_with_retry_after(schema_url: str) -> None:
    async with (
        serving(schema_url, rate_limits=RateLimits(accounts=Rate(1, 3600))) as server,
        SkirmishClient(server.base) as anyone,
    ):
        await anyone.create_account("Ann")
        with pytest.raises(RateLimited) as limited:
            await anyone.create_account("Bob")
    assert limited.value.code == "rate_limited"
    assert limited.value.retry_after is not None
    assert limited.value.retry_after >= 1


async def test_a_server_that_is_not_there_is_unreachable() -> None:
    port = free_port()
    async with SkirmishClient(f"http://127.0.0.1:{port}") as client:
        with pytest.raises(Unreachable) as nobody:
            await client.health()
    assert (nobody.value.status, nobody.value.code) == (0, "unreachable")
