"""SkirmishClient: every call of docs/api.md, with the bodies and answers of schema/api.py."""

from collections.abc import AsyncIterator
from datetime import datetime
from types import TracebackType
from typing import Any, Literal, Self, TypeVar
from urllib.parse import quote

import httpx

from client.http import ActingUser, Http, credential_headers, http_headers
from client.live import Subscription, live_url
from rules.contract import Request as Adjudication
from rules.contract import Response as Adjudicated
from schema.api import (
    AccountCreated,
    Archive,
    BanBody,
    BroadcastBody,
    ClientCreated,
    ClockBody,
    ClockNow,
    CommandBody,
    CommandReply,
    Done,
    EventPage,
    FeedEvent,
    GameList,
    Health,
    Joined,
    JoinForcesBody,
    NewAccount,
    NewAdmin,
    NewClient,
    NewGame,
    OrdersAccepted,
    OrdersBody,
    PlayerPatch,
    RewindBody,
    SettingsPatch,
    TurnView,
    VoteBody,
    WebhookBody,
    WebhookSet,
    WebhookView,
)
from schema.game_events import Phase
from schema.views import MyOrders, PublicGame

T = TypeVar("T")
# The most events the feed gives at a time.
FEED_PAGE = 1000
AdminAction = Literal["pause", "unpause", "resolve", "rewind", "ban", "unban", "kill"]


def _game(game: str) -> str:
    return f"/v1/games/{quote(game, safe='')}"


