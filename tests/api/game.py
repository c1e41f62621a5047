"""A game played through the client (client/), the same way every time (seed 7, four players).

Ann (p1, also the admin) builds farms on turn 1 and farms them after: 2 VP a turn. Di (p4)
expands into empty land on turns 1 and 2 and takes the expansion award each turn. On turn 3
everyone votes MOBILIZE, and Bob (p2) and Cy (p3) ask to join forces too early (they are not
3 VP behind the leader yet); on turn 4 they may, and do. Ann reaches 6 VP on turn 4 and wins.

And a game of each other built-in game, started (other_game), for the tests that want one.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from schema.api import Done, OrdersAccepted
from schema.views import PublicGame
from tests.api.support import (
    OPERATOR_TOKEN,
    PAST_THE_LOCK,
    Account,
    Api,
    Server,
    joined_game,
    make_move,
)

SEED = 7
VP_TARGET = 6
NAMES = ("Ann", "Bob", "Cy", "Di")
# Orders by turn and player index; every army not named holds.
ORDERS = {
    1: {0: "EA B, GO B", 3: "GI to PR, VE to BT"},
    2: {0: "EA F, GO F", 3: "PR to WW, BT to JI"},
    3: {0: "EA F, GO F"},
    4: {0: "EA F, GO F"},
}
VOTE = "MOBILIZE"
# The other built-in games (docs/games.md), each at its smallest, as POST /v1/games takes them.
OTHER_GAMES: dict[str, dict[str, Any]] = {
    "art-of-war": {"name": "The Art of War", "game": "art-of-war", "options": {"map": "aow-mini"}},
    "skor": {"name": "Skor", "game": "skor", "options": {"round_limit": 3}},
}
# Skor's sealed setup choices of p1 and p2.
SKOR_CHOICES = (
    {"culture": "dictatorship", "side": 1},
    {"culture": "technocracy", "side": 4, "tech": "military"},
)


async def other_game(
    api: Api, game: str, accounts: Sequence[Account] = (), start: bool = True
) -> tuple[str, list[Account]]:
    """A game of `game` (a key of OTHER_GAMES) created by the first of two accounts (p1, its
    admin; new ones, Ann and Bob, unless given) and joined by both: its id and the accounts.
    Started unless not `start`; a started Skor game past both setup choices, in its first
    turn, where its actions are taken."""
    accounts = list(accounts) or [await api.account(name) for name in NAMES[:2]]
    game_id = await joined_game(api, OTHER_GAMES[game], accounts)
    if start:
        await api.start(game_id, accounts[0])
        if game == "skor":
            for account, choice in zip(accounts, SKOR_CHOICES, strict=True):
                await make_move(api, game_id, account, choice)
    return game_id, accounts


@dataclass
class ScriptedGame:
    server: Server
    accounts: list[Account] = field(default_factory=list)
    game_id: str = ""

    @property
    def api(self) -> Api:
        return self.server.api

    @property
    def admin(self) -> Account:
        return self.accounts[0]

    def player(self, name: str) -> Account:
        return self.accounts[NAMES.index(name)]

    async def create(self, **options: Any) -> PublicGame:
        self.accounts = [await self.api.account(name) for name in NAMES]
        settings: dict[str, Any] = {
            "seed": SEED,
            "vp_target": VP_TARGET,
            "votes": "every_other_turn",
            "vote_start_turn": 3,
        }
        created = await self.api.new_game(self.admin, **{**settings, **options})
        self.game_id = created.id
        return created

    async def join_and_start(self) -> None:
        for account in self.accounts:
            await self.api.join(self.game_id, account)
        await self.api.start(self.game_id, self.admin)

    async def submit(self, turn: int) -> list[OrdersAccepted]:
        return [
            await self.api.orders(self.game_id, self.accounts[index], text, turn=turn)
            for index, text in ORDERS[turn].items()
        ]

    async def vote_all(self, effect: str = VOTE) -> None:
        for account in self.accounts:
            await self.api.as_(account).vote(self.game_id, effect)

    async def join_forces(self, a: str, b: str) -> Done:
        with_player = f"p{NAMES.index(b) + 1}"
        return await self.api.as_(self.player(a)).join_forces(self.game_id, with_player)

    async def resolve(self) -> Done:
        """Resolve now as the operator (an admin's early resolution waits for everyone's
        orders, and the script leaves some out), then step the clock past the lock."""
        self.server.clock.advance(60)
        done = await self.api.as_(OPERATOR_TOKEN).resolve(self.game_id)
        self.server.clock.advance(PAST_THE_LOCK)
        return done

    async def rewind(self) -> Done:
        self.server.clock.advance(60)
        done = await self.api.as_(self.admin).rewind(self.game_id, "testing")
        self.server.clock.advance(PAST_THE_LOCK)
        return done

    async def state(self, who: Account | None = None) -> PublicGame:
        return await self.api.game(self.game_id, who)
