"""What a game is to the server: one value per game (boardgame.io's `Game`, godip's `Variant`)
that the game room (server/game/) runs without knowing the game. Pure, like every rule.

The room keeps everything a game shares with the others: seats and accounts, admins, bans,
pause, forks, rewinds, the secret and its commitment, the hash chain, verify and replay. The
game says the rest through this protocol, on its own state and events (msgspec values):

- who acts now (`to_move`, OpenSpiel's current player): one seat taking turns, or several
  moving at once in secret (`Wait.sealed`), asked again after every event, since a game may
  change from one to the other (a sealed setup, then turns);
- what a move does (`move`): kept secret by the room (`Sealed`) until every seat of a sealed
  wait has moved, then `resolve` takes them all at once (a seat that seals again in the same
  wait: `seal` says how the new move joins its earlier one); or played at once, its events
  public (a turn's move, or in a sealed wait an act that is no turn of its own: a public
  message, a change of stance); or played at once and seen only by some seats, ever
  (`Private`: a private message), an act too;
- chance: never its own; every draw comes from `Draws.stream(labels)`, a stream the room
  derives one way from the game's committed secret, so that a game replays bit for bit;
- the end (`ending`), what each viewer sees (`view`, boardgame.io's `playerView`), and what
  a seat leaving does (`leave`);
- the clock: how long a wait may last (`Wait.seconds`, from the game's options), or until
  which hour of the day (`Wait.daily`: `Daily`), and what a seat of a wait of turns does when
  its time runs out (`time_out`). A sealed wait whose time runs out is resolved with the
  sealed moves that are in. A wait may also say: the minutes around its deadline when nobody
  moves (`lock`), whom the room reminds and when (`Reminder`), that only the clock or an
  admin closes it, never all its seats having moved (`closes="admin"`: a paused game still
  takes its moves), and that an unpause gives all of its time again (`restarts`);
- optionally, whether an admin may close a wait before its deadline (`EarlyClose.not_ready`,
  asked only of a wait that `closes="admin"`);
- how a line of text becomes a move (`read_text`), for the room's text commands, and the
  forms it reads (`text_forms`), for their help;
- optionally, its board as a picture (`Pictured.picture`): plain shapes the server paints;
- optionally, its standings (`Ranked.standings`): the seats best first, each with the game's
  own columns (Skirmish Society's VP and armies mean nothing in another game);
- optionally, the player a move is addressed to (`Addressed`: a private message's), which
  its sender may name as players know each other, by name: the room finds the seat;
- optionally, what the house around the room asks of a game that has it, never naming the
  game (rules/house.py): its built-in maps, its stateless what-if, its sandbox page and what
  `skirmish demo` plays it with.

Each call of `move`, `resolve`, `time_out` or `leave` is one step of the game: the room
records the move with the events it made, and replays it (server/ops/replay.py) by calling
again with the same state, move and draws. Skirmish Society predates the protocol: its
definition (projections/skirmish/) records its events bare, as the room's own, which the part
projections.owned.OwnEvents describes.
"""

from collections.abc import Mapping
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

import msgspec

from rules.kit.picture import Look, Picture
from rules.kit.prng import SeededRandom, derived

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
E = TypeVar("E")
Seat = str
# A move as its sender gave it: a decoded JSON value, which the game checks.
Move = Any
# `survived` and `eliminated`: the final standing of a game with more than winners and losers
# (the Art of War: players that survived a conquest or a treaty, players wiped out).
Result = Literal["won", "drew", "lost", "resigned", "survived", "eliminated"]


class MoveRefused(ValueError):
    """A move the rules do not take now; the message says why, to the player."""


class OptionsRefused(ValueError):
    """Options a game cannot be played with; the message says which and why."""


class NotYourMove(MoveRefused):
    """A move of a seat the game is not waiting for (a 409, not a 422)."""


class Sealed(msgspec.Struct, frozen=True):
    """A move kept secret until its wait is resolved, as the game keeps it."""

    move: Any


