"""Each of the tests' games (plans.py) through every step a game of the server has, the same
test for both: created, joined and played to its end while sockets follow it; forked and
rewound, each playing on to a draw; timed out by the clock to its end; and each game verified
(GET /verify, `skirmish verify`) and replayed (`skirmish replay`), through the real server."""

from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from server.ops.replay_store import replay_store
from tests.api.support import (
    OPERATOR_TOKEN,
    START,
    Account,
    Api,
    Live,
    Server,
    make_move,
    public_game,
)
from tests.games.conftest import GAMES
from tests.games.plans import PLANS, Plan, Step
from tests.server.running import run_skirmish

Json = dict[str, Any]
SECONDS = 60


@pytest.fixture(params=PLANS, ids=lambda plan: plan.game)
def plan(request: pytest.FixtureRequest) -> Plan:
    chosen: Plan = request.param
    return chosen


@dataclass(frozen=True)
class Table:
    """A game being played: its seats' accounts, and who plays first and second."""

    api: Api
    game_id: str
    admin: Account
    accounts: dict[str, Account]
    order: tuple[str, str]
    # A sandbox fork, whose admin plays every seat.
    sandbox: bool = False

    async def play(self, steps: tuple[Step, ...]) -> None:
        for step in steps:
            for who, move in step:
                seat = self.order[who]
                if self.sandbox:
                    body = {"move": move, "player": seat}
                    await self.api.call("POST", f"/v1/games/{self.game_id}/moves", self.admin, body)
                else:
                    await make_move(self.api, self.game_id, self.accounts[seat], move)

    def results(self, first: str, second: str) -> Json:
        return {self.order[0]: first, self.order[1]: second}

    async def view(self) -> Json:
        return await public_game(self.api, self.game_id)


async def _joined(api: Api, plan: Plan, **options: Any) -> tuple[str, Account, Account]:
    """A game of the plan's, joined by its admin (p1) and another (p2), not started."""
    one, two = await api.account("one"), await api.account("two")
    body = {"name": plan.game, "game": plan.game, "options": {**plan.options, **options}}
    game_id = (await api.call("POST", "/v1/games", one, body, expect=201))["id"]
    for who in (one, two):
        await api.join(game_id, who)
    return game_id, one, two


async def _started(api: Api, plan: Plan, **options: Any) -> Table:
    game_id, one, two = await _joined(api, plan, **options)
    await api.start(game_id, one)
    order = plan.order(await public_game(api, game_id))
    return Table(api, game_id, one, {"p1": one, "p2": two}, order)


def _steps(socket: Live) -> list[Json]:
    return [e["data"] for e in socket.events if e["type"] == "play_recorded.v1"]


