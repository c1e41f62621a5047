"""What the bot tells each player: the reminder before a resolution (with a hint when the
game's hints are on), and their results after it."""

from datetime import timedelta

from projections.skirmish.hints import HINTS
from rules.kit.prng import derived
from schema.commands import Actor, RemindPlayers
from schema.game_events import GameEvent, PlayerNotified
from tests.server.decide.given import NOON, SECRET, Game, resolve, started

HINT = "\nHint: "


def _remind(game: Game) -> list[GameEvent]:
    state = game.state
    when = NOON + timedelta(days=state.turn - 1, hours=-1)
    return game.run(
        RemindPlayers(actor=Actor("scheduler", operator=True), now=when, turn=state.turn)
    )


def _texts(events: list[GameEvent]) -> dict[str, str]:
    return {e.player_id: e.text for e in events if isinstance(e, PlayerNotified)}


def test_with_hints_on_each_reminder_carries_one_hint_drawn_from_the_secret() -> None:
    game = started(3, hints=True)
    for turn in (1, 2):
        texts = _texts(_remind(game))
        assert sorted(texts) == ["p1", "p2", "p3"]
        for player, text in texts.items():
            reminder, hint = text.split(HINT)
            assert "resolves at 12:00 local time" in reminder
            assert hint == derived(SECRET, "hints", turn, player).choice(HINTS)
        resolve(game)


def test_hints_differ_between_players_and_turns() -> None:
    game = started(3, hints=True)
    hints: set[str] = set()
    for _ in range(4):
        hints.update(text.split(HINT)[1] for text in _texts(_remind(game)).values())
        resolve(game)
    assert len(hints) > 3


def test_with_hints_off_no_reminder_carries_one() -> None:
    game = started(3, hints=False)
    texts = _texts(_remind(game))
    assert len(texts) == 3
    assert not any(HINT in text for text in texts.values())
