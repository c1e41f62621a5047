"""The calls on games: setting up, playing, and the admins' (SkirmishClient's share)."""

from typing import Any, Literal
from urllib.parse import quote

from client.http import Caller
from schema.api import (
    BanBody,
    BroadcastBody,
    Done,
    ForkBody,
    GameList,
    Joined,
    JoinForcesBody,
    MoveBody,
    NewAdmin,
    NewGame,
    OrdersAccepted,
    OrdersBody,
    PlayerPatch,
    RewindBody,
    SettingsPatch,
    VoteBody,
)
from schema.game_events import Phase
from schema.views import MyOrders, PublicGame

AdminAction = Literal["pause", "unpause", "resolve", "rewind", "ban", "unban", "kill"]


def game_path(game: str) -> str:
    return f"/v1/games/{quote(game, safe='')}"


class GameCalls(Caller):
    # --- Games. -----------------------------------------------------------------------

    async def create_game(self, game: NewGame) -> PublicGame:
        """Set up a game; the caller becomes its admin."""
        return await self._call("POST", "/v1/games", PublicGame, game)

    async def list_games(
        self, *, phase: Phase | None = None, after: str | None = None, limit: int | None = None
    ) -> GameList:
        """A page of games by id; pass the page's `next` as `after` for the next one."""
        params = {"phase": phase, "after": after, "limit": limit}
        given = {key: value for key, value in params.items() if value is not None}
        return await self._call("GET", "/v1/games", GameList, params=given)

    async def get_game(self, game: str) -> PublicGame:
        return await self._call("GET", game_path(game), PublicGame)

    async def join(self, game: str) -> Joined:
        """Join in the join phase; the answer names the caller's player."""
        return await self._call("POST", f"{game_path(game)}/join", Joined)

    async def start(self, game: str) -> Done:
        return await self._call("POST", f"{game_path(game)}/start", Done)

    async def change_settings(self, game: str, settings: SettingsPatch) -> Done:
        return await self._call("PATCH", f"{game_path(game)}/settings", Done, settings)

    # --- Forks. -----------------------------------------------------------------------

    async def fork(self, game: str, fork: ForkBody) -> PublicGame:
        """A new game from the start of one of the game's turns; the caller is its admin. A
        real fork (`sandbox=False`) waits for its players' claims until its admin `start`s
        it."""
        return await self._call("POST", f"{game_path(game)}/fork", PublicGame, fork)

    async def claim_seat(self, game: str) -> Joined:
        """Take the seat a real fork invites the caller to (GET /v1/me's `invited_to`)."""
        return await self._call("POST", f"{game_path(game)}/claim", Joined)

    async def decline_seat(self, game: str) -> Done:
        """Decline a real fork's invitation, or give back the seat claimed, for good."""
        return await self._call("POST", f"{game_path(game)}/decline", Done)

    # --- Playing. ---------------------------------------------------------------------

    async def submit_orders(
        self, game: str, orders: str, *, turn: int | None = None, player: str | None = None
    ) -> OrdersAccepted:
        """Orders as text, each checked at once; `turn` refuses them (409) if the game has
        moved on; `player` is the sandbox admin's."""
        body = OrdersBody(orders, turn, player)
        return await self._call("PUT", f"{game_path(game)}/orders", OrdersAccepted, body)

    async def my_orders(self, game: str, *, player: str | None = None) -> MyOrders:
        path = f"{game_path(game)}/orders"
        params = {} if player is None else {"player": player}
        return await self._call("GET", path, MyOrders, params=params)

    async def make_move(
        self, game: str, move: Any, *, turn: int | None = None, player: str | None = None
    ) -> Done:
        """A move in any game but Skirmish Society, in its game's form; `turn` refuses it
        (409) if the game has moved on; `player` is the sandbox admin's."""
        return await self._call(
            "POST", f"{game_path(game)}/moves", Done, MoveBody(move, turn, player)
        )

    async def vote(self, game: str, effect: str, *, player: str | None = None) -> Done:
        return await self._call("POST", f"{game_path(game)}/votes", Done, VoteBody(effect, player))

    async def join_forces(self, game: str, with_player: str) -> Done:
        body = JoinForcesBody(with_player)
        return await self._call("POST", f"{game_path(game)}/join-forces", Done, body)

    async def broadcast(self, game: str, message: str) -> Done:
        body = BroadcastBody(message)
        return await self._call("POST", f"{game_path(game)}/broadcast", Done, body)

    async def resign(self, game: str) -> Done:
        return await self._call("POST", f"{game_path(game)}/resign", Done)

    async def change_me(self, game: str, change: PlayerPatch) -> Done:
        """My colour, pattern, name or notifications."""
        return await self._call("PATCH", f"{game_path(game)}/players/me", Done, change)

    # --- Admins. ----------------------------------------------------------------------

    async def admin(
        self, game: str, action: AdminAction, body: RewindBody | BanBody | None = None
    ) -> Done:
        """One of the admin actions; the methods below name each."""
        return await self._call("POST", f"{game_path(game)}/admin/{action}", Done, body)

    async def pause(self, game: str) -> Done:
        return await self.admin(game, "pause")

    async def unpause(self, game: str) -> Done:
        return await self.admin(game, "unpause")

    async def resolve(self, game: str) -> Done:
        """Resolve the current turn now."""
        return await self.admin(game, "resolve")

    async def rewind(self, game: str, reason: str | None = None) -> Done:
        return await self.admin(game, "rewind", RewindBody(reason))

    async def ban(self, game: str, player: str) -> Done:
        return await self.admin(game, "ban", BanBody(player))

    async def unban(self, game: str, player: str) -> Done:
        return await self.admin(game, "unban", BanBody(player))

    async def kill(self, game: str) -> Done:
        return await self.admin(game, "kill")

    async def add_admin(
        self, game: str, *, player: str | None = None, account: str | None = None
    ) -> Done:
        """Give exactly one: a player of the game (all its accounts), or an account id."""
        body = NewAdmin(player, account)
        return await self._call("POST", f"{game_path(game)}/admins", Done, body)

    async def remove_admin(self, game: str, account: str) -> Done:
        path = f"{game_path(game)}/admins/{quote(account, safe='')}"
        return await self._call("DELETE", path, Done)
