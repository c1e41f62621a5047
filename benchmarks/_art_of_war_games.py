"""Art of War games built fast for `python -m benchmarks scheduler`: 20 players on a generated
map, started (`one` territory each, the game's default, or `fill`) and played by the pure
decider up to a turn that every player but one has sent orders for, its reminder sent to the
last, so that it runs at its deadline (P30), as the scheduler times it out."""

import random
from datetime import datetime

from benchmarks._games import ADMIN, SECRET, BuiltGame
from rules.artofwar.play import Play, play_board
from schema.commands import Actor, CreateGame, JoinGame, MakeMove, StartGame
from schema.game_events import Settings

PLAYERS = 20


def art_of_war_due(
    game_id: str, *, seed: int, at: datetime, deadline: int, initial: str = "one"
) -> BuiltGame:
    """A game started at `at` with `initial` territories, on the generated map of `seed`, each
    territory of every player
    but the last attacking a random neighbour with one unit, its turn due at `deadline`
    seconds after `at`, and the last player reminded of it when the reminder fell due."""
    game = BuiltGame(game_id)
    options = {"map": "generated", "map_seed": seed, "initial": initial, "deadline": deadline}
    settings = Settings(name="Benchmark")
    create = CreateGame(
        actor=Actor(ADMIN),
        now=at,
        game_id=game_id,
        settings=settings,
        seed=seed,
        game="art-of-war",
        options=options,
    )
    game.run(create)
    for i in range(1, PLAYERS + 1):
        game.run(JoinGame(actor=Actor(f"acct-{i}"), now=at, name=f"Player {i}"))
    game.run(StartGame(actor=Actor(ADMIN), now=at, secret=SECRET))
    play = game.state.play
    assert isinstance(play, Play)
    board, position = play_board(play), play.position
    rng = random.Random(seed)
    orders: dict[str, list[str]] = {}
    for territory, owner in sorted(position.owners.items()):
        if position.units.get(territory, 0) > 1:
            target = rng.choice(sorted(board.neighbours[territory]))
            orders.setdefault(owner, []).append(f"{territory} 1 to {target}")
    for seat in sorted(game.state.players)[:-1]:
        account = game.state.players[seat].accounts[0]
        move = ", ".join(orders.get(seat, []))
        game.run(MakeMove(actor=Actor(account), now=at, move=move))
    reminded_at = game.state.next_reminder_at()
    assert reminded_at is not None, "the last player is to be reminded"
    game.remind(reminded_at)
    return game
