"""The current state of a game, folded from its events (projections.evolve), and what it
tells of the game: who plays, who moderates, when the turn resolves.

Pure: no I/O, no clock. The state holds secrets (pending orders, same-day votes); what
may be shown to whom is decided in projections.visibility, never here.
"""

from datetime import datetime, timedelta
from typing import Any, Literal

import msgspec

import projections.skirmish  # noqa: F401  (registers Skirmish Society: every fold has it)
from projections.schedule import (
    Due,
    Window,
    daily_deadline,
    lock_window,
    orders_close,
    orders_open,
    wait_reminder_lead,
)
from projections.skirmish.state import SkirmishPlay
from rules.game import Game, Wait
from rules.registry import DEFAULT_GAME, game_rules
from schema.commands import Actor
from schema.game_events import (
    ForkedFrom,
    Phase,
    PlayerStatus,
    Settings,
)

# Snapshots of GameState go by this name; a new name when the state's shape changes.
SNAPSHOT_NAME = "game-state.v7"


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    # The accounts that act for this player: one, or two for a joint player.
    accounts: tuple[str, ...]
    color: int
    pattern: int
    status: PlayerStatus = "active"
    banned: bool = False
    notifications: bool = True

    @property
    def in_play(self) -> bool:
        """Still in the game and not banned: moves, and may join forces."""
        return self.status == "active" and not self.banned

    @property
    def wants_notices(self) -> bool:
        return self.notifications and self.in_play


