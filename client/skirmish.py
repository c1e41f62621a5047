"""SkirmishClient: every call of docs/api.md, with the bodies and answers of schema/api.py."""

from collections.abc import AsyncIterator
from datetime import datetime
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx
import msgspec

from client.games import GameCalls, game_path
from client.heads import Heads
from client.http import ActingUser, Http, credential_headers, http_headers
from client.live import Subscription, live_url
from client.newer import read_page
from rules.house import Mapped
from rules.registry import definitions
from rules.skirmish.board import GameMap
from rules.skirmish.contract import Request as Adjudication
from rules.skirmish.contract import Response as Adjudicated
from rules.skirmish.mapgen import MapType
from schema.accounts import (
    AccountCreated,
    ClientCreated,
    ClientList,
    Me,
    NewAccount,
    NewClient,
    NewToken,
    TokenCreated,
    TokenList,
)
from schema.api import (
    Archive,
    ClockBody,
    ClockNow,
    CommandBody,
    CommandReply,
    EventPage,
    FeedEvent,
    Health,
    PlayTurn,
    TurnView,
    WebhookBody,
    WebhookSet,
    WebhookView,
)
from schema.maps import EffectList, GenerateBody, MapList
from schema.verification import Verification

T = TypeVar("T")
# The most events the feed gives at a time.
FEED_PAGE = 1000


class _OfGame(msgspec.Struct, frozen=True):
    """Which game a built-in map is for: a Skirmish Society map says none."""

    game: str = ""


