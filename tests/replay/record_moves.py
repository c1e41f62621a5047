"""The corpus's games run by their definitions (rules/game.py): whole games of the Art of
War and Skor played by the bots (bots/games.py) to their end, in memory, through the
decider's commands, as the room records them, each to `corpus/<game>.json`:

    python -m tests.replay.record_moves

Deterministic (fixed secret, seeds and clock). As with tests/replay/record.py, a recorded
game is the past: add games, never re-record one to hide a change of outcome."""

import msgspec

from bots.games import bot_stream, moves_now
from projections.evolve import fold
from projections.game import GameState
from projections.views import public_game
from schema.commands import Actor, CreateGame, GameCommand, JoinGame, MakeMove, StartGame
from schema.game_events import GameEvent, MoveSealed, Settings
from server.game.decide import decide
from tests.replay.record import ADMIN, BEGAN, CORPUS, encode

# Whole games are the point; past this many steps the recorder gives up.
MAX_STEPS = 5_000


class MovesGame(msgspec.Struct, frozen=True):
    """One game of bots: the game, its options, each seat's strategy, and the turn from
    which the Art of War's bots offer a draw (it keeps the corpus small)."""

    game: str
    name: str
    strategies: tuple[str, ...]
    options: dict[str, object] = {}
    weary: int = 30

    @property
    def game_id(self) -> str:
        return f"bots-{self.game}-{self.name}"


MOVES_GAMES = (
    MovesGame("art-of-war", "2p-generated", ("greedy", "random"), {"map": "generated"}),
    MovesGame(
        "art-of-war",
        "5p-generated-free",
        ("greedy", "random") * 2 + ("greedy",),
        {"map": "generated", "placement": "free", "diplomacy": "binding"},
        weary=12,
    ),
    MovesGame("art-of-war", "20p-generated", ("greedy", "random") * 10, {"map": "generated"}, 6),
    MovesGame("skor", "greedy-random", ("greedy", "random"), {"round_limit": 30}),
    MovesGame("skor", "random-random", ("random", "random"), {"round_limit": 8}),
)


def play_moves(game: MovesGame) -> list[GameEvent]:
    """The game's events: created, joined, started, then every seat the game waits for
    makes its bot's moves, until the game is over."""
    events: list[GameEvent] = []
    state = GameState()

    def run(command: GameCommand) -> None:
        nonlocal state
        decided = decide(state, command)
        state = fold(state, enumerate(decided, start=len(events) + 1))
        events.extend(decided)

    settings = Settings(name=game.name)
    run(
        CreateGame(
            actor=ADMIN, now=BEGAN, game_id=game.game_id, settings=settings, seed=1,
            game=game.game, options=dict(game.options),
        )
    )  # fmt: skip
    seats = {}
    for n, strategy in enumerate(game.strategies, start=1):
        run(JoinGame(actor=Actor(f"acct-{n}"), now=BEGAN, name=f"Bot {n}"))
        seats[f"p{n}"] = (Actor(f"acct-{n}"), strategy, n)
    run(StartGame(actor=ADMIN, now=BEGAN, secret=bytes(32)))
    sealed: set[tuple[int, str]] = set()
    for _ in range(MAX_STEPS):
        if state.phase != "running":
            return events
        view = public_game(state, len(events), BEGAN)
        seat = next(
            s
            for s in sorted(view.to_move or [])
            if s not in (view.moved or []) and (view.turn, s) not in sealed
        )
        actor, strategy, seed = seats[seat]
        rng = bot_stream(seed, seat, view.position)
        for move in moves_now(game.game, view.play, seat, strategy, rng, game.weary):
            before = len(events)
            run(MakeMove(actor=actor, now=BEGAN, move=move, turn=view.turn))
            if isinstance(events[before], MoveSealed):
                sealed.add((view.turn, seat))
    raise RuntimeError(f"{game.game_id}: no end after {MAX_STEPS} steps")


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for game in MOVES_GAMES:
        path = CORPUS / f"{game.game_id}.json"
        path.write_bytes(encode(play_moves(game)))
        print(f"recorded {path}")


if __name__ == "__main__":
    main()
