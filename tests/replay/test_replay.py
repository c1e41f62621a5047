"""Regression replay: the recorded corpus of bot games replays with no difference, a changed
rule is caught with a diff naming the turn, and `skirmish replay` does the same over the
store, against real PostgreSQL."""

import sys
import uuid
from pathlib import Path

import msgspec
import pytest

from eventstore.postgres import PostgresEventStore
from projections.evolve import fold
from projections.game import GameState
from projections.loading import stream_of
from schema.game_events import GameEvent, TurnResolved, game_codec
from schema.verification import TurnDifference
from server.game.handlers import GameService
from server.ops.replay import describe, replay_game
from server.ops.replay_store import replay_store
from tests.replay.declared import DeclaredChange, load_declared, undeclared
from tests.replay.record import BEGAN, CORPUS, GAMES, decode, encode, play
from tests.replay.record_moves import MOVES_GAMES, play_moves
from tests.server.running import run_skirmish
from tests.server.scripted import ScriptedGame

SKIRMISH = Path(sys.executable).parent / "skirmish"
DECLARED = Path(__file__).parent / "declared.toml"


def corpus() -> dict[str, list[GameEvent]]:
    return {path.stem: decode(path.read_bytes()) for path in sorted(CORPUS.glob("*.json"))}


def replay_corpus() -> list[TurnDifference]:
    differences: list[TurnDifference] = []
    for game_id, events in corpus().items():
        turns, found = replay_game(game_id, events)
        assert turns > 0, game_id
        differences.extend(found)
    return differences


def test_the_corpus_holds_every_game_of_the_recorders_from_2_to_20_players() -> None:
    recorded = [game.game_id for game in GAMES] + [game.game_id for game in MOVES_GAMES]
    assert sorted(corpus()) == sorted(recorded)
    assert {game.players for game in GAMES} >= {3, 20}
    seated = {len(game.strategies) for game in MOVES_GAMES if game.game == "art-of-war"}
    assert seated >= {2, 5, 20}
    assert any(game.game == "skor" for game in MOVES_GAMES)


def test_the_recorders_record_a_game_the_same_way_twice() -> None:
    game = GAMES[0]
    assert encode(play(game)) == encode(play(game))
    for moves_game in MOVES_GAMES:
        assert (
            encode(play_moves(moves_game)) == (CORPUS / f"{moves_game.game_id}.json").read_bytes()
        )


def test_every_game_of_bots_in_the_corpus_plays_to_its_end() -> None:
    games = corpus()
    for moves_game in MOVES_GAMES:
        events = games[moves_game.game_id]
        state = fold(GameState(), enumerate(events, start=1))
        assert state.phase == "finished", moves_game.game_id
        turns, differences = replay_game(moves_game.game_id, events)
        assert turns > 5
        assert differences == []


def test_the_corpus_replays_with_no_undeclared_difference() -> None:
    differences = undeclared(replay_corpus(), load_declared(DECLARED))
    assert not differences, "\n".join(describe(d) for d in differences)


def test_a_changed_rule_is_caught_with_a_diff_naming_the_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Expansion pays from 3 territories instead of 5.
    monkeypatch.setattr("rules.skirmish.scoring.EXPANSION_MINIMUM", 3)
    differences = replay_corpus()
    assert differences
    first = differences[0]
    assert any(change.field.startswith("vp") for change in first.changes)
    text = describe(first)
    assert text.startswith(f"game {first.game_id}, turn {first.turn}:\n")
    assert "\n    - " in text
    assert "\n    + " in text
    # Declared, the same differences pass.
    declared = [DeclaredChange(d.game_id, d.turn, "expansion from 3") for d in differences]
    assert undeclared(differences, declared) == []
    assert undeclared(differences, declared[1:]) == [first]


def test_a_declared_change_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "declared.toml"
    path.write_text('[[change]]\ngame = "g1"\nturn = 4\nreason = "issue 42"\n')
    assert load_declared(path) == [DeclaredChange("g1", 4, "issue 42")]
    assert load_declared(DECLARED) == []


def tampered(events: list[GameEvent], turn: int) -> list[GameEvent]:
    """The events with one more VP recorded for a player at `turn`."""
    out: list[GameEvent] = []
    for event in events:
        if isinstance(event, TurnResolved) and event.turn == turn:
            player = min(event.vp)
            event = msgspec.structs.replace(event, vp={**event.vp, player: event.vp[player] + 1})
        out.append(event)
    return out


async def append(store: PostgresEventStore, game_id: str, events: list[GameEvent]) -> None:
    await store.append(
        stream_of(game_id),
        [
            game_codec.new_event(e, occurred_at=BEGAN, actor="bots", correlation_id=uuid.uuid4())
            for e in events
        ],
        expected_version=0,
    )


async def test_the_store_replays_a_game_played_through_the_service_with_a_rewind(
    postgres_store: PostgresEventStore,
) -> None:
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    await game.play_turn()
    await game.rewind()
    await game.play_turn()
    await game.play_turn()
    report = await replay_store(postgres_store)
    assert (report.games, report.turns, report.differences) == (1, 2, [])


async def test_skirmish_replay_exits_1_with_the_diff_of_a_turn_that_differs(
    postgres_store: PostgresEventStore, schema_url: str
) -> None:
    games = corpus()
    await append(postgres_store, "clean", games["bots-3p-normal-normal"])
    await append(postgres_store, "tampered", tampered(games["bots-4p-normal-same_day"], 3))

    done = await run_skirmish(schema_url, "replay")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("game tampered, turn 3:\n  vp.")
    # The tampered VP carries into the next turn, which differs too (from the recorded VP).
    assert "\ngame tampered, turn 4:\n" in done.stdout
    assert "clean" not in done.stdout
    assert "turns of 2 games: 2 differ" in done.stderr
    one = await run_skirmish(schema_url, "replay", "--game", "clean")
    assert one.returncode == 0, one.stderr
    assert one.stdout == ""
    assert "turns of 1 games: 0 differ" in one.stderr
