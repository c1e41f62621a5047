"""What every route that writes to a game does but build its command, said once. As in
cosmicpython's entry points, a write route only decodes its input, builds the command and
hands it on:

    writer, body = await writer_and_body(request, VoteBody)
    command = CastVote(actor=writer.actor, now=writer.now(), effect=body.effect)
    return await writer.done(game, command)

The caller is found before the body is read, so a request with no valid token is told so
(401) before anything about its body."""

from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from fastapi import Request
from fastapi.responses import Response

from projections.schedule import Due
from schema.commands import Actor, GameCommand
from server.accounts.store import Identity
from server.game.application import done
from server.game.outcome import Outcome
from server.http.api import json_response, read_body
from server.http.identity import required_caller
from server.services import Services, services

T = TypeVar("T")


@dataclass(frozen=True)
class Writer:
    """The caller of a write route, and the services it is run with."""

    who: Identity
    found: Services

    @property
    def actor(self) -> Actor:
        return self.who.actor

    def now(self) -> datetime:
        return self.found.clock.now()

    async def act(self, game: str, command: GameCommand) -> Outcome[Due]:
        """The command run in its game's home (server/game/homes.py)."""
        return await self.found.games.act(game, command)

    async def done(self, game: str, command: GameCommand) -> Response:
        """The command run, answered with what it appended (`Done`)."""
        return json_response(done(await self.act(game, command)))


async def writer_of(request: Request) -> Writer:
    """The caller (401 without one) of a route that takes no body."""
    return Writer(await required_caller(request), services(request))


async def writer_and_body(
    request: Request, type_: type[T], *, required: bool = True
) -> tuple[Writer, T]:
    """The caller (401 without one), then the request's body as `type_` (server.http.api's
    `read_body`)."""
    who = await required_caller(request)
    body = await read_body(request, type_, required=required)
    return Writer(who, services(request)), body