class GameState(msgspec.Struct, frozen=True):
    game_id: str = ""
    phase: Phase | Literal["new"] = "new"
    # What the game plays, under which version of its rules (rules/registry.py).
    game: str = DEFAULT_GAME
    game_version: int = 1
    settings: Settings = Settings(name="")
    admins: tuple[str, ...] = ()
    # The trusted client the game was set up through (it may vouch for admins).
    client_id: str | None = None
    seed: int = 0
    # The game's secret randomness (hex) and its published SHA-256 (hex), from the start.
    secret: str | None = None
    commitment: str | None = None
    created_at: datetime | None = None
    players: dict[str, Player] = {}
    banned_accounts: frozenset[str] = frozenset()
    joined_so_far: int = 0
    turn: int = 0
    # The last turn whose players were reminded that it resolves soon.
    reminded_turn: int = 0
    # Where this state stands in its stream, and the versions of the resolutions in it
    # (a rewind truncates before the last one); set by `fold`, not by `evolve`.
    version: int = 0
    resolved_versions: tuple[int, ...] = ()
    # The game and turn this game was forked from, if it was.
    forked_from: ForkedFrom | None = None
    # A real fork waiting for its start: the accounts invited to each seat that have not
    # claimed or declined it yet.
    invited: dict[str, tuple[str, ...]] = {}
    # The game's own state: Skirmish Society's SkirmishPlay from the game's creation on
    # (projections.skirmish, read through `skirmish`), or from the start the state of the
    # definition the game is run by (rules/game.py); None before. And the game's options
    # (Skirmish Society's read from its settings), and this turn's sealed moves by seat,
    # each as the game joins a seat's several (`seal`: the newest, or all).
    play: Any = None
    options: dict[str, Any] = {}
    sealed: dict[str, Any] = {}
    # The rewinds of the game so far (TurnRewound.rewinds): its draws' generation.
    rewinds: int = 0
    # When the current wait of a game run by its definition began (its start, the step or
    # rewind that began it), moved on by the time the game stood paused: its deadline is
    # this plus the wait's `seconds`. And when the game was paused, while it is.
    wait_began_at: datetime | None = None
    paused_at: datetime | None = None
    # Whether the current wait of a game run by its definition has reminded its seats: set by
    # its reminder, cleared by a step or rewind that begins a wait afresh (not by an unpause).
    wait_reminded: bool = False
    # When a game run by its definition was last unpaused during the current wait (None: not
    # since it began), from which a daily wait reckons its deadline (`Daily.after_unpause`);
    # and when its last turn ended (None before any), after which a wait's lock lasts.
    resumed_at: datetime | None = None
    resolved_at: datetime | None = None

    @property
    def skirmish(self) -> SkirmishPlay:
        """Skirmish Society's own state (no map, no board, no vote before the start); empty
        for a game run by its definition, so that readers shared by every game need not ask
        which game it is, nor whether it began."""
        return self.play if isinstance(self.play, SkirmishPlay) else _NO_PLAY

    @property
    def definition(self) -> Game[Any, Any]:
        """The definition the game is run by (rules/game.py), at the version it was created
        under. Skirmish Society's events are the room's own (projections.owned.own_events);
        its clock, as every game's, is its `Wait`."""
        return game_rules(self.game, self.game_version)

    @property
    def first_turn(self) -> int:
        """The game's first turn: 1, or for a fork the source's turn it began at. The
        resolutions of `resolved_versions` are those of the turns from it on."""
        return 1 if self.forked_from is None else self.forked_from.turn

    @property
    def awaiting_claims(self) -> bool:
        """A real fork before its start: its source's players claim or decline their seats
        (rules.md, "Forks"); nobody joins it."""
        return self.phase == "joining" and self.forked_from is not None

    def invitation_of(self, account_id: str) -> str | None:
        """The seat the account may still claim, if any (a banned account may not)."""
        if account_id in self.banned_accounts:
            return None
        return next((seat for seat, who in self.invited.items() if account_id in who), None)

    def player_of(self, account_id: str) -> Player | None:
        for player in self.players.values():
            if account_id in player.accounts and player.status != "eliminated":
                return player
        return None

    def is_admin(self, actor: Actor) -> bool:
        """The operator, an admin of the list, or a user whom the trusted client the game
        was set up through vouches for (a Discord bot, for a member with the admin role)."""
        return (
            actor.operator
            or actor.account in self.admins
            or (actor.vouched_by is not None and actor.vouched_by == self.client_id)
        )

    def plays(self, account_id: str) -> bool:
        """Whether the account acts for a seat of this game (eliminated or not)."""
        return any(account_id in p.accounts for p in self.players.values())

    def moderates(self, actor: Actor) -> bool:
        """Sees who acted on the events they may see: the operator, or an admin who plays no
        seat. Nobody reads another player's private events (projections.visibility)."""
        return actor.operator or (self.is_admin(actor) and not self.plays(actor.account))

    @property
    def randomness(self) -> bytes:
        """What every draw after the map derives from: the game's secret, or, for a game
        started before secrets existed, its seed."""
        if self.secret is not None:
            return bytes.fromhex(self.secret)
        return self.seed.to_bytes(8, "big")

    def next_resolution_at(self) -> datetime | None:
        """When the scheduler closes the current wait (ResolveTurn): its deadline. None while
        nothing is due: not running (paused too), or a wait without a clock."""
        return self._resolution_at(self._clocked_wait())

    def _clocked_wait(self) -> Wait | None:
        """The current wait while its clock runs (running, the wait begun); None otherwise."""
        if self.phase != "running" or self.wait_began_at is None:
            return None
        return self.definition.to_move(self.play)

    def _resolution_at(self, wait: Wait | None) -> datetime | None:
        """`next_resolution_at`, given the `_clocked_wait`."""
        if wait is None or self.wait_began_at is None:
            return None
        if wait.daily is not None:
            return daily_deadline(wait.daily, self.wait_began_at, self.resumed_at)
        if wait.seconds is None:
            return None
        return self.wait_began_at + timedelta(seconds=wait.seconds)

    def orders_open_at(self) -> datetime | None:
        """When this wait's moves open, in a game whose waits have a lock: the start, or the
        end of the lock window after the last resolution. None while nothing is due: in the
        join phase, paused (moves are taken then, with no lock), finished or killed; and in
        a game without a lock."""
        wait = self._clocked_wait()
        if wait is None or not wait.lock or self._resolution_at(wait) is None:
            return None
        if self.resolved_at is None:
            return self.wait_began_at
        return orders_open(self.resolved_at, timedelta(seconds=wait.lock))

    def orders_close_at(self) -> datetime | None:
        """When this wait's moves close: the lock window before its deadline begins. None
        while nothing is due, or without a lock."""
        wait = self._clocked_wait()
        resolves_at = self._resolution_at(wait)
        if wait is None or not wait.lock or resolves_at is None:
            return None
        return orders_close(resolves_at, timedelta(seconds=wait.lock))

    def window(self, now: datetime) -> Window:
        """Whether the moves of a wait with a `lock` (Skirmish Society's orders, votes and
        join-forces requests) are taken at `now`."""
        wait = self._clocked_wait()
        if wait is None or not wait.lock:
            return Window("open")
        lock = timedelta(seconds=wait.lock)
        return lock_window(now, self._resolution_at(wait), self.resolved_at, lock)

    def next_reminder_at(self) -> datetime | None:
        """When the current wait's reminders are due. None once sent, without a deadline
        (paused too), or if nobody is to be reminded."""
        wait = self._clocked_wait()
        return self._reminder_at(wait, self._resolution_at(wait))

    def _reminder_at(self, wait: Wait | None, resolves_at: datetime | None) -> datetime | None:
        """`next_reminder_at`, given the `_clocked_wait` and the deadline it leads to."""
        if wait is None or resolves_at is None or self._reminded(wait):
            return None
        if not self._to_remind(wait):
            return None
        assert self.wait_began_at is not None, "a clocked wait began"
        if wait.reminder is not None:
            return resolves_at - timedelta(seconds=wait.reminder.lead)
        return resolves_at - wait_reminder_lead(resolves_at - self.wait_began_at)

    @property
    def reminded(self) -> bool:
        """Whether the current wait's reminders went out: once a wait (a rewind begins the
        wait again, and may remind again), or once a turn if it says `Reminder.once_a_turn`
        (a rewind does not remind again)."""
        return self._reminded(self._clocked_wait())

    def _reminded(self, wait: Wait | None) -> bool:
        """`reminded`, given the `_clocked_wait`."""
        if wait is not None and wait.reminder is not None and wait.reminder.once_a_turn:
            return self.reminded_turn >= self.turn
        return self.wait_reminded

    def to_remind(self) -> list[Player]:
        """The players who want notices whom the current wait's reminder goes to, while its
        clock runs: every one if its wait says so (`Reminder.everyone`), else the seats it
        still waits for (in a sealed wait, those that have sealed no move yet)."""
        return self._to_remind(self._clocked_wait())

    def _to_remind(self, wait: Wait | None) -> list[Player]:
        """`to_remind`, given the `_clocked_wait`."""
        if wait is None:
            return []
        if wait.reminder is not None and wait.reminder.everyone:
            return [player for player in self.players.values() if player.wants_notices]
        seats = wait.seats - self.sealed.keys() if wait.sealed else wait.seats
        waited = (self.players.get(seat) for seat in sorted(seats))
        return [p for p in waited if p is not None and p.wants_notices]

    def due(self) -> Due:
        # The game's wait asked once for both moments.
        wait = self._clocked_wait()
        resolves_at = self._resolution_at(wait)
        return Due(self.phase, self.turn, resolves_at, self._reminder_at(wait, resolves_at))