class SkirmishClient:
    """A client of one server, calling as one caller: nobody, an account's or the operator's
    token, or a trusted client's token acting for one of its users. `using()` gives a client
    for another caller on the same connections. Every refusal raises an `ApiError` of its
    kind (client.errors); close the client (or use `async with`) when done."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        acting_user: ActingUser | None = None,
        http: httpx.AsyncClient | None = None,
        timeout: float = 30.0,
    ) -> None:
        self._http = Http(base_url, http, timeout)
        self._credentials(token, acting_user)

    def _credentials(self, token: str | None, acting_user: ActingUser | None) -> None:
        self.token = token
        self.acting_user = acting_user
        self._ws_headers = credential_headers(None, acting_user)
        self._headers = http_headers(credential_headers(token, acting_user))

    def using(self, token: str | None, acting_user: ActingUser | None = None) -> "SkirmishClient":
        """A client for another caller, sharing this one's connections (close this one)."""
        other = object.__new__(SkirmishClient)
        other._http = self._http
        other._credentials(token, acting_user)
        return other

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _call(
        self,
        method: str,
        path: str,
        answer: type[T],
        body: object = None,
        params: dict[str, Any] | None = None,
    ) -> T:
        return await self._http.call(method, path, answer, self._headers, body, params)

    # --- Identity. --------------------------------------------------------------------

    async def create_account(self, name: str) -> AccountCreated:
        """A new account; its token is shown only now."""
        return await self._call("POST", "/v1/accounts", AccountCreated, NewAccount(name))

    async def create_client(self, name: str) -> ClientCreated:
        """A trusted client's token (operator)."""
        return await self._call("POST", "/v1/clients", ClientCreated, NewClient(name))

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
        return await self._call("GET", _game(game), PublicGame)

    async def join(self, game: str) -> Joined:
        """Join in the join phase; the answer names the caller's player."""
        return await self._call("POST", f"{_game(game)}/join", Joined)

    async def start(self, game: str) -> Done:
        return await self._call("POST", f"{_game(game)}/start", Done)

    async def change_settings(self, game: str, settings: SettingsPatch) -> Done:
        return await self._call("PATCH", f"{_game(game)}/settings", Done, settings)

    # --- Playing. ---------------------------------------------------------------------

    async def submit_orders(
        self, game: str, orders: str, *, turn: int | None = None, player: str | None = None
    ) -> OrdersAccepted:
        """Orders as text, each checked at once; `turn` refuses them (409) if the game has
        moved on; `player` is the sandbox admin's."""
        body = OrdersBody(orders, turn, player)
        return await self._call("PUT", f"{_game(game)}/orders", OrdersAccepted, body)

    async def my_orders(self, game: str, *, player: str | None = None) -> MyOrders:
        path = f"{_game(game)}/orders"
        params = {} if player is None else {"player": player}
        return await self._call("GET", path, MyOrders, params=params)

    async def vote(self, game: str, effect: str, *, player: str | None = None) -> Done:
        return await self._call("POST", f"{_game(game)}/votes", Done, VoteBody(effect, player))

    async def join_forces(self, game: str, with_player: str) -> Done:
        body = JoinForcesBody(with_player)
        return await self._call("POST", f"{_game(game)}/join-forces", Done, body)

    async def broadcast(self, game: str, message: str) -> Done:
        body = BroadcastBody(message)
        return await self._call("POST", f"{_game(game)}/broadcast", Done, body)

    async def resign(self, game: str) -> Done:
        return await self._call("POST", f"{_game(game)}/resign", Done)

    async def change_me(self, game: str, change: PlayerPatch) -> Done:
        """My colour, pattern, name or notifications."""
        return await self._call("PATCH", f"{_game(game)}/players/me", Done, change)

    # --- Admins. ----------------------------------------------------------------------

    async def admin(
        self, game: str, action: AdminAction, body: RewindBody | BanBody | None = None
    ) -> Done:
        """One of the admin actions; the methods below name each."""
        return await self._call("POST", f"{_game(game)}/admin/{action}", Done, body)

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
        return await self._call("POST", f"{_game(game)}/admins", Done, body)

    async def remove_admin(self, game: str, account: str) -> Done:
        path = f"{_game(game)}/admins/{quote(account, safe='')}"
        return await self._call("DELETE", path, Done)

    # --- History. ---------------------------------------------------------------------

    async def turn(self, game: str, turn: int) -> TurnView:
        return await self._call("GET", f"{_game(game)}/turns/{turn}", TurnView)

    async def events(self, game: str, *, after: int = 0, limit: int | None = None) -> EventPage:
        """A page of the event feed after `after`, as this caller may see it."""
        params: dict[str, Any] = {"after": after}
        if limit is not None:
            params["limit"] = limit
        path = f"{_game(game)}/events"
        return await self._call("GET", path, EventPage, params=params)

    async def all_events(
        self, game: str, *, after: int = 0, limit: int | None = None
    ) -> AsyncIterator[FeedEvent]:
        """Every event after `after`, page by page, up to the end of the feed."""
        while True:
            page = await self.events(game, after=after, limit=limit)
            for event in page.events:
                yield event
            if not page.has_more:
                return
            after = page.position

    async def archive(self, game: str) -> Archive:
        """What rewinds removed (admin)."""
        return await self._call("GET", f"{_game(game)}/archive", Archive)

    def live(
        self, game: str, *, after: int = 0, fill_gaps: bool = True, deadline: float = 60.0
    ) -> Subscription:
        """The game's live messages after `after`, resuming on its own when the connection
        drops (client/live.py); as this caller sees them: a spectator without a token."""

        async def read_page(position: int) -> EventPage:
            return await self.events(game, after=position, limit=FEED_PAGE)

        return Subscription(
            live_url(self._http.base_url, game),
            self.token,
            self._ws_headers,
            read_page,
            after=after,
            fill_gaps=fill_gaps,
            deadline=deadline,
        )

    # --- Webhooks, commands, the rest. -----------------------------------------------

    async def set_webhook(self, game: str, url: str) -> WebhookSet:
        """Set the game's webhook (admin); the signing secret is shown only now."""
        body = WebhookBody(url)
        return await self._call("PUT", f"{_game(game)}/webhook", WebhookSet, body)

    async def webhook(self, game: str) -> WebhookView:
        return await self._call("GET", f"{_game(game)}/webhook", WebhookView)

    async def delete_webhook(self, game: str) -> None:
        await self._http.send("DELETE", f"{_game(game)}/webhook", self._headers)

    async def command(self, text: str, *, game: str | None = None) -> CommandReply:
        """A Discord command as text (docs/commands.md): of a game, or one that needs none."""
        path = "/v1/commands" if game is None else f"{_game(game)}/commands"
        return await self._call("POST", path, CommandReply, CommandBody(text))

    async def adjudicate(self, request: Adjudication) -> Adjudicated:
        """The stateless what-if of docs/adjudicate.md."""
        return await self._call("POST", "/v1/adjudicate", Adjudicated, request)

    async def health(self) -> Health:
        return await self._call("GET", "/v1/health", Health)

    async def move_clock(
        self, *, advance_seconds: float | None = None, to: datetime | None = None
    ) -> ClockNow:
        """Move a fake clock (`skirmish serve --fake-clock`; operator)."""
        body = ClockBody(advance_seconds, to)
        return await self._call("POST", "/v1/admin/clock", ClockNow, body)
