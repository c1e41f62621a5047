"""The corpus's games run by their definitions (rules/game.py): whole games of the Art of
War and Skor played by the bots (bots/games.py) to their end, in memory, through the
decider's commands, as the room records them, each to `corpus/<game>.json`:

    python -m tests.replay.record_moves

Deterministic (fixed secret, seeds and clock). As with tests/replay/record.py, a recorded
game is the past: add games, never re-record one to hide a change of outcome."""

import msgspec

from bots.games import bot_stream, moves_now
from projections.views import public_game
from schema.commands import Actor, CreateGame, JoinGame, MakeMove, StartGame
from schema.game_events import GameEvent, MoveSealed, Settings
from tests.replay.record import ADMIN, BEGAN, Room, save

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
    room = Room()
    run = room.run
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
        if room.state.phase != "running":
            return room.events
        view = public_game(room.state, len(room.events), BEGAN)
        seat = next(
            s
            for s in sorted(view.to_move or [])
            if s not in (view.moved or []) and (view.turn, s) not in sealed
        )
        actor, strategy, seed = seats[seat]
        rng = bot_stream(seed, seat, view.position)
        for move in moves_now(game.game, view.play, seat, strategy, rng, game.weary):
            before = len(room.events)
            run(MakeMove(actor=actor, now=BEGAN, move=move, turn=view.turn))
            if isinstance(room.events[before], MoveSealed):
                sealed.add((view.turn, seat))
    raise RuntimeError(f"{game.game_id}: no end after {MAX_STEPS} steps")


def main() -> None:
    for game in MOVES_GAMES:
        save(game.game_id, play_moves(game))


if __name__ == "__main__":
    main()
