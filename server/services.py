"""Everything a request handler needs, built once by the app's lifespan."""

from dataclasses import dataclass, field

import asyncpg
from starlette.requests import HTTPConnection

from eventstore.base import EventStore
from projections.reads import ReadModels
from schema.views import ClockKind
from server.accounts.store import Accounts
from server.accounts.throttle import Throttle
from server.accounts.trusted_clients import TrustedClients
from server.clock import Clock
from server.game.entropy import Entropy, system_entropy
from server.game.handlers import GameService
from server.http.heavy import HeavyReads
from server.live.hub import LiveHub
from server.live.revocations import Revocations
from server.ops.scheduler import Scheduler


@dataclass
class Services:
    pool: asyncpg.Pool
    store: EventStore
    games: GameService
    live: LiveHub
    accounts: Accounts
    clients: TrustedClients
    # The open sockets' tokens, ended when their token is revoked.
    revocations: Revocations
    clock: Clock
    scheduler: Scheduler
    throttle: Throttle
    # Every read of the read models goes through it, and waits for them to be up to date.
    read_models: ReadModels
    heavy: HeavyReads
    # Set when the server runs on a controllable clock (`skirmish serve --fake-clock`).
    fake_clock: bool = False
    entropy: Entropy = system_entropy
    # The nonces of order receipts: apart from games' secrets, which tests fix, so that a
    # nonce (revealed at every resolution) is never a game's secret.
    nonces: Entropy = system_entropy
    # Webhooks may go to loopback and private addresses (SKIRMISH_WEBHOOK_ALLOW_PRIVATE).
    webhook_allow_private: bool = False
    extras: dict[str, object] = field(default_factory=dict)

    @property
    def clock_kind(self) -> ClockKind:
        """What a game's view says of the clock its `now` comes from."""
        return "fake" if self.fake_clock else "real"


def services(request: HTTPConnection) -> Services:
    found: Services = request.app.state.services
    return found
