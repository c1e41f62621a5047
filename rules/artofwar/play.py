"""The Art of War as the server's game room keeps it (rules/game.py): the game's options, its
state between turns and the events that move it, each rebuilt exactly from its JSON."""

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal

import msgspec

from rules.artofwar.board import Board
from rules.artofwar.contract import JsonOrder, order_text
from rules.artofwar.diplomacy import Ending, Stance, StanceKind, check_stance
from rules.artofwar.mapgen import generate
from rules.artofwar.maps import builtin_board
from rules.artofwar.messages import MessageSent
from rules.artofwar.options import Options
from rules.artofwar.records import ArtOfWarOrderReport, TurnResult
from rules.artofwar.state import State
from rules.game import MoveRefused
from rules.kit.clock import without
from rules.kit.requests import RequestError

# The option of P30's deadline (rules/kit/clock.py).
DEADLINE = "deadline"
MapName = Literal["aow-mini", "world", "generated"]
MAX_SEED = (1 << 64) - 1
# A turn's orders, in one submission or several: enough for every territory of the largest
# map, bounded all the same.
MAX_SUBMISSION = 20_000
MAX_LINES = 2_000


class GameOptions(Options, frozen=True, forbid_unknown_fields=True):
    """§2.3's options and the map: a built-in one, or one generated from `map_seed` (drawn
    from the game's secret when not given)."""

    map: MapName = "world"
    map_seed: int | None = None


class Play(msgspec.Struct, frozen=True):
    """The game between turns: the engine's position and what the room needs besides."""

    options: GameOptions
    seats: tuple[str, ...]
    # The seed of a generated map (none for a built-in map).
    map_seed: int | None
    position: State
    resigned: frozenset[str] = frozenset()
    ending: Ending | None = None
    # The orders of the last turn that ran, as it reported them (its picture's arrows).
    last_orders: tuple[ArtOfWarOrderReport, ...] = ()
    # P30: how long a turn waits for orders, in seconds; None: for ever.
    deadline: int | None = None


class Started(msgspec.Struct, frozen=True, tag="started.v1", omit_defaults=True):
    options: GameOptions
    seats: tuple[str, ...]
    map_seed: int | None
    position: State
    # P30's deadline (the option `deadline`, kept beside the rules' options): none in a game
    # created before it existed.
    deadline: int | None = None


class StanceChanged(msgspec.Struct, frozen=True, tag="stance_changed.v1"):
    """A public change of stance (§5), played at once: no turn of its own."""

    seat: str
    stance: Stance


class TurnRun(msgspec.Struct, frozen=True, tag="turn_run.v1"):
    """A resolved turn: every seat's orders, what §8's response carries, and the turn seed
    (16 hex digits) with the rewind generation it was derived at (P33)."""

    turn: int
    generation: int
    seed: str
    orders: dict[str, list[str]]
    result: TurnResult


class Resigned(msgspec.Struct, frozen=True, tag="resigned.v1"):
    """A seat that left (resigned or banned): it surrenders and gives no orders (P34)."""

    seat: str


Event = Started | StanceChanged | TurnRun | Resigned | MessageSent


def game_options(options: Mapping[str, Any]) -> GameOptions:
    """The rules' options of a game's options, the deadline kept apart."""
    return msgspec.convert(without(options, DEADLINE), GameOptions)


def check_game_options(options: dict[str, Any]) -> GameOptions:
    try:
        checked = game_options(options)
    except msgspec.ValidationError as error:
        raise ValueError(f"options: {error}") from error
    if checked.map_seed is not None:
        if checked.map != "generated":
            raise ValueError("map_seed goes with map 'generated'")
        if not 0 <= checked.map_seed <= MAX_SEED:
            raise ValueError(f"map_seed is 0 to {MAX_SEED}")
    return checked


# Bounded: every game with a generated map has a map of its own.
@lru_cache(maxsize=64)
def board_of(name: MapName, players: int, seed: int | None) -> Board:
    """The map of a game: built in, or generated for its seats from its seed."""
    if name == "generated":
        assert seed is not None
        return generate(players, seed)
    return builtin_board(name)


def play_board(play: Play) -> Board:
    return board_of(play.options.map, len(play.seats), play.map_seed)


STANCE = re.compile(
    r"\s*stance\s+(no[ _]mercy|offer[ _]mercy|surrender|draw)(?:\s+(\d{1,6}))?\s*", re.I
)
_KINDS: dict[str, StanceKind] = {
    "no mercy": "no_mercy",
    "offer mercy": "offer_mercy",
    "surrender": "surrender",
    "draw": "draw",
}


def stance_of(move: Any) -> Stance | None:
    """The stance a move asks for (`{"stance": "draw", "draw_max": 3}` or the text
    `stance draw 3`), None for a move that is no stance change; MoveRefused if malformed."""
    if isinstance(move, dict) and "stance" in move:
        if not set(move) <= {"stance", "draw_max"}:
            raise MoveRefused('a stance change is {"stance": ..., "draw_max": ...} only')
        try:
            stance = msgspec.convert(
                {"kind": move["stance"], "draw_max": move.get("draw_max")}, Stance
            )
        except msgspec.ValidationError as error:
            raise MoveRefused(f"stance: {error}") from error
    elif isinstance(move, str) and (found := STANCE.fullmatch(move)):
        kind = _KINDS[found[1].lower().replace("_", " ")]
        stance = Stance(kind, int(found[2]) if found[2] else None)
    else:
        return None
    try:
        check_stance(stance)
    except ValueError as error:
        raise MoveRefused(str(error)) from error
    return stance


def submission(move: Any) -> list[str]:
    """An orders submission as its order texts: a text of §3.6 (lines separated by commas or
    new lines) or a list of texts and order objects; MoveRefused if it is neither."""
    try:
        given = msgspec.convert(move, str | list[JsonOrder])
        texts = [given] if isinstance(given, str) else [order_text(order) for order in given]
    except (msgspec.ValidationError, RequestError) as error:
        raise MoveRefused(
            f"orders are a text ('US 3 to AK, MX hold') or a list of orders: {error}"
        ) from error
    return _bounded("a submission", [text for text in texts if text.strip()])


def submissions(earlier: list[str] | None, texts: list[str]) -> list[str]:
    """A player's orders of the turn once it submitted `texts` after `earlier` (§3.4): all
    their texts, in the order sent, bounded as one submission is."""
    return _bounded("a turn's orders", [*(earlier or []), *texts])


def _bounded(what: str, texts: list[str]) -> list[str]:
    if sum(len(text) for text in texts) > MAX_SUBMISSION or len(texts) > MAX_LINES:
        bound = f"at most {MAX_SUBMISSION} characters and {MAX_LINES} orders"
        raise MoveRefused(f"{what} holds {bound}")
    return texts
