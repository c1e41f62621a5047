"""GET /metrics over a real server: the operator's only, Prometheus' text format, requests
counted by route template, resolutions, appends, lag, sockets and pool; X-Request-Id; and
/v1/health when the read models lag or a background loop has stopped."""

import asyncio
import secrets
from datetime import timedelta

from server.accounts.ratelimit import Rate, RateLimits
from tests.api.game import ORDERS, ScriptedGame
from tests.api.support import OPERATOR_TOKEN, Samples, Server, metric_samples, serving, value
from tests.server.running import CuttableLink


async def scrape(server: Server) -> Samples:
    response = await server.api.client.get(
        "/metrics", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return metric_samples(response.text)


async def test_metrics_count_requests_by_route_and_resolutions_for_the_operator_only(
    schema_url: str,
) -> None:
    async with serving(schema_url) as server:
        api = server.api
        game = ScriptedGame(server)
        await game.create()
        await game.join_and_start()
        before = await scrape(server)
        await game.submit(1)
        await game.resolve()
        nowhere = f"/v1/{secrets.token_hex(8)}"
        assert (await api.client.get(nowhere)).status_code == 404
        after = await scrape(server)
        anonymous = await api.client.get("/metrics")
        player = await api.client.get("/metrics", headers=game.admin.auth)

    assert anonymous.status_code == 401
    assert player.status_code == 403
    assert player.json()["error"]["code"] == "operator_only"

    orders = {"method": "PUT", "route": "/v1/games/{game}/orders", "status": "200"}
    assert value(after, "skirmish_http_requests_total", **orders) - value(
        before, "skirmish_http_requests_total", **orders
    ) == len(ORDERS[1])
    assert value(
        after, "skirmish_http_request_seconds_count", method="PUT", route=orders["route"]
    ) >= value(after, "skirmish_http_requests_total", **orders)
    unmatched = {"method": "GET", "route": "unmatched", "status": "404"}
    assert value(after, "skirmish_http_requests_total", **unmatched) == 1
    labels = {label for (_, pairs) in after for label in pairs}
    assert not any(nowhere in text for _, text in labels)

    assert value(before, "skirmish_resolution_seconds_count") == 0
    assert value(after, "skirmish_resolution_seconds_count") == 1
    assert value(after, "skirmish_event_store_append_seconds_count") > value(
        before, "skirmish_event_store_append_seconds_count"
    )
    assert value(after, "skirmish_database_up") == 1
    for gauge in (
        "skirmish_read_model_lag_events",
        "skirmish_read_model_lag_seconds",
        "skirmish_webhook_backlog",
        "skirmish_webhook_retrying",
        "skirmish_webhook_given_up",
        "skirmish_open_sockets",
    ):
        assert (gauge, frozenset()) in after
    assert value(after, "skirmish_pool_max_connections") == 10
    assert 1 <= value(after, "skirmish_pool_connections") <= 10


async def test_every_answer_carries_a_request_id_and_a_sane_one_is_kept(
    schema_url: str,
) -> None:
    async with serving(schema_url) as server:
        client = server.api.client
        kept = await client.get("/v1/health", headers={"X-Request-Id": "proxy-id.42"})
        made = await client.get("/v1/health")
        again = await client.get("/v1/health")
        too_long = await client.get("/v1/health", headers={"X-Request-Id": "x" * 129})
        forged = await client.get("/v1/health", headers={"X-Request-Id": 'a" b'})
        refused = await client.get("/v1/nothing", headers={"X-Request-Id": "on-a-404"})

    assert kept.headers["x-request-id"] == "proxy-id.42"
    assert refused.headers["x-request-id"] == "on-a-404"
    generated = {made.headers["x-request-id"], again.headers["x-request-id"]}
    assert len(generated) == 2
    for response in (too_long, forged):
        assert response.headers["x-request-id"] not in ("x" * 129, 'a" b')
        assert len(response.headers["x-request-id"]) == 32


async def test_health_is_degraded_while_a_loop_is_stopped_or_the_read_models_lag(
    schema_url: str,
) -> None:
    async with serving(schema_url) as server:
        client = server.api.client
        assert (await client.get("/v1/health")).json()["status"] == "ok"  # started
        loops = {task.get_name(): task for task in server.app.state.background}

        loops["the scheduler"].cancel()
        await asyncio.wait([loops["the scheduler"]])
        scheduler_stopped = (await client.get("/v1/health")).json()

        loops["the read models"].cancel()
        await asyncio.wait([loops["the read models"]])
        account = await server.api.account("Ann")
        await server.api.new_game(account)
        fresh = (await client.get("/v1/health")).json()
        server.clock.set(server.clock.now() + timedelta(seconds=60))
        behind = (await client.get("/v1/health")).json()
        metrics = await scrape(server)

    assert scheduler_stopped["status"] == "degraded"
    assert scheduler_stopped["stopped"] == ["the scheduler"]
    assert scheduler_stopped["lag"]["lagging"] is False
    assert fresh["stopped"] == ["the read models", "the scheduler"]
    assert fresh["lag"]["events"] >= 1
    assert fresh["lag"]["lagging"] is False
    assert behind["status"] == "degraded"
    assert behind["lag"]["seconds"] >= 60
    assert behind["lag"]["lagging"] is True
    assert behind["read_models"] == "ok"
    assert value(metrics, "skirmish_read_model_lag_events") == fresh["lag"]["events"]
    assert value(metrics, "skirmish_read_model_lag_seconds") >= 60


async def test_metrics_answer_without_the_database_figures_while_it_is_down(
    schema_url: str,
) -> None:
    link = CuttableLink(schema_url)
    await link.restore()
    try:
        async with serving(link.url) as server:
            up = await scrape(server)
            await link.cut()
            down = await scrape(server)
            await link.restore()
            back = await scrape(server)
    finally:
        await link.cut()
    assert value(up, "skirmish_database_up") == 1
    assert value(down, "skirmish_database_up") == 0
    assert ("skirmish_read_model_lag_events", frozenset()) not in down
    assert ("skirmish_pool_max_connections", frozenset()) in down
    assert value(back, "skirmish_database_up") == 1


async def test_answers_the_gate_gives_before_routing_count_under_their_route(
    schema_url: str,
) -> None:
    limits = RateLimits(writes=Rate(1, 3600))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        orders = "/v1/games/somegame/orders"
        wrong_token = {"Authorization": "Bearer not-a-token"}
        assert (await client.put(orders, json={}, headers=wrong_token)).status_code == 401
        # The address's one write: refused by the route (no token), then by the gate.
        assert (await client.put(orders, json={})).status_code == 401
        assert (await client.put(orders, json={})).status_code == 429
        # The route's template, whichever method it serves; an unknown path stays unmatched.
        assert (await client.delete(orders, headers=wrong_token)).status_code == 401
        nowhere = f"/v1/{secrets.token_hex(8)}"
        assert (await client.get(nowhere, headers=wrong_token)).status_code == 401
        after = await scrape(server)

    route = "/v1/games/{game}/orders"
    for method, status, count in (("PUT", "401", 2), ("PUT", "429", 1), ("DELETE", "401", 1)):
        labels = {"method": method, "route": route, "status": status}
        assert value(after, "skirmish_http_requests_total", **labels) == count, labels
    unmatched = {"method": "GET", "route": "unmatched", "status": "401"}
    assert value(after, "skirmish_http_requests_total", **unmatched) == 1
    for status in ("401", "429"):
        assert (
            value(
                after,
                "skirmish_http_requests_total",
                method="PUT",
                route="unmatched",
                status=status,
            )
            == 0
        )