async def _verified_and_replayed(server: Server, game_id: str) -> int:
    """The steps the game replays, through GET /verify and `skirmish replay`'s replay_store
    alike, each finding no difference."""
    verified = await server.api.call("GET", f"/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified
    report = await replay_store(server.app.state.services.games.store, game_id)
    assert (report.games, report.differences) == (1, [])
    assert report.turns == verified["turns_replayed"]
    return report.turns


async def test_a_game_is_played_to_its_end_as_its_sockets_follow(
    server: Server, plan: Plan
) -> None:
    api = server.api
    table = await _started(api, plan)
    second = table.accounts[table.order[1]]
    async with (
        Live.open(server.base, table.game_id) as spectator,
        Live.open(server.base, table.game_id, token=second.token) as player,
    ):
        await table.play((*plan.opening, plan.won))
        view = await table.view()
        assert (view["phase"], view["to_move"]) == ("finished", [])
        assert view["ending"]["results"] == table.results("won", "lost")
        for socket in (spectator, player):
            await socket.wait_for_position(view["position"])
    kind = "resolution" if plan.sealed else "move"
    turns = range(1, len(plan.opening) + 2)
    seen = [(step["turn"], step["kind"]) for step in _steps(spectator)]
    assert seen == [(turn, kind) for turn in turns]
    assert _steps(player) == _steps(spectator)
    # The second seat's socket told it of each of its turns.
    told = {m["turn"] for m in player.of_type("your_turn")}
    mine = {n for n, step in enumerate((*plan.opening, plan.won), 1) if any(w for w, _ in step)}
    assert mine <= told
    # The setup's step, and one a turn.
    assert await _verified_and_replayed(server, table.game_id) == len(plan.opening) + 2


async def test_a_fork_and_a_rewind_each_play_on_to_a_draw(
    server: Server, plan: Plan, schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = server.api
    source = await _started(api, plan)
    await source.play((*plan.opening, plan.won))
    turn = len(plan.opening) + 1
    path = f"/v1/games/{source.game_id}"
    forked = await api.call("POST", f"{path}/fork", source.admin, {"turn": turn}, expect=201)
    fork = replace(source, game_id=forked["id"], sandbox=True)
    view = await fork.view()
    assert (view["phase"], view["turn"]) == ("running", turn)
    last = turn + len(plan.drawn) - 1
    async with (
        Live.open(server.base, source.game_id) as on_the_source,
        Live.open(server.base, fork.game_id) as on_the_fork,
    ):
        # Caught up first: a rewind takes back what a socket still catching up would miss.
        await on_the_source.wait_for_position((await source.view())["position"])
        await fork.play(plan.drawn)
        await api.call("POST", f"{path}/admin/rewind", source.admin, {"reason": "again"})
        view = await source.view()
        assert (view["phase"], view["turn"], view["ending"]) == ("running", turn, None)
        await source.play(plan.drawn)
        for table, socket in ((source, on_the_source), (fork, on_the_fork)):
            view = await table.view()
            assert (view["phase"], view["turn"]) == ("finished", last + 1)
            assert view["ending"]["results"] == table.results("drew", "drew")
            await socket.wait_for_position(view["position"])
    # The source's socket saw its steps, the rewind taking back the last, and the steps again.
    seen = [
        "rewound" if m["type"] == "rewound" else m["event"]["data"]["turn"]
        for m in on_the_source.messages
        if m["type"] == "rewound" or m.get("event", {}).get("type") == "play_recorded.v1"
    ]
    assert seen == [*range(1, turn + 1), "rewound", *range(turn, last + 1)]
    assert [step["turn"] for step in _steps(on_the_fork)] == list(range(turn, last + 1))
    # A fork of the fork, at its own last turn.
    body = {"turn": last}
    again = await api.call("POST", f"/v1/games/{fork.game_id}/fork", source.admin, body, expect=201)
    again_id = again["id"]
    # The source's setup, opening and draw (the step rewound is archived); the fork's draw.
    steps = [
        await _verified_and_replayed(server, g) for g in (source.game_id, fork.game_id, again_id)
    ]
    assert steps == [1 + len(plan.opening) + len(plan.drawn), len(plan.drawn), 0]

    # The command line tools, as an operator runs them, with the server's games.
    monkeypatch.setenv("SKIRMISH_GAMES", ",".join(GAMES))
    # Where the games' package is found, as an operator installs a game's.
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parents[2]))
    verified = await run_skirmish(schema_url, "verify")
    assert (verified.returncode, verified.stdout.count(": ok, head ")) == (0, 3), verified
    assert "verified 3 games: 0 differ" in verified.stderr
    replayed = await run_skirmish(schema_url, "replay")
    assert replayed.returncode == 0, replayed
    assert "of 3 games: 0 differ" in replayed.stderr


async def _advance(api: Api, seconds: float) -> None:
    await api.call("POST", "/v1/admin/clock", OPERATOR_TOKEN, {"advance_seconds": seconds})


async def test_a_move_before_the_start_is_refused(server: Server, plan: Plan) -> None:
    # The room asked the game whom its play waits for before there was a play: a 500.
    game_id, one, _ = await _joined(server.api, plan)
    refused = await make_move(server.api, game_id, one, plan.opening[0][0][1], expect=409)
    assert refused["error"] == {
        "code": "wrong_phase",
        "message": "the game is joining; this needs it running",
    }


async def test_a_clock_out_of_bounds_is_refused(server: Server, plan: Plan) -> None:
    api = server.api
    one = await api.account("one")
    for seconds in (0, 86_401, 1.5, True):
        options = {**plan.options, "seconds": seconds}
        body = {"name": plan.game, "game": plan.game, "options": options}
        refused = await api.call("POST", "/v1/games", one, body, expect=422)
        assert refused["error"]["code"] == "options_refused", refused


def _at(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


async def test_the_clock_times_each_wait_out_to_the_end(server: Server, plan: Plan) -> None:
    api = server.api
    table = await _started(api, plan, seconds=SECONDS)
    assert (await table.view())["next_resolution_at"] == _at(SECONDS)
    async with Live.open(server.base, table.game_id) as spectator:
        await table.play((plan.before_the_clock,))
        await _advance(api, SECONDS - 1)
        assert (await table.view())["turn"] == 1
        await _advance(api, 1)
        view = await table.view()
        assert (view["turn"], view["next_resolution_at"]) == (2, _at(2 * SECONDS))
        # One move of the clock, stopping at each wait's end on its way (clock_steps.py).
        await _advance(api, 9 * SECONDS)
        view = await table.view()
        assert view["ending"]["results"] == table.results("won", "lost")
        assert view["next_resolution_at"] is None
        await spectator.wait_for_position(view["position"])
    steps = _steps(spectator)
    assert [step["kind"] for step in steps] == ["timeout"] * plan.timeouts
    # A sealed wait is resolved for nobody; a wait of turns times out the seat it waits for.
    seats = [None] * len(steps) if plan.sealed else [table.order[n % 2] for n in range(len(steps))]
    assert [step["player_id"] for step in steps] == seats
    assert await _verified_and_replayed(server, table.game_id) == 1 + len(steps)
