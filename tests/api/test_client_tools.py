"""`skirmish clients list|create|rotate|revoke`, run as the console script on the database of a
running server: what it makes works on the server at once, and what it ends closes the
server's sockets (docs/operations.md, "Trusted clients")."""

from tests.api.support import Json, Live, Server
from tests.server.running import run_skirmish

UMA_HEADERS = {"X-Acting-User": "u-1", "X-Acting-User-Name": "Uma"}


def _caught_up(messages: list[Json]) -> bool:
    return any(m["type"] == "standings" for m in messages)


async def test_the_operator_manages_trusted_clients_from_the_command_line(
    server: Server, schema_url: str
) -> None:
    api = server.api
    made = await run_skirmish(schema_url, "clients", "create", "discord-bot")
    assert made.returncode == 0, made.stderr
    (token,) = made.stdout.split()
    assert "made trusted client client_" in made.stderr
    client_id = made.stderr.split()[3]
    me: Json = await api.call("GET", "/v1/me", token, headers=UMA_HEADERS)
    assert me["client"]["client_id"] == client_id

    listed = await run_skirmish(schema_url, "clients", "list")
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()
    assert header.split() == ["CLIENT", "NAME", "CREATED", "ROTATED", "REVOKED", "USERS"]
    assert row.split()[:2] == [client_id, "discord-bot"]
    assert row.split()[-3:] == ["-", "-", "1"]
    assert token not in listed.stdout

    ann = await api.account("Ann")
    game = (await api.new_game(ann)).id
    await api.call("POST", f"/v1/games/{game}/join", token, headers=UMA_HEADERS)
    headers = {"Authorization": f"Bearer {token}", "X-Acting-User": "u-1"}
    async with Live.open(server.base, game, headers=headers) as live:
        await live.wait_for(_caught_up)
        rotated = await run_skirmish(schema_url, "clients", "rotate", client_id)
        assert rotated.returncode == 0, rotated.stderr
        # Told by another process, the server closes the old token's socket.
        assert await live.wait_closed() == 4401
    (new_token,) = rotated.stdout.split()
    await api.call("GET", "/v1/me", token, expect=401, headers=UMA_HEADERS)
    again: Json = await api.call("GET", "/v1/me", new_token, headers=UMA_HEADERS)
    assert again["account_id"] == me["account_id"]

    revoked = await run_skirmish(schema_url, "clients", "revoke", client_id)
    assert revoked.returncode == 0, revoked.stderr
    assert revoked.stdout == ""
    error = await api.call("GET", "/v1/me", new_token, expect=401, headers=UMA_HEADERS)
    assert error["error"]["code"] == "bad_token"
    (row,) = (await run_skirmish(schema_url, "clients", "list")).stdout.splitlines()[1:]
    assert "-" not in row.split()[-3:-1]

    for command in ("rotate", "revoke"):
        missing = await run_skirmish(schema_url, "clients", command, "client_nobody")
        assert missing.returncode == 2
        assert "there is no trusted client 'client_nobody'" in missing.stderr
    bad = await run_skirmish(schema_url, "clients", "create", "x" * 33)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert "too long" in bad.stderr