class Private(msgspec.Struct, frozen=True):
    """A move played at once whose events only `seats` may see, ever (a private message):
    not revealed when a wait resolves, as a sealed move is. The room adds the mover to them,
    notifies the others, and records it as an act, no turn of its own. What it changes in the
    state, `view` shows to those seats alone."""

    events: list[Any]
    seats: frozenset[Seat]


class Daily(msgspec.Struct, frozen=True):
    """A wait that ends at an hour of the day: the first `hour` (UTC) at or after
    `not_before` seconds since the wait began, or, once the game was unpaused during the
    wait, strictly after `after_unpause` seconds since the unpause (so that an unpause never
    costs a day). Skirmish Society's: its resolution hour, 4200 (two locks and an hour of
    open orders) and 300 (one lock)."""

    hour: int
    not_before: float
    after_unpause: float


class Reminder(msgspec.Struct, frozen=True):
    """The reminder of a wait: `lead` seconds before its deadline, to the seats still to
    move, or to `everyone` who plays and takes notices; once a wait, or `once_a_turn` (a
    rewind to the turn does not remind again)."""

    lead: float
    everyone: bool = False
    once_a_turn: bool = False


class Wait(msgspec.Struct, frozen=True):
    """Who may move now: nobody when the game is over."""

    seats: frozenset[Seat] = frozenset()
    # Simultaneous moves: each kept secret by the room until every seat of `seats` has
    # moved, then resolved together. Otherwise a move is played the moment it is made.
    sealed: bool = False
    # Whether everyone may know which seats have moved in the sealed wait (the Art of War's
    # public "submitted" flags); otherwise nobody learns it before the wait resolves.
    announced: bool = False
    # How long the wait may last, from when it began (the room's clock: the step that began
    # it, less any pause); None: it waits for ever. The room reminds the seats still to move
    # before it runs out, then resolves a sealed wait with the moves that are in, or asks
    # `time_out` of the seat a wait of turns waits for.
    seconds: float | None = None
    # Instead of `seconds`: the wait ends at an hour of the day.
    daily: Daily | None = None
    # Seconds before the deadline, and after the resolution that began the wait, in which the
    # room takes no moves (Skirmish Society's lock windows).
    lock: float = 0.0
    # When the room reminds, and whom; None: the seats still to move, an hour before the
    # deadline but never more than a quarter of the wait.
    reminder: Reminder | None = None
    # "all_in": a sealed wait closes once every seat has moved, or at its deadline. "admin":
    # never by itself; at its deadline, or by an admin before it (`EarlyClose`). No move
    # closes such a wait, so a paused game still takes its moves.
    closes: Literal["all_in", "admin"] = "all_in"
    # An unpause gives all of `seconds` again, not what was left of them.
    restarts: bool = False


class Ending(msgspec.Struct, frozen=True):
    """How a game ended: why, and each seat's result."""

    by: str
    results: dict[Seat, Result]

    @property
    def winners(self) -> list[Seat]:
        return sorted(seat for seat, result in self.results.items() if result == "won")


class Draws(msgspec.Struct, frozen=True):
    """The game's randomness: streams derived one way from its secret. `generation` counts the
    rewinds of the game so far, so that a step taken again after a rewind draws afresh; the
    game puts it in its labels where its rules say so."""

    key: bytes
    generation: int = 0

    def stream(self, *labels: str | int) -> SeededRandom:
        return derived(self.key, *labels)