_NO_PLAY = SkirmishPlay()
# A snapshot is the room's state and the game's own (`play`) apart, each decoded to its type
# at once: a `play` read as plain JSON and converted costs a load a third more.
_snapshot_encoder = msgspec.json.Encoder()
_snapshot_decoder = msgspec.json.Decoder(tuple[GameState, msgspec.Raw])


def with_typed_play(state: GameState) -> GameState:
    """The state with its game's own state (`play`) of the game's own type: read as plain JSON
    from a fork's first event, it is not."""
    play_type = state.definition.state_type
    if state.play is None or isinstance(state.play, play_type):
        return state
    return msgspec.structs.replace(state, play=msgspec.convert(state.play, play_type))


def encode_snapshot(state: GameState) -> bytes:
    """The state as a snapshot keeps it (`decode_snapshot` reads it)."""
    return _snapshot_encoder.encode((msgspec.structs.replace(state, play=None), state.play))


def decode_snapshot(data: bytes, version: int) -> GameState | None:
    """A snapshot's state, or None when it no longer decodes as the current shape (then
    fold from the start instead)."""
    try:
        state, play = _snapshot_decoder.decode(data)
        if state.version != version:
            return None
        if bytes(play) == b"null":
            return state
        return msgspec.structs.replace(state, play=_decoder(state).decode(play))
    except msgspec.DecodeError:
        return None


def _decoder(state: GameState) -> msgspec.json.Decoder[Any]:
    """The decoder of the game's own state, one a type."""
    play_type = state.definition.state_type
    decoder = _PLAY_DECODERS.get(play_type)
    if decoder is None:
        decoder = _PLAY_DECODERS[play_type] = msgspec.json.Decoder(play_type)
    return decoder


_PLAY_DECODERS: dict[type, msgspec.json.Decoder[Any]] = {}
