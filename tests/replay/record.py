"""Record the replay corpus: whole games of random bots, played in memory by the decider on
generated maps, each game's events written to `corpus/<game>.json` (compact msgspec JSON).

    python -m tests.replay.record

Deterministic (fixed seeds, secret and clock). The recorded games are the past that every
later engine must reproduce: add games, but do not re-record those there to hide a change of
outcome; declare it in `declared.toml` (docs/operations.md, "Regression replay").
"""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec

from bots.strategies import random_ballot, random_orders
from projections.evolve import fold
from projections.game import GameState
from projections.views import public_game
from schema.commands import (
    Actor,
    CastVote,
    CreateGame,
    GameCommand,
    JoinGame,
    ResolveTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import GameEvent, Settings
from server.game.decide import decide

CORPUS = Path(__file__).parent / "corpus"
ADMIN = Actor("acct-admin")
SCHEDULER = Actor("scheduler", operator=True)
BEGAN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
# Orders and ballots go in this long after a turn began, clear of fast mode's lock windows.
ORDERS_AFTER = timedelta(minutes=5)
TURNS = 15


class CorpusGame(msgspec.Struct, frozen=True):
    """One game of the corpus: its players, map and voting, and the seed of it all."""

    players: int
    map_type: str = "normal"
    voting_mode: str = "normal"

    @property
    def game_id(self) -> str:
        return f"bots-{self.players}p-{self.map_type}-{self.voting_mode}"


GAMES = (
    CorpusGame(3),
    CorpusGame(4, voting_mode="same_day"),
    CorpusGame(6, map_type="spacious"),
    CorpusGame(9),
    CorpusGame(13, map_type="spacious", voting_mode="same_day"),
    CorpusGame(20),
)


class Room:
    """A game played in memory: each command decided against the state so far, its events
    recorded and folded in, as the room does."""

    def __init__(self) -> None:
        self.events: list[GameEvent] = []
        self.state = GameState()

    def run(self, command: GameCommand) -> None:
        decided = decide(self.state, command)
        self.state = fold(self.state, enumerate(decided, start=len(self.events) + 1))
        self.events.extend(decided)


def play(game: CorpusGame) -> list[GameEvent]:
    """The game's events: set up, then TURNS turns (or until someone wins) of random orders
    and ballots from every player with an army, resolved on time."""
    room = Room()
    run = room.run
    settings = msgspec.convert(
        {
            "name": game.game_id,
            "fast_mode": True,
            "map_type": game.map_type,
            "voting_mode": game.voting_mode,
        },
        Settings,
    )
    run(CreateGame(actor=ADMIN, now=BEGAN, game_id=game.game_id, settings=settings, seed=1))
    for i in range(1, game.players + 1):
        run(JoinGame(actor=Actor(f"acct-{i}"), now=BEGAN, name=f"Bot {i}"))
    run(StartGame(actor=ADMIN, now=BEGAN, secret=bytes(32)))
    rng = random.Random(game.game_id)
    for _ in range(TURNS):
        if room.state.phase != "running":
            break
        began, due = room.state.wait_began_at, room.state.next_resolution_at()
        assert began is not None
        assert due is not None
        at = began + ORDERS_AFTER
        view = public_game(room.state, len(room.events), at)
        armed = set(room.state.skirmish.board.armies.values())
        for player_id, player in room.state.players.items():
            if player.status != "active" or player_id not in armed:
                continue
            actor = Actor(player.accounts[0])
            orders = random_orders(view, player_id, rng)
            if orders:
                run(
                    SubmitOrders(
                        nonce=bytes(32),
                        actor=actor,
                        now=at,
                        text="\n".join(orders),
                        turn=room.state.turn,
                    )
                )
            effect = random_ballot(view, player_id, rng)
            if effect is not None and view.vote is not None and view.vote.turn == room.state.turn:
                run(CastVote(actor=actor, now=at, effect=effect))
        run(ResolveTurn(actor=SCHEDULER, now=due, turn=room.state.turn))
    return room.events


def encode(events: list[GameEvent]) -> bytes:
    return msgspec.json.encode(events) + b"\n"


def decode(data: bytes) -> list[GameEvent]:
    return msgspec.json.decode(data, type=list[GameEvent])


def save(game_id: str, events: list[GameEvent]) -> None:
    """Write a game's events to the corpus, as `corpus/<game_id>.json`."""
    CORPUS.mkdir(exist_ok=True)
    path = CORPUS / f"{game_id}.json"
    path.write_bytes(encode(events))
    print(f"recorded {path}")


def main() -> None:
    for game in GAMES:
        save(game.game_id, play(game))


if __name__ == "__main__":
    main()
