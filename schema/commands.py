"""What players and admins ask a game to do. Each command names who asks (`actor`) and
when (`now`, from the server's one clock), so that deciding stays pure."""

from datetime import datetime
from typing import Any

import msgspec

from rules.registry import DEFAULT_GAME
from rules.skirmish.board import GameMap
from schema.game_events import ForkedPlayer, RecordedPosition, Settings, Vote


class Actor(msgspec.Struct, frozen=True):
    """Who asks: an account, and what vouches for it beyond the game's own lists."""

    account: str
    # The server operator may act as admin on any game.
    operator: bool = False
    # A trusted client that vouches for the account as an admin (a Discord bot, for a member
    # with the admin role): it counts for the games set up through that client.
    vouched_by: str | None = None


# Tagged with the class's name: the workers of one server send commands to each other
# (server/game/homes.py).
class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    actor: Actor
    now: datetime


class CreateGame(Command, frozen=True, kw_only=True):
    game_id: str
    settings: Settings
    seed: int
    # The trusted client the game is set up through, if any.
    client_id: str | None = None
    # The game to play (rules/registry.py), under its newest rules, and its own options.
    game: str = DEFAULT_GAME
    options: dict[str, Any] = {}


class JoinGame(Command, frozen=True, kw_only=True):
    name: str


class StartGame(Command, frozen=True, kw_only=True):
    # Fresh randomness from the server's edge (secrets.token_bytes): the game's secret.
    secret: bytes


class MakeMove(Command, frozen=True, kw_only=True):
    """A move in a game (rules/game.py), as its sender gave it."""

    move: Any
    # The turn the sender means; refused when the game has moved on.
    turn: int | None = None
    # In a sandbox the admin plays every seat.
    as_player: str | None = None
    # The game the move is for (None: whichever the game plays); refused in another game.
    game: str | None = None
    # Fresh randomness from the server's edge: the nonce of a receipt, if the move gets one.
    nonce: bytes | None = None


class SubmitOrders(Command, frozen=True, kw_only=True):
    text: str
    # Fresh randomness from the server's edge: the nonce of the submission's receipt.
    nonce: bytes
    # The turn the sender means; refused when the game has moved on.
    turn: int | None = None
    # In a sandbox the admin plays every player.
    as_player: str | None = None

    def as_move(self) -> MakeMove:
        """Skirmish Society's move `{"orders": text}`."""
        return MakeMove(
            actor=self.actor,
            now=self.now,
            move={"orders": self.text},
            turn=self.turn,
            as_player=self.as_player,
            game=DEFAULT_GAME,
            nonce=self.nonce,
        )


class CastVote(Command, frozen=True, kw_only=True):
    effect: str
    as_player: str | None = None

    def as_move(self) -> MakeMove:
        """Skirmish Society's move `{"vote": effect}`."""
        return MakeMove(
            actor=self.actor,
            now=self.now,
            move={"vote": self.effect},
            as_player=self.as_player,
            game=DEFAULT_GAME,
        )


class RequestJoinForces(Command, frozen=True, kw_only=True):
    with_player: str

    def as_move(self) -> MakeMove:
        """Skirmish Society's move `{"join_forces": seat}`."""
        return MakeMove(
            actor=self.actor,
            now=self.now,
            move={"join_forces": self.with_player},
            game=DEFAULT_GAME,
        )


class ResolveTurn(Command, frozen=True, kw_only=True):
    # The turn to resolve; None for "the current one" (admin's resolve-now).
    turn: int | None = None


class RemindPlayers(Command, frozen=True, kw_only=True):
    """Remind the players who want it that `turn` resolves soon (once per turn); in a game
    run by its definition, the seats its timed wait still waits for that its deadline comes
    (once a wait)."""

    turn: int


class RewindTurn(Command, frozen=True, kw_only=True):
    # Why, as the admin says (checked by the decider); None if they give no reason.
    reason: str | None = None
    # Fresh randomness, used only when the game had ended and revealed its secret.
    secret: bytes


class Resign(Command, frozen=True, kw_only=True):
    pass


class BanPlayer(Command, frozen=True, kw_only=True):
    player_id: str


class UnbanPlayer(Command, frozen=True, kw_only=True):
    # A player id, or the account id of a player removed by a ban in the join phase.
    player_id: str


class PauseGame(Command, frozen=True, kw_only=True):
    pass


class UnpauseGame(Command, frozen=True, kw_only=True):
    pass


class KillGame(Command, frozen=True, kw_only=True):
    pass


class ChangeSettings(Command, frozen=True, kw_only=True):
    fast_mode: bool | None = None
    resolution_hour: int | None = None
    current_hour: int | None = None
    broadcasting: bool | None = None
    vp_target: int | None = None


class ChangeLook(Command, frozen=True, kw_only=True):
    name: str | None = None
    color: int | None = None
    pattern: int | None = None
    as_player: str | None = None


class SetNotifications(Command, frozen=True, kw_only=True):
    enabled: bool


class Broadcast(Command, frozen=True, kw_only=True):
    message: str


class AddAdmin(Command, frozen=True, kw_only=True):
    # One account, or both of a joint player's.
    accounts: tuple[str, ...]


class RemoveAdmin(Command, frozen=True, kw_only=True):
    accounts: tuple[str, ...]


class ForkGame(Command, frozen=True, kw_only=True):
    """Start `game_id` as a fork of `source_game` at the start of `turn`: what the entry
    point read of the source then (server/game/application.py `fork`)."""

    game_id: str
    source_game: str
    turn: int
    position: int
    # The hash chain (hex) of the source's event at `position`.
    chain_hash: str
    settings: Settings
    map: GameMap | None
    board: RecordedPosition
    players: tuple[ForkedPlayer, ...]
    effect: str | None
    vote: Vote | None
    # Fresh randomness from the server's edge: the fork's own secret.
    secret: bytes
    # What the source plays, under the rules it plays by; for a game run by its
    # definition, its options and its own state then.
    game: str
    game_version: int
    options: dict[str, Any] = {}
    play: Any = None


class ClaimSeat(Command, frozen=True, kw_only=True):
    """Take the seat of a real fork that the actor is invited to (rules.md, "Forks")."""


class DeclineSeat(Command, frozen=True, kw_only=True):
    """Decline the actor's invitation to a real fork, or give back the seat it claimed,
    before the fork starts."""


GameCommand = (
    CreateGame
    | JoinGame
    | StartGame
    | SubmitOrders
    | MakeMove
    | CastVote
    | RequestJoinForces
    | ResolveTurn
    | RemindPlayers
    | RewindTurn
    | Resign
    | BanPlayer
    | UnbanPlayer
    | PauseGame
    | UnpauseGame
    | KillGame
    | ChangeSettings
    | ChangeLook
    | SetNotifications
    | Broadcast
    | AddAdmin
    | RemoveAdmin
    | ForkGame
    | ClaimSeat
    | DeclineSeat
)
