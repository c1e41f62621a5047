"""`skirmish serve --log-format json`: every line of its log is one JSON object, and the
lines written while a request is served carry its id."""

import json
import os

import httpx

from server.ops.logs import sane
from tests.api.support import OPERATOR_TOKEN
from tests.server.running import serve_subprocess


async def test_serve_logs_json_lines_with_the_request_id(schema_url: str) -> None:
    environment = {
        **os.environ,
        "DATABASE_URL": schema_url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR_TOKEN,
        "SKIRMISH_POOL_SIZE": "4",
    }
    log: list[str] = []
    async with (
        serve_subprocess("--log-format", "json", environment=environment, log=log) as base,
        httpx.AsyncClient(base_url=base) as client,
    ):
        health = await client.get("/v1/health", headers={"X-Request-Id": "probe-1"})
        live = await client.get("/v1/games/nope/live?token=secret-in-the-query")
    assert health.headers["x-request-id"] == "probe-1"
    lines = [line for line in "".join(log).splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]  # every line parses
    assert all({"time", "level", "logger", "message"} <= entry.keys() for entry in entries)
    [access] = [e for e in entries if e.get("request_id") == "probe-1"]
    assert access["logger"] == "uvicorn.access"
    assert "GET /v1/health" in access["message"]
    [refused] = [e for e in entries if e.get("request_id") == live.headers["x-request-id"]]
    assert "secret-in-the-query" not in refused["message"]
    assert any("Uvicorn running on" in e["message"] for e in entries)
    # Lines outside any request carry no id.
    assert any("request_id" not in e for e in entries)


def test_a_request_id_is_kept_only_when_it_is_short_visible_ascii() -> None:
    assert sane("a-b_c.d:42") == "a-b_c.d:42"
    for bad in (None, "", "x" * 129, "with space", "new\nline", 'quo"te', "é"):
        assert sane(bad) is None
