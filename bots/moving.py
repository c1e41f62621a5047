"""A bot in a game run by its definition (the Art of War, Skor: rules/game.py): it follows
the game live through the Python client, as bots/play.py's `Bot` does Skirmish Society's,
and whenever the game waits for its seat it makes the moves bots/games.py chooses from the
public view, through `POST /v1/games/{game}/moves`.

Its randomness for a step is `bots.games.bot_stream(seed, seat, position)`, the position
being the game's count of events when it looked: the same bot shown the same game plays the
same moves, however often it had to look or retry.
"""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from bots.artofwar import WEARY_TURN
from bots.games import bot_stream, moves_now
from bots.play import POLL_SECONDS, follow
from client import Conflict, SkirmishClient
from schema.views import PublicGame

# Refusals that only mean the game moved on between the look and the move: look again.
MOVED_ON = ("wrong_turn", "not_your_move", "game_not_running")


@dataclass
class MoveBot:
    client: SkirmishClient  # calling as the bot's account
    game: str
    player: str
    strategy: str  # "random" or "greedy"
    seed: int
    poll: float = POLL_SECONDS
    # Real seconds to wait before each of its turns, so that a watcher sees the game move.
    pace: float = 0.0
    weary: int = WEARY_TURN
    say: Callable[[str], None] = lambda _: None
    # The room's turns in which it sealed a move: a sealed wait that does not say who has
    # moved (Skor's setup) is not asked twice.
    sealed: set[int] = field(default_factory=set)
    moves: int = 0

    async def play(self) -> PublicGame:
        """Play until the game is over; the last view of it."""
        return await follow(self.client, self.game, self.player, self.act, self.say)

    def _waits_for_me(self, game: PublicGame) -> bool:
        if game.phase != "running" or self.player not in (game.to_move or []):
            return False
        return self.player not in (game.moved or []) and game.turn not in self.sealed

    async def act(self, game: PublicGame) -> float:
        """Make this step's moves when the game waits for the bot; how long to wait before
        looking again (unless news comes first)."""
        if not self._waits_for_me(game):
            return self.poll
        if self.pace:
            await asyncio.sleep(self.pace)
        rng = bot_stream(self.seed, self.player, game.position)
        moves = moves_now(game.game, game.play, self.player, self.strategy, rng, self.weary)
        try:
            for move in moves:
                done = await self.client.make_move(self.game, move, turn=game.turn)
                self.moves += 1
                if "move_sealed.v1" in done.events:
                    self.sealed.add(game.turn)
                self.say(f"{self.player}: turn {game.turn}: {_shown(move)}")
        except Conflict as refused:
            if refused.code not in MOVED_ON:
                raise
        # Its next step is news of its own move: look again at once.
        return 0.0


def _shown(move: object) -> str:
    """A move as the log shows it: orders on one line."""
    return ", ".join(map(str, move)) if isinstance(move, list) else str(move)
