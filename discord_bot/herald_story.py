"""What the herald says in a game's channel: the public game folded from the events a
spectator sees, and for each message of the socket the posts it calls for, in the server's
own words (server/commands/: the announcements the commands answer with). Pure.

The game is folded here rather than read from GET /v1/games/{game} when a post is made, so
that a post is the same whenever it is made: the announcement of turn 3, posted while the
herald catches up at turn 5, still says what turn 3 led to (the game as it stood then, the
next resolution as it was then scheduled: "in 15m" counts from the event's own time)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from projections.evolve import fold
from projections.game import GameState
from projections.views import public_game
from schema.api import FeedEvent
from schema.game_events import (
    GameEvent,
    GameKilled,
    GamePaused,
    GameStarted,
    GameUnpaused,
    MessageBroadcast,
    TurnResolved,
    TurnRewound,
)
from schema.live import EventMessage, ResolvedMessage, RewoundMessage, ServerMessage
from schema.views import PublicGame
from server.commands import announcements, replies, status

# A game has at most 20 players: a resolution post lists them all.
STANDINGS_SHOWN = 20


def game_event(event: FeedEvent) -> GameEvent:
    """The event itself: each tag's FeedEvent decodes its `data` as that event's own Struct
    (schema.api, FEED_EVENTS), which the base class types as a dict."""
    return cast("GameEvent", event.data)


@dataclass(frozen=True)
class Draft:
    """A post to the game's channel: its text, and the map at the start of `map_turn` (with
    the orders of the turn before) when it shows one."""

    text: str
    map_turn: int | None = None


class Story:
    """One game as a spectator follows it. Feed it every message of a spectator's
    subscription, in order, through `tell`; a `turn_rewound` event needs the game folded
    again from the feed (`rewinds`), since a fold cannot run backwards."""

    def __init__(self, events: Iterable[FeedEvent] = ()) -> None:
        self.state = GameState()
        # Every name a player has had here: a resolution that joins two players' forces
        # still names the two, who are no longer in the game as they were.
        self.names: dict[str, str] = {}
        self._at: datetime | None = None
        for event in events:
            self._fold(event)

    @staticmethod
    def rewinds(message: ServerMessage) -> bool:
        """Whether this message is a rewind, after which the game must be folded anew from
        the feed, up to and with the message's position."""
        return isinstance(message, EventMessage) and isinstance(
            game_event(message.event), TurnRewound
        )

    def tell(self, message: ServerMessage) -> list[Draft]:
        """Take in one message; the posts it calls for."""
        if isinstance(message, EventMessage):
            event = game_event(message.event)
            if not isinstance(event, TurnRewound):
                self._fold(message.event)
            return self._announce(event, message.position)
        if isinstance(message, ResolvedMessage):
            return [self._resolved(message.resolution, message.position)]
        if isinstance(message, RewoundMessage):
            game = self._game(message.position)
            # The board the game is back at, with the orders of the turn before.
            by = self._name_of(message.by)
            window, now = self.state.window(self._now()), self._now()
            told = announcements.rewound(game, window, now, by, message.reason)
            return [Draft(told, map_turn=game.turn)]
        # Standings are drawn from the folded game; a snapshot follows the events it stands
        # for (the subscription reads them from the feed first).
        return []

    def _name_of(self, account: str | None) -> str | None:
        """Who rewound, said as the channel knows them: the player the account plays, else
        "An admin" (or nobody named, for a rewind recorded before it said who)."""
        if account is None:
            return None
        players = self.state.players.values()
        return next((p.name for p in players if account in p.accounts), "An admin")

    def _fold(self, event: FeedEvent) -> None:
        self.state = fold(self.state, [(event.version, game_event(event))])
        self.names.update({p.id: p.name for p in self.state.players.values()})
        self._at = event.at

    def _now(self) -> datetime:
        assert self._at is not None, "an announcement follows an event"
        return self._at

    def _game(self, position: int) -> PublicGame:
        return public_game(self.state, position)

    def _announce(self, event: GameEvent, position: int) -> list[Draft]:
        """The post an event calls for by itself (a resolution's comes with its `resolved`
        message, a rewind's with its `rewound`)."""
        if isinstance(event, GameStarted):
            game = self._game(position)
            told = announcements.started(game, self.state.window(self._now()), self._now())
            return [Draft(told, map_turn=1)]
        if isinstance(event, GamePaused):
            return [Draft(announcements.paused())]
        if isinstance(event, GameUnpaused):
            window = self.state.window(self._now())
            return [Draft(announcements.unpaused(self._game(position), window, self._now()))]
        if isinstance(event, MessageBroadcast):
            # As /broadcast answers it: nothing says who sent it.
            return [Draft(replies.broadcast(event.message))]
        if isinstance(event, GameKilled):
            return [Draft(announcements.killed(self.state.settings.name))]
        return []

    def _resolved(self, resolution: TurnResolved, position: int) -> Draft:
        """The results as /resolve answers them (the vote's outcome and the next vote
        among them, the winner at the end), the standings, and the map the turn led to."""
        game = self._game(position)
        window = self.state.window(resolution.at)
        text = announcements.resolved(resolution, self.names, game, window, resolution.at)
        table = status.standings(game.players, STANDINGS_SHOWN)
        return Draft("\n".join([text, *table]), map_turn=resolution.turn + 1)
