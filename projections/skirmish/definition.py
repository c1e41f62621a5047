"""Skirmish Society as a definition (rules/game.py's `Game`), with the part of one whose events
are the room's own (projections.owned's `OwnEvents`): its setup, moves and resolution are the
functions the room's commands call (start, orders, votes, resolution), its events built
unstamped and stamped by the room with its facts of the step. docs/design/games.md, S1-S3.

Its options are `options_of`'s (the map, the type of map to generate, the seed) and the vote's
schedule its setup draws the first vote by (`votes`, `vote_start_turn`), the room's settings.
Its moves: `{"orders": text}`, `{"vote": effect}`, `{"join_forces": seat}`, each played at
once, never sealed: the game keeps this turn's submissions itself. Its text forms are the
room's commands (/orders, /vote, /join_forces), so it reads no text of its own.

Pure: no I/O, no clock.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from projections.owned import UNSTAMPED, Hidden, Reseat, Stamp
from projections.skirmish.clock import turn_wait
from projections.skirmish.notices import reminder, results
from projections.skirmish.orders import join_forces, signed, submit
from projections.skirmish.public import public
from projections.skirmish.resolution import not_ready, resolve
from projections.skirmish.start import started
from projections.skirmish.state import SkirmishEvent, SkirmishPlay, evolve
from projections.skirmish.votes import ballot, open_vote
from rules.game import (
    Draws,
    Ending,
    MoveRefused,
    OptionsRefused,
    Result,
    Seat,
    Wait,
)
from rules.house import MapListing
from rules.kit.prng import commitment
from rules.skirmish.board import GameMap, MapError
from rules.skirmish.mapgen import MAX_PLAYERS, MIN_PLAYERS, MapGenerationError
from rules.skirmish.maps import builtin_map, builtin_names
from rules.skirmish.starting import player_counts
from schema.game_events import (
    GameStarted,
    JoinForcesRequested,
    OrdersSubmitted,
    PlayerNotified,
    Settings,
    TurnResolved,
    VoteCast,
)

if TYPE_CHECKING:
    # For its type only: projections.game imports the games.
    from projections.game import Player

# The options that are the room's settings, and the seed.
_SETTINGS = ("map", "map_type", "votes", "vote_start_turn")
_OPTIONS = (*_SETTINGS, "seed")
_MOVES = ("orders", "vote", "join_forces")


class SkirmishSocietyGame:
    name = "skirmish-society"
    # A change of the rules that would play a recorded game differently comes as a new
    # version beside this one: games keep the version they were created under.
    version = 1
    state_type = SkirmishPlay
    event_type = SkirmishEvent
    text_forms: tuple[tuple[str, str], ...] = ()

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise OptionsRefused(f"{self.name} has no option {', '.join(unknown)}")
        settings = _settings_of(options)
        seed = options.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionsRefused(f"the seed is a whole number, not {seed!r}")
        checked = {
            "map": settings.map,
            "map_type": settings.map_type,
            "seed": seed,
            "votes": settings.votes,
            "vote_start_turn": settings.vote_start_turn,
        }
        if checked["map"] is not None:
            self.seat_range(checked)
        return checked

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        built_in = options.get("map")
        if built_in is None:
            return MIN_PLAYERS, MAX_PLAYERS
        try:
            counts = player_counts(built_in)
        except MapError as error:
            raise OptionsRefused(str(error)) from error
        if counts is None:
            raise OptionsRefused(f"map {built_in!r} has starting homes for fewer than 3 players")
        return counts

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[SkirmishEvent]:
        try:
            start = started(_settings_of(options), options.get("seed", 0), seats, draws.key)
        except (MapError, MapGenerationError) as error:
            raise OptionsRefused(str(error)) from error
        return [start]

    def evolve(self, state: SkirmishPlay | None, event: SkirmishEvent) -> SkirmishPlay:
        return evolve(SkirmishPlay() if state is None else state, event)

    def to_move(self, state: SkirmishPlay) -> Wait:
        """Every active, unbanned seat at once, until the clock or an admin resolves the turn:
        at the resolution hour (rules.md), or every 15 minutes in fast mode, with a lock
        window on each side of a resolution and a reminder to everyone once a turn."""
        if state.map is None or state.winner is not None:
            return Wait()
        return turn_wait(state.room.settings, state.room.in_play)

    def not_ready(self, state: SkirmishPlay) -> str | None:
        return not_ready(state)

    def move(self, state: SkirmishPlay, seat: Seat, move: Any, draws: Draws) -> list[SkirmishEvent]:
        if not isinstance(move, dict) or len(move) != 1 or next(iter(move)) not in _MOVES:
            raise MoveRefused(f"a move is one of {{{'|'.join(_MOVES)}: text}}")
        ((kind, value),) = move.items()
        if not isinstance(value, str):
            raise MoveRefused(f"{kind} takes a text")
        if kind == "orders":
            return [submit(state, seat=seat, text=value)]
        if kind == "vote":
            return [ballot(open_vote(state, seat), seat, value)]
        return [join_forces(state, seat=seat, partner=value)]

    def seal(self, earlier: Any, move: Any) -> Any:
        raise MoveRefused(f"{self.name} seals no move: each is played at once")

    def resolve(
        self, state: SkirmishPlay, moves: Mapping[Seat, Any], draws: Draws
    ) -> list[SkirmishEvent]:
        return [resolve(state, now=UNSTAMPED, randomness=draws.key)]

    def time_out(self, state: SkirmishPlay, seat: Seat, draws: Draws) -> list[SkirmishEvent]:
        # Never asked: its wait is sealed, and the clock resolves it (`resolve`).
        return []

    def leave(self, state: SkirmishPlay, seat: Seat) -> list[SkirmishEvent]:
        # A seat that leaves keeps its armies on the board, holding (rules.md).
        return []

    def ending(self, state: SkirmishPlay) -> Ending | None:
        if state.winner is None:
            return None
        return Ending(
            "vp_target",
            {seat: _result(state, seat) for seat in state.room.seats},
        )

    def view(self, state: SkirmishPlay, seats: frozenset[Seat]) -> Any:
        """What everyone sees: the map, the board, the vote and effect, each seat's VP; this
        turn's orders, ballots and requests are each seat's own until the resolution."""
        return {
            "board": msgspec.to_builtins(state.board),
            "vote": msgspec.to_builtins(state.vote),
            "effect": state.effect,
            "vp": dict(state.vp),
            "winner": state.winner,
        }

    def read_text(self, text: str) -> Any:
        return None

    # OwnEvents

    def stamped(self, event: Any, stamp: Stamp) -> Any:
        match event:
            case OrdersSubmitted():
                assert stamp.account is not None
                assert stamp.nonce is not None
                return signed(
                    event, game_id=stamp.game_id, account=stamp.account, nonce=stamp.nonce
                )
            case GameStarted() if stamp.secret is not None:
                return replace(
                    event,
                    at=stamp.at,
                    secret=stamp.secret.hex(),
                    commitment=commitment(stamp.secret),
                )
            case GameStarted() | TurnResolved():
                return replace(event, at=stamp.at)
            case _:
                return event

    def before_lock(self, state: SkirmishPlay, seat: Seat, move: Any) -> None:
        # A ballot is refused for want of a vote, of armies or for a vote cast already before
        # the lock window is asked; its effect after it.
        if isinstance(move, dict) and set(move) == {"vote"}:
            open_vote(state, seat)

    def reseated(self, event: Any) -> Reseat | None:
        if not isinstance(event, TurnResolved):
            return None
        return Reseat(merged=dict(event.joined), out=tuple(event.eliminated))

    def results(self, play: SkirmishPlay, event: Any, seats: Iterable[str]) -> list[PlayerNotified]:
        return results(play, event, seats) if isinstance(event, TurnResolved) else []

    def reminder(
        self, play: SkirmishPlay, seat: Seat, turn: int, resolves_at: datetime, draws: Draws
    ) -> str:
        return reminder(play, seat=seat, turn=turn, resolves_at=resolves_at, randomness=draws.key)

    def fork_fields(self, play: SkirmishPlay) -> dict[str, Any]:
        return {"map": play.map, "board": play.board, "effect": play.effect, "vote": play.vote}

    # OwnEvents: what the house asks of it

    def page(self) -> str:
        return "game.html"

    def hidden(self, event: Any, settings: Settings) -> Hidden | None:
        """A seat's orders are its own until its turn ends, and a request to join forces its
        sender's and the seat asked's (who must be able to accept); both are public after, so
        that every receipt is checked and everyone knows who asked whom. In same-day voting a
        ballot is its voter's for ever (the tally tells the rest)."""
        match event:
            case OrdersSubmitted():
                return Hidden(frozenset({event.player_id}), revealed_after=event.turn)
            case JoinForcesRequested():
                return Hidden(
                    frozenset({event.player_id, event.with_player}), revealed_after=event.turn
                )
            case VoteCast() if settings.voting_mode == "same_day":
                return Hidden(frozenset({event.player_id}))
            case _:
                return None

    def public(self, play: SkirmishPlay | None, players: Mapping[str, "Player"]) -> dict[str, Any]:
        return public(play, players)

    # Mapped (rules/house.py): its built-in maps, listed by GET /v1/maps.

    map_type = GameMap

    def builtin_maps(self) -> tuple[MapListing, ...]:
        return tuple(_listing(name) for name in builtin_names())

    def builtin_map(self, name: str) -> GameMap | None:
        return builtin_map(name) if name in builtin_names() else None


def _settings_of(options: Mapping[str, Any]) -> Settings:
    """The room's settings its setup reads, from the options."""
    given = {key: options[key] for key in _SETTINGS if key in options}
    try:
        return msgspec.convert({"name": "", **given}, Settings)
    except msgspec.ValidationError as error:
        raise OptionsRefused(str(error)) from error


def _listing(name: str) -> MapListing:
    """The built-in map `name` as GET /v1/maps lists it: its homes, and the players it seats."""
    game_map = builtin_map(name)
    return MapListing(
        name,
        game_map.description,
        len(game_map.territories),
        homes=len(game_map.homes),
        players=player_counts(name),
    )


def _result(state: SkirmishPlay, seat: str) -> Result:
    if seat == state.winner:
        return "won"
    return "resigned" if state.room.seats[seat].status == "resigned" else "lost"


SKIRMISH_SOCIETY_GAME = SkirmishSocietyGame()
