"""What a command handler works with: the caller, the game, and the application layer."""

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import msgspec

from projections.game import GameState, Player
from schema import errors as codes
from schema.api import CommandReply
from schema.commands import GameCommand
from schema.refusals import NotFound
from server.accounts.store import Identity
from server.commands.lookup import mentioned_user
from server.game.application import readable
from server.game.decide.names import find_player
from server.game.outcome import Outcome
from server.services import Services

T = TypeVar("T")


def the(kind: type[T], events: Iterable[object]) -> T:
    """The event of `kind` that a command appended (others may come with it)."""
    return next(e for e in events if isinstance(e, kind))


@dataclass(frozen=True)
class Context:
    found: Services
    who: Identity
    # None at POST /v1/commands, which serves the commands that need no game.
    game: str | None
    # Where the request came from, for the limit on games created (server/accounts/throttle.py).
    address: str
    # For a trusted client's user: the name the client gives now (X-Acting-User-Name).
    current_name: str | None = None
    rng: random.Random = field(default_factory=random.Random)

    @property
    def game_id(self) -> str:
        assert self.game is not None, "the dispatcher checks that a command has its game"
        return self.game

    def now(self) -> datetime:
        return self.found.clock.now()

    async def execute(self, command: GameCommand) -> Outcome[GameState]:
        return await self.found.games.execute(self.game_id, command)

    async def state(self) -> GameState:
        return (await readable(self.found, self.game_id)).state

    async def find(self, state: GameState, reference: str) -> Player:
        """The player a command names; a Discord mention names the client's user."""
        user = mentioned_user(reference)
        if user is None:
            return find_player(state.players.values(), reference)
        account = await self.account_of(user)
        player = None if account is None else state.player_of(account)
        if player is None:
            raise NotFound(codes.PLAYER_NOT_FOUND, "the player you mentioned is not in this game")
        return player

    async def account_of(self, external_id: str) -> str | None:
        if self.who.client_id is None:
            return None
        found: str | None = await self.found.pool.fetchval(
            "SELECT account_id FROM accounts WHERE client_id = $1 AND external_id = $2",
            self.who.client_id,
            external_id,
        )
        return found


def result(value: object) -> dict[str, Any]:
    built: dict[str, Any] = msgspec.to_builtins(value)
    return built


def answer(reply: str, value: object = None) -> CommandReply:
    return CommandReply(reply, ok=True, result=None if value is None else result(value))