class Game(Protocol[S, E]):
    """A game's definition. `S` is its state, `E` the union of its events (frozen, tagged,
    versioned msgspec Structs); `event_type` is that union, for decoding."""

    name: str
    version: int
    state_type: type[S]
    event_type: Any

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as the game keeps them (defaults filled in); OptionsRefused if not."""
        ...

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """How few and how many seats a game with these options plays with."""
        ...

    def setup(self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws) -> list[E]:
        """The events that set the game up, the seats in the order they joined."""
        ...

    def evolve(self, state: S | None, event: E) -> S:
        """The state after `event`; None before the first (setup's) event."""
        ...

    def to_move(self, state: S) -> Wait: ...

    def move(self, state: S, seat: Seat, move: Move, draws: Draws) -> Sealed | Private | list[E]:
        """A move of a seat the game waits for: Sealed in a sealed wait (or, there too, events
        played at once), else its events, Private if only some seats may see them;
        MoveRefused (or NotYourMove) if not allowed."""
        ...

    def seal(self, earlier: Move | None, move: Move) -> Move:
        """A seat's sealed move of a wait once it sealed `move` (as `move` sealed it) after
        `earlier`, its sealed move so far in the same wait (None: its first): the newer in
        place of the earlier, or both joined (the Art of War's several submissions of a
        turn). The room and its fold both ask it, so that a replay resolves the same moves;
        MoveRefused if the two together are more than the game takes."""
        ...

    def resolve(self, state: S, moves: Mapping[Seat, Move], draws: Draws) -> list[E]:
        """Every sealed move of the wait, taken together."""
        ...

    def time_out(self, state: S, seat: Seat, draws: Draws) -> list[E]:
        """What the seat a wait of turns waits for does when the wait's `seconds` ran out:
        the game's own move for it (which may end the game: a forfeit)."""
        ...

    def leave(self, state: S, seat: Seat) -> list[E]:
        """What a seat leaving the game (resigned or banned) changes; may end the game."""
        ...

    def ending(self, state: S) -> Ending | None: ...

    def view(self, state: S, seats: frozenset[Seat]) -> Any:
        """The state as someone playing `seats` may see it (none: a spectator), as JSON."""
        ...

    # Each form a text command may take (`US 3 to AK`, ...), with what it does: its help.
    text_forms: tuple[tuple[str, str], ...]

    def read_text(self, text: str) -> Move | None:
        """The move a text command's text is (one line or several), or None when it is none
        of the game's forms: the room then answers it as an unknown command. Whether the
        move is allowed is `move`'s to say."""
        ...


@runtime_checkable
class Addressed(Protocol):
    """The optional part of a definition whose moves name another seat (the Art of War's
    private messages). Players know each other by name, which the room keeps and the game does
    not: the room finds the player a move names, by seat or name, and hands the game the move
    with the seat, as it records it (so that a replay needs no names)."""

    def addressee(self, move: Move) -> str | None:
        """Whom `move` is addressed to as its sender wrote it (a seat or a player's name), or
        None for a move addressed to nobody (or malformed: `move` says why)."""
        ...

    def addressed_to(self, move: Move, seat: Seat) -> Move:
        """`move` addressed to `seat` instead."""
        ...


@runtime_checkable
class EarlyClose(Protocol[S_contra]):
    """The optional part of a definition whose waits an admin closes (`Wait.closes="admin"`):
    whether the wait may be closed before its deadline. The operator and a sandbox's admin
    close it any time; a definition without it lets any admin close it."""

    def not_ready(self, state: S_contra) -> str | None:
        """Why the wait may not close early yet (who has not moved, told without naming
        them), or None when it may."""
        ...


@runtime_checkable
class Pictured(Protocol[S_contra]):
    """The optional part of a definition: its board as a picture (GET /v1/games/{game}/map.png),
    plain shapes the server paints (rules/kit/picture.py)."""

    def picture(self, state: S_contra, looks: Mapping[Seat, Look]) -> Picture | None:
        """What the state shows everyone (never a pending sealed move), each seat in its
        player's look; None while there is no board to draw yet."""
        ...


# A column's value in a seat's standing: a count, a word, a yes or no, or null (not known
# yet: a Skor culture before both players chose).
Column = int | str | bool | None


class Standing(msgspec.Struct, frozen=True):
    """A seat's row in the game's standings: the game's own columns, by name."""

    seat: Seat
    columns: dict[str, Column]


@runtime_checkable
class Ranked(Protocol[S_contra]):
    """The optional part of a definition with standings of its own: the `players` of GET
    /v1/games/{game} and the socket's `standings` message, in its order, each with its columns
    (`standing`). A definition without it lists the seats in the order they joined, with no
    columns."""

    def standings(self, state: S_contra) -> list[Standing]:
        """Every seat once, best first, each with the same columns: only what everyone may
        see (never a pending sealed move, nor what a private move changed)."""
        ...
