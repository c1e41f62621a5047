"""The herald: the bot's live side (docs/discord.md, "The herald"). For each game it
follows, it reads the game's websocket as a spectator and posts, in the game's channel,
what the game's events call for (discord_bot/herald_story.py): the start, each resolution
with the map and the standings, the votes and their outcome, anonymous broadcasts, pauses,
rewinds, the end. For each member who plays a seat it reads the socket as that member (the
trusted client acting for them), where their own `player_notified` events arrive (their
reminder before a resolution or a deadline and their results after it, which the server
writes only for players who want notifications), and sends each to them alone.

Every message is sent before the position it stands at is recorded as handled
(discord_bot/herald_state.py), and carries a nonce named after that position: a herald that
stops at any point starts again where it stood, skips what it recorded as sent, and a
message it sent without recording it goes again with the same nonce, which Discord
recognises for a few minutes and does not post twice."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from client import ActingUser, Gone, NotFound, SkirmishClient
from discord_bot.herald_posts import Outgoing, Sink, Undeliverable, nonce
from discord_bot.herald_state import Cursor, GameRecord, Member, Records
from discord_bot.herald_story import Story, game_event
from discord_bot.messages import split
from schema.game_events import PlayerNotified
from schema.live import EventMessage
from server.commands.text import safe

_log = logging.getLogger(__name__)
# After a failure (the server away, Discord refusing for now), wait this long before going
# on from the recorded position, twice as long after each failure in a row, up to the most.
FIRST_RETRY = 1.0
LONGEST_RETRY = 300.0
# A stream that posts nothing still records how far it has read every so many positions,
# so that a restart does not read it all again.
SAVE_EVERY = 100


class Herald:
    """One game: its channel's posts and its members' direct messages. `run` until the
    game is killed or the task is cancelled."""

    def __init__(
        self,
        server: SkirmishClient,
        client_token: str,
        record: GameRecord,
        records: Records,
        sink: Sink,
    ) -> None:
        # `server` reads as nobody (a spectator); members are read through the client token.
        self._server = server
        self._client_token = client_token
        self.record = record
        self._records = records
        self._sink = sink
        self._saved: dict[int, int] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._running = False

    @property
    def game(self) -> str:
        return self.record.game

    async def run(self) -> None:
        self._running = True
        for user in self.record.members:
            self._start_member(user)
        try:
            await self._keep(self._public, self.record.public)
        finally:
            self._running = False
            tasks = list(self._tasks.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._tasks.clear()

    def enlist(self, user: str, player: str, after: int) -> None:
        """Send `user` (a Discord user id) the notices of `player`, their seat, from
        `after` on (the position of their join: nothing of the game's past)."""
        if user in self.record.members:
            return
        self.record.members[user] = Member(player, Cursor(after=after))
        self._records.save(self.record)
        if self._running:
            self._start_member(user)

    def _start_member(self, user: str) -> None:
        cursor = self.record.members[user].cursor
        task = asyncio.create_task(self._keep(lambda: self._member(user), cursor))
        self._tasks[user] = task

    async def _keep(self, follow: Callable[[], Awaitable[None]], cursor: Cursor) -> None:
        """Follow until the game is gone, going on from the recorded position after any
        failure, after a wait that grows while nothing moves: never a loop of crashes."""
        delay = FIRST_RETRY
        while True:
            before = cursor.after
            try:
                await follow()
                return
            except (Gone, NotFound):
                # Killed (or never there): the member's streams end with the game's.
                if cursor is self.record.public:
                    self._let_go()
                return
            except Exception:
                _log.exception("the herald of game %s stopped; going on later", self.game)
            delay = FIRST_RETRY if cursor.after > before else min(delay * 2, LONGEST_RETRY)
            await asyncio.sleep(delay)

    async def _public(self) -> None:
        cursor = self.record.public
        story = await self._story(cursor.after)
        async with self._server.live(self.game, after=cursor.after) as live:
            async for message in live:
                if Story.rewinds(message):
                    story = await self._story(message.position)
                drafts = story.tell(message)
                for index, draft in enumerate(drafts):
                    image = await self._map(draft.map_turn)
                    key = f"{message.position}:{message.type}:{index}"
                    await self.send_post(cursor, key, draft.text, image=image)
                self._handled(cursor, live.position, posted=bool(drafts))
                if story.state.phase == "killed":
                    # The socket stays open on a killed game; its farewell is posted.
                    self._let_go()
                    return

    def _let_go(self) -> None:
        self.record.done = True
        self._records.save(self.record)

    async def _map(self, turn: int | None) -> bytes | None:
        """The map at the start of `turn`; None if the turn is no longer reached (a rewind
        came first: its own post shows the map the game is back at)."""
        if turn is None:
            return None
        try:
            return await self._server.map_image(self.game, turn=turn)
        except NotFound:
            return None

    async def _story(self, upto: int) -> Story:
        """The game folded from the feed (as a spectator reads it) up to `upto`."""
        if upto <= 0:
            return Story()
        return Story([e async for e in self._server.all_events(self.game) if e.position <= upto])

    async def _member(self, user: str) -> None:
        member = self.record.members[user]
        cursor = member.cursor
        as_member = self._server.using(self._client_token, ActingUser(user))
        async with as_member.live(self.game, after=cursor.after) as live:
            async for message in live:
                notice = None
                if isinstance(message, EventMessage):
                    data = game_event(message.event)
                    notice = data if isinstance(data, PlayerNotified) else None
                if notice is not None:
                    key = f"{message.position}:{notice.kind}"
                    await self.send_post(cursor, key, notice.text, user=user)
                self._handled(cursor, live.position, posted=notice is not None)

    async def send_post(
        self,
        cursor: Cursor,
        key: str,
        text: str,
        *,
        image: bytes | None = None,
        user: str | None = None,
    ) -> None:
        """Send the text in parts (Discord's length limit), the image with the first, each
        part once: recorded as sent as soon as it is."""
        for index, part in enumerate(split(safe(text))):
            part_key = f"{key}:{index}"
            if part_key in cursor.sent:
                continue
            outgoing = Outgoing(
                channel=self.record.channel,
                text=part,
                nonce=nonce(self.game, f"{user or 'channel'}:{part_key}"),
                image=image if index == 0 else None,
                user=user,
            )
            try:
                await self._sink.send(outgoing)
            except Undeliverable as refused:
                _log.warning("game %s: %s not delivered: %s", self.game, part_key, refused)
            cursor.note(part_key)
            self._save(cursor)

    def _handled(self, cursor: Cursor, position: int, *, posted: bool) -> None:
        cursor.advance(position)
        if posted or cursor.after - self._saved.get(id(cursor), 0) >= SAVE_EVERY:
            self._save(cursor)

    def _save(self, cursor: Cursor) -> None:
        self._records.save(self.record)
        self._saved[id(cursor)] = cursor.after


class Heralds:
    """Every game the bot follows, each by its own Herald, from the records kept in the
    data directory: `resume` follows them all again; `follow` and `enlist` add to them;
    `aclose` stops them."""

    def __init__(
        self, server: SkirmishClient, client_token: str, records: Records, sink: Sink
    ) -> None:
        self._server = server
        self._client_token = client_token
        self._records = records
        self._sink = sink
        self._heralds: dict[str, Herald] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def resume(self) -> None:
        """Follow again every game kept in the data directory and not followed yet (at
        the bot's start, and again at each of its READY: nothing is followed twice)."""
        for record in self._records.load_all():
            if record.game not in self._heralds:
                self._start(record)

    async def aclose(self) -> None:
        """Stop following every game, each where it stands (its position kept)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def follow(self, game: str, channel: str, after: int = 0) -> None:
        """Post the game's news in `channel` from `after` on (0: from its creation). A game
        followed already goes on where it stands."""
        if game in self._heralds or self._records.load(game) is not None:
            return
        record = GameRecord(game=game, channel=channel, public=Cursor(after=after))
        self._records.save(record)
        self._start(record)

    def enlist(self, game: str, user: str, player: str, after: int) -> None:
        """Send `user` the notices of their seat `player` from `after` on (their join's
        position), in a game followed (another is let be, with a warning)."""
        herald = self._heralds.get(game)
        if herald is None:
            _log.warning("game %s is not followed: %s's notices are not sent", game, user)
            return
        herald.enlist(user, player, after)

    def _start(self, record: GameRecord) -> None:
        herald = Herald(self._server, self._client_token, record, self._records, self._sink)
        self._heralds[record.game] = herald
        task = asyncio.create_task(herald.run(), name=f"herald {record.game}")
        self._tasks.add(task)

        def ended(done: asyncio.Task[None]) -> None:
            self._tasks.discard(done)
            if self._heralds.get(record.game) is herald:
                del self._heralds[record.game]

        task.add_done_callback(ended)