class SkirmishClient(GameCalls):
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
        self._heads = Heads()
        self._credentials(token, acting_user)

    def _credentials(self, token: str | None, acting_user: ActingUser | None) -> None:
        self.token = token
        self.acting_user = acting_user
        # The socket takes the token from the same header as HTTP: known from the handshake,
        # never a spectator because a first message was slow to arrive.
        self._ws_headers = credential_headers(token, acting_user)
        self._headers = http_headers(self._ws_headers)

    def using(self, token: str | None, acting_user: ActingUser | None = None) -> "SkirmishClient":
        """A client for another caller, sharing this one's connections (close this one)."""
        other = object.__new__(SkirmishClient)
        other._http = self._http
        other._heads = self._heads
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

    # --- Identity. --------------------------------------------------------------------

    async def create_account(self, name: str) -> AccountCreated:
        """A new account; its token is shown only now."""
        return await self._call("POST", "/v1/accounts", AccountCreated, NewAccount(name))

    async def create_client(self, name: str) -> ClientCreated:
        """A trusted client's token (operator)."""
        return await self._call("POST", "/v1/clients", ClientCreated, NewClient(name))

    async def clients(self) -> ClientList:
        """The trusted clients, revoked ones included (operator; never their tokens)."""
        return await self._call("GET", "/v1/clients", ClientList)

    async def rotate_client(self, client_id: str) -> ClientCreated:
        """A new token for the same client, shown only now; the old one stops working and
        its users keep their accounts (operator)."""
        path = f"/v1/clients/{quote(client_id, safe='')}/rotate"
        return await self._call("POST", path, ClientCreated)

    async def revoke_client(self, client_id: str) -> None:
        """Take a trusted client's token away; a rotation gives it a new one (operator)."""
        path = f"/v1/clients/{quote(client_id, safe='')}"
        await self._http.send("DELETE", path, self._headers)

    async def me(self, *, after: str | None = None, limit: int | None = None) -> Me:
        """The caller's account, and a page of their games with their player in each (pass
        the page's `next` as `after` for the next one)."""
        params = {key: v for key, v in (("after", after), ("limit", limit)) if v is not None}
        return await self._call("GET", "/v1/me", Me, params=params)

    async def tokens(self) -> TokenList:
        """The caller's tokens, by id and name (never the tokens themselves)."""
        return await self._call("GET", "/v1/me/tokens", TokenList)

    async def add_token(self, name: str) -> TokenCreated:
        """Another token for the caller's account (a second device); shown only now."""
        return await self._call("POST", "/v1/me/tokens", TokenCreated, NewToken(name))

    async def revoke_token(self, token_id: str) -> None:
        """Revoke one of the caller's tokens (the one calling too); never the last."""
        path = f"/v1/me/tokens/{quote(token_id, safe='')}"
        await self._http.send("DELETE", path, self._headers)

    # --- History. ---------------------------------------------------------------------

    async def turn(self, game: str, turn: int) -> TurnView:
        return await self._call("GET", f"{game_path(game)}/turns/{turn}", TurnView)

    async def play_turn(self, game: str, turn: int) -> PlayTurn:
        """A turn of a game run by its definition, as this caller sees it: the game's view at
        its start, and the game's events of the step that began it."""
        return await self._call("GET", f"{game_path(game)}/turns/{turn}/play", PlayTurn)

    async def events(self, game: str, *, after: int = 0, limit: int | None = None) -> EventPage:
        """A page of the event feed after `after`, as this caller may see it, without the
        events this client cannot read (client/newer.py): `position` is past them."""
        params: dict[str, Any] = {"after": after}
        if limit is not None:
            params["limit"] = limit
        path = f"{game_path(game)}/events"
        page = read_page(await self._http.send("GET", path, self._headers, None, params))
        self._heads.read(game, page.events)
        return page

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
        return await self._call("GET", f"{game_path(game)}/archive", Archive)

    def live(
        self, game: str, *, after: int = 0, fill_gaps: bool = True, deadline: float = 60.0
    ) -> Subscription:
        """The game's live messages after `after`, resuming on its own when the connection
        drops (client/live.py); as this caller sees them: a spectator without a token."""

        async def read_page(position: int) -> EventPage:
            return await self.events(game, after=position, limit=FEED_PAGE)

        return Subscription(
            live_url(self._http.base_url, game),
            self._ws_headers,
            read_page,
            after=after,
            fill_gaps=fill_gaps,
            deadline=deadline,
            on_event=lambda event: self._heads.read(game, [event]),
        )

    async def verify(self, game: str, *, expected_head: str | None = None) -> Verification:
        """Recompute the game's hash chain and replay its resolutions on the server, anchored
        on `expected_head`, or else on the last head this client saw of the game (`last_head`):
        `ok` is false if the history no longer holds it (`anchor`)."""
        anchor = expected_head or self._heads.last(game)
        params = None if anchor is None else {"expected_head": anchor}
        path = f"{game_path(game)}/verify"
        found = await self._call("GET", path, Verification, params=params)
        self._heads.verified(game, found)
        return found

    def last_head(self, game: str) -> str | None:
        """The hash of the latest event this client (or one `using()` it) saw of the game,
        in the feed or as a verified head; None before any."""
        return self._heads.last(game)

    async def map_image(self, game: str, *, turn: int | None = None) -> bytes:
        """The map as a PNG image: the board now, or at the start of `turn`."""
        params = None if turn is None else {"turn": turn}
        return await self._http.send(
            "GET", f"{game_path(game)}/map.png", self._headers, None, params
        )

    # --- Maps and effects. -----------------------------------------------------------

    async def maps(self) -> MapList:
        return await self._call("GET", "/v1/maps", MapList)

    async def builtin_map(self, name: str) -> GameMap | Any:
        """A built-in map of any game: Skirmish Society's (a `GameMap`) with outlines to draw
        it by, or another game's whole, its `game` naming it: the game's own map (its
        definition's `map_type`, rules/game.py `Mapped`: the Art of War's `ArtOfWarMap`), or
        its JSON if this client does not know the game."""
        path = f"/v1/maps/{quote(name, safe='')}"
        content = await self._http.send("GET", path, self._headers)
        game = msgspec.json.decode(content, type=_OfGame).game
        if not game:
            return msgspec.json.decode(content, type=GameMap)
        rules = definitions().get(game)
        whole = rules.map_type if isinstance(rules, Mapped) else Any
        return msgspec.json.decode(content, type=whole)

    async def generate_map(
        self, players: int, map_type: MapType = "normal", seed: int = 0
    ) -> GameMap:
        body = GenerateBody(players, map_type, seed)
        return await self._call("POST", "/v1/maps/generate", GameMap, body)

    async def effects(self) -> EffectList:
        """The voting effects and what each does."""
        return await self._call("GET", "/v1/effects", EffectList)

    # --- Webhooks, commands, the rest. -----------------------------------------------

    async def set_webhook(self, game: str, url: str) -> WebhookSet:
        """Set the game's webhook (admin); the signing secret is shown only now."""
        body = WebhookBody(url)
        return await self._call("PUT", f"{game_path(game)}/webhook", WebhookSet, body)

    async def webhook(self, game: str) -> WebhookView:
        return await self._call("GET", f"{game_path(game)}/webhook", WebhookView)

    async def delete_webhook(self, game: str) -> None:
        await self._http.send("DELETE", f"{game_path(game)}/webhook", self._headers)

    async def command(self, text: str, *, game: str | None = None) -> CommandReply:
        """A Discord command as text (docs/commands.md): of a game, or one that needs none."""
        path = "/v1/commands" if game is None else f"{game_path(game)}/commands"
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
