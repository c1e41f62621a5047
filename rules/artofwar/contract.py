"""The Art of War's adjudication contract (§8, docs/art-of-war.md): one turn as JSON in, JSON
out, bit for bit the same for the same request."""

import re
from functools import lru_cache
from typing import Any, Literal

import msgspec

from rules.artofwar.board import Board, MapError, board_from_object
from rules.artofwar.diplomacy import Stance, StanceKind, check_stance
from rules.artofwar.draws import Draws
from rules.artofwar.maps import builtin_board
from rules.artofwar.options import Options
from rules.artofwar.records import TurnResult
from rules.artofwar.resolve import resolve
from rules.artofwar.state import Player, State, Status
from rules.kit.inline import InlineKey, inline_key
from rules.kit.prng import SeededRandom
from rules.kit.requests import RequestError, decoded

# Bounds that keep one request to a reasonable amount of work: every unit may draw once.
MAX_PLAYERS = 100
MAX_UNITS = 100_000
MAX_DRAWS = 2 * MAX_UNITS
MAX_ORDER_TEXT = 100_000
MAX_TURN = 1_000_000
_SEED = re.compile(r"[0-9a-fA-F]{16}")
_SEPARATOR = re.compile(r"[,\n]")


class ArtOfWarPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    status: Status = "active"
    stance: StanceKind = "no_mercy"
    draw_max: int | None = None


class ArtOfWarMove(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="move"
):
    source: str = msgspec.field(name="from")
    target: str = msgspec.field(name="to")
    units: int = 0


class ArtOfWarHold(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="hold"
):
    source: str = msgspec.field(name="from")


class ArtOfWarPlace(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="place"
):
    territory: str
    units: int


# An order is its text (§3.6) or the same as an object, tagged by `kind`; an object is read
# as the text it stands for, so both forms are checked and reported alike.
JsonOrder = str | ArtOfWarMove | ArtOfWarHold | ArtOfWarPlace


class ArtOfWarRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ruleset: Literal["art-of-war"]
    map: str | dict[str, Any]
    players: dict[str, ArtOfWarPlayer]
    # Only `placement` matters within a turn; the others are accepted and have no effect.
    options: Options = Options()
    turn: int = 1
    owners: dict[str, str] = {}
    units: dict[str, int] = {}
    pending_builds: dict[str, int] = {}
    orders: dict[str, list[JsonOrder]] = {}
    seed: str | None = None
    draws: list[float] | None = None


class ArtOfWarResponse(TurnResult, frozen=True, omit_defaults=True):
    # The turn seed, echoed when the request gave one.
    seed: str | None = None
    # With given draws: how many were not needed.
    draws_unused: int = 0


_decoder = msgspec.json.Decoder(ArtOfWarRequest)
_encoder = msgspec.json.Encoder()


def adjudicate_json(data: bytes | str) -> bytes:
    """The contract as bytes: what `skirmish adjudicate` and `POST /v1/adjudicate` serve for
    `"ruleset": "art-of-war"`."""
    request = decoded(_decoder, data)
    return _encoder.encode(respond(request))


def respond(request: ArtOfWarRequest) -> ArtOfWarResponse:
    board = _board(request.map)
    state = _state(request, board)
    draws = _draws(request)
    orders = {
        player: [order_text(order) for order in given] for player, given in request.orders.items()
    }
    for player in orders:
        if player not in state.players:
            raise RequestError(f"orders of an unknown player: {player!r}")
    if sum(len(text) for texts in orders.values() for text in texts) > MAX_ORDER_TEXT:
        raise RequestError(f"at most {MAX_ORDER_TEXT} characters of orders")
    result = resolve(board, request.options.placement, state, orders, draws)
    given = request.draws
    if given is not None and draws.missing:
        raise RequestError(f"needed {len(draws.taken)} draws, got {len(given)}")
    fields = {name: getattr(result, name) for name in TurnResult.__struct_fields__}
    unused = 0 if given is None else len(given) - len(draws.taken)
    return ArtOfWarResponse(**fields, seed=request.seed, draws_unused=unused)


def order_text(order: JsonOrder) -> str:
    if not isinstance(order, str):
        for name in msgspec.structs.astuple(order):
            # A separator inside a name would make one object several orders.
            if isinstance(name, str) and _SEPARATOR.search(name):
                raise RequestError(
                    f"a territory in an order object has a ',' or a new line: {name!r}"
                )
    match order:
        case ArtOfWarMove(source, target, units):
            return f"{source} {units} to {target}"
        case ArtOfWarHold(source):
            return f"{source} hold"
        case ArtOfWarPlace(territory, units):
            return f"place {units} {territory}"
    return order


def _board(spec: str | dict[str, Any]) -> Board:
    try:
        if isinstance(spec, str):
            return builtin_board(spec)
        key = inline_key(spec)
        return board_from_object(spec) if key is None else _inline_board(key)
    except MapError as error:
        raise RequestError(str(error)) from error


# Checking and building an inline map of 120 territories cost as much as resolving the turn's
# orders; a few kept by content, the latest (lru_cache keeps no map that failed its checks).
@lru_cache(maxsize=16)
def _inline_board(key: InlineKey) -> Board:
    return board_from_object(key.spec)


def _state(request: ArtOfWarRequest, board: Board) -> State:
    players: dict[str, Player] = {}
    if not 1 <= len(request.players) <= MAX_PLAYERS:
        raise RequestError(f"1 to {MAX_PLAYERS} players")
    for name, entry in request.players.items():
        stance = Stance(entry.stance, entry.draw_max)
        try:
            check_stance(stance)
        except ValueError as error:
            raise RequestError(f"the stance of {name}: {error}") from error
        players[name] = Player(entry.status, stance)
    for territory, owner in request.owners.items():
        _known(territory, board)
        if owner not in players:
            raise RequestError(f"{territory} is owned by an unknown player: {owner!r}")
        if players[owner].status == "eliminated":
            raise RequestError(f"an eliminated player owns {territory}: {owner}")
    for territory, n in request.units.items():
        _known(territory, board)
        if n < 0:
            raise RequestError(f"negative units in {territory}")
    pending = request.pending_builds
    if any(pending.values()) and request.options.placement != "free":
        raise RequestError("pending_builds needs free placement")
    for player, n in pending.items():
        if player not in players or n < 0:
            raise RequestError(f"pending_builds: {player!r} must be a player, with 0 or more")
    if sum(request.units.values()) + sum(pending.values()) > MAX_UNITS:
        raise RequestError(f"at most {MAX_UNITS} units in all")
    if not 1 <= request.turn <= MAX_TURN:
        raise RequestError(f"the turn is 1 to {MAX_TURN}")
    return State(request.turn, players, dict(request.owners), dict(request.units), dict(pending))


def _known(territory: str, board: Board) -> None:
    if territory not in board.territories:
        raise RequestError(f"no such territory on the map: {territory!r}")


def _draws(request: ArtOfWarRequest) -> Draws:
    if (request.seed is None) == (request.draws is None):
        raise RequestError("give exactly one of seed and draws")
    if request.seed is not None:
        if not _SEED.fullmatch(request.seed):
            raise RequestError("the seed is 16 hex digits")
        return Draws(stream=SeededRandom(int(request.seed, 16)))
    given = request.draws or []
    if len(given) > MAX_DRAWS:
        raise RequestError(f"at most {MAX_DRAWS} draws")
    if not all(0.0 <= u < 1.0 for u in given):
        raise RequestError("every draw is a number in [0, 1)")
    return Draws(given=given)
