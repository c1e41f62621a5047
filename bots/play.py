"""A bot at the table: it follows a game live through the Python client (client/) and plays
each turn once, when its orders open, with a strategy of bots/strategies.py; and it votes.

The randomness of each turn is drawn from the bot's seed and the turn alone, so that a bot
given the same seed and shown the same views plays the same orders again, however often
it had to look or retry.
"""

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bots.strategies import STRATEGIES, armies_of
from client import Conflict, SkirmishClient
from schema.api import OrdersAccepted
from schema.views import PublicGame

# A look at the game at least this often (seconds), even when no news came: orders open by
# the clock alone, which sends no event.
POLL_SECONDS = 5.0
OVER = ("finished", "killed")


@dataclass
class Bot:
    client: SkirmishClient  # calling as the bot's account
    game: str
    player: str
    strategy: str  # a name of bots.strategies.STRATEGIES
    seed: int
    poll: float = POLL_SECONDS
    say: Callable[[str], None] = lambda _: None
    # Each turn's answer to the bot's orders (None: it had nothing to order), the turns it
    # voted in, and those it is done with (orders, and its ballot if there was a vote).
    submitted: dict[int, OrdersAccepted | None] = field(default_factory=dict)
    voted: set[int] = field(default_factory=set)
    done: set[int] = field(default_factory=set)

    def rng(self, turn: int, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}|{purpose}|{turn}")

    async def play(self) -> PublicGame:
        """Play until the game is over or the bot is out of it; the last view of it."""
        return await follow(self.client, self.game, self.player, self.act, self.say)

    async def act(self, game: PublicGame) -> float:
        """Send this turn's orders and ballot if not sent yet and the window is open; how
        long to wait before looking again (unless news comes first)."""
        if game.phase not in ("running", "paused"):
            return self.poll
        if game.orders_open_at is not None and game.now is not None:
            if game.now < game.orders_open_at:
                return min(self.poll, (game.orders_open_at - game.now).total_seconds())
            if game.orders_close_at is not None and game.now >= game.orders_close_at:
                return self.poll  # locked until the turn resolves, which is news
        try:
            await self._submit(game)
            await self._vote(game)
            self.done.add(game.turn)
        except Conflict as refused:
            if refused.code not in ("orders_locked", "wrong_turn"):
                raise
            # The clock ran past the window between the look and the call: look again.
        return self.poll

    async def _submit(self, game: PublicGame) -> None:
        if game.turn in self.submitted:
            return
        choose, _ = STRATEGIES[self.strategy]
        orders = choose(game, self.player, self.rng(game.turn, "orders"))
        if not orders:
            self.submitted[game.turn] = None
            return
        accepted = await self.client.submit_orders(self.game, "\n".join(orders), turn=game.turn)
        self.submitted[game.turn] = accepted
        invalid = [(o.text, o.reason) for o in accepted.orders if not o.valid]
        self.say(f"{self.player}: turn {game.turn}: {', '.join(orders)}")
        if invalid:
            self.say(f"{self.player}: refused: {invalid}")

    async def _vote(self, game: PublicGame) -> None:
        vote = game.vote
        # Only players with an army on the board vote.
        if vote is None or vote.turn != game.turn or game.turn in self.voted:
            return
        if not armies_of(game, self.player):
            return
        _, ballot = STRATEGIES[self.strategy]
        effect = ballot(game, self.player, self.rng(game.turn, "vote"))
        if effect is None:
            return
        await self.client.vote(self.game, effect)
        self.voted.add(game.turn)
        self.say(f"{self.player}: voted {effect} in turn {game.turn}")


async def follow(
    client: SkirmishClient,
    game_id: str,
    player: str,
    act: Callable[[PublicGame], Awaitable[float]],
    say: Callable[[str], None],
) -> PublicGame:
    """Look at the game on every message of its live feed, or after the wait `act` asks
    for, and `act` on each look, until the game is over or the player is out of it (the
    last view of it)."""
    news = asyncio.Event()
    game = await client.get_game(game_id)

    async def listen() -> None:
        async with client.live(game_id, after=game.position) as live:
            async for _ in live:
                news.set()

    follower = asyncio.create_task(listen())
    try:
        while True:
            if game.phase in OVER:
                say(f"{player}: game over, {outcome(game)}")
                return game
            if not any(p.id == player and p.status == "active" for p in game.players):
                say(f"{player}: out of the game")
                return game
            wait = await act(game)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await news.wait()
            if follower.done():
                follower.result()  # the subscription gave up: its failure is ours
            news.clear()
            game = await client.get_game(game_id)
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower


def outcome(game: PublicGame) -> str:
    """How a game that is over ended, its winner named as the page names it."""
    if game.ending is not None:
        names = {p.id: p.name for p in game.players}
        won = [names.get(seat, seat) for seat in game.ending.winners]
        by = game.ending.by.replace("_", " ")
        return f"{' and '.join(won)} won by {by}" if won else f"the game ended by {by}"
    winner = next((p.name for p in game.players if p.id == game.winner), None)
    return f"the game was {game.phase}" if winner is None else f"{winner} wins"


async def seat(client: SkirmishClient, game: str) -> str:
    """The caller's player in the game: one it joins now, the seat it claims now in a real
    fork that invites it, or the seat it has."""
    try:
        return (await client.join(game)).player
    except Conflict as refused:
        if refused.code == "fork_not_joinable":
            return await _claim(client, game)
        if refused.code != "already_joined":
            raise
    return await _held(client, game)


async def _claim(client: SkirmishClient, game: str) -> str:
    try:
        return (await client.claim_seat(game)).player
    except Conflict as refused:
        if refused.code != "already_claimed":
            raise
    return await _held(client, game)


async def _held(client: SkirmishClient, game: str) -> str:
    """The seat the account has in the game, from its list of games."""
    # The account's list of games is a read model, a moment behind the join or claim it had
    # made.
    for _ in range(100):
        after: str | None = None
        while True:
            page = await client.me(after=after)
            for mine in page.games:
                if mine.id == game and mine.player is not None:
                    return mine.player
            if page.next is None:
                break
            after = page.next
        await asyncio.sleep(0.1)
    raise LookupError(f"no seat of this account found in game {game}")
