"""The adjudication contract (docs/adjudicate.md): one turn as JSON in, JSON out."""

from collections.abc import Mapping
from functools import lru_cache
from itertools import chain
from typing import Any, Literal

import msgspec

from rules.kit.inline import InlineKey, inline_key
from rules.kit.requests import RequestError, decoded
from rules.skirmish.board import Board, GameMap, MapError, map_from_object
from rules.skirmish.effects import Effect, parse_effect
from rules.skirmish.maps import builtin_map
from rules.skirmish.position import Position
from rules.skirmish.strengths import Explanation
from rules.skirmish.turn import Death, OrderReport, TurnInput, resolve_turn

# Bounds that keep one request to a reasonable amount of work.
MAX_TERRITORIES = 1000
MAX_ORDER_TEXT = 100_000


class PlayerEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    vp: int = 0
    # Accepted for compatibility; a joint player is just one player to the engine.
    joint: list[str] | None = None


class Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    map: str | dict[str, Any]
    players: dict[str, PlayerEntry]
    # Which game's contract (rules/adjudication.py); absent in requests from before others.
    ruleset: Literal["skirmish-society"] = "skirmish-society"
    armies: dict[str, str] = {}
    control: dict[str, str] = {}
    farms: list[str] = []
    orders: dict[str, list[str]] = {}
    effect: str | None = None
    vp_target: int = 10
    resigned: list[str] = []
    # Extensions: join-forces pairs taking effect this turn, and per-order explanations.
    join_forces: list[tuple[str, str]] = []
    explain: bool = False


class Response(msgspec.Struct, frozen=True, omit_defaults=True):
    orders: list[OrderReport]
    armies: dict[str, str]
    control: dict[str, str]
    farms: list[str]
    dead: list[Death]
    vp: dict[str, int]
    vp_gained: dict[str, int]
    eliminated: list[str]
    winner: str | None
    joined: dict[str, list[str]] = {}


_decoder = msgspec.json.Decoder(Request)
_encoder = msgspec.json.Encoder()
__all__ = ["Explanation", "RequestError", "adjudicate", "adjudicate_json"]


def adjudicate(request: dict[str, Any]) -> dict[str, Any]:
    """The contract as Python objects: a decoded JSON request in, a JSON-ready dict out."""
    try:
        decoded = msgspec.convert(request, Request)
    except msgspec.ValidationError as error:
        raise RequestError(f"malformed request: {error}") from error
    # The dict that `msgspec.to_builtins(_respond(decoded))` would give, built directly:
    # the position's dicts and lists are made afresh for each turn and are already plain,
    # so only the reports and deaths need converting (tests/rules/test_contract.py checks
    # that both entries agree on every golden case).
    outcome = resolve_turn(_turn(decoded), explain=decoded.explain)
    position = outcome.position
    response = {
        "orders": msgspec.to_builtins(outcome.orders),
        "armies": position.armies,
        "control": position.control,
        "farms": sorted(position.farms),
        "dead": msgspec.to_builtins(outcome.dead),
        "vp": outcome.vp,
        "vp_gained": outcome.vp_gained,
        "eliminated": outcome.eliminated,
        "winner": outcome.winner,
    }
    if outcome.joined:  # omitted when empty, as Response omits its defaults
        response["joined"] = _joined(outcome.joined)
    return response


def adjudicate_json(data: bytes | str) -> bytes:
    """The contract as bytes: what `skirmish adjudicate` and `POST /v1/adjudicate` serve."""
    return _encoder.encode(_respond(decoded(_decoder, data)))


def _respond(request: Request) -> Response:
    turn = _turn(request)
    outcome = resolve_turn(turn, explain=request.explain)
    position = outcome.position
    return Response(
        orders=outcome.orders,
        armies=position.armies,
        control=position.control,
        farms=sorted(position.farms),
        dead=outcome.dead,
        vp=outcome.vp,
        vp_gained=outcome.vp_gained,
        eliminated=outcome.eliminated,
        winner=outcome.winner,
        joined=_joined(outcome.joined),
    )


def _joined(joined: dict[str, tuple[str, str]]) -> dict[str, list[str]]:
    return {joint: list(pair) for joint, pair in joined.items()}


def _turn(request: Request) -> TurnInput:
    game_map = _map(request.map)
    board = game_map.board
    players = request.players
    # The loops name the first fault; the set checks skip them when there is none, and
    # the usually empty fields are not looked at at all.
    armies, control, farms = request.armies, request.control, request.farms
    if not (armies.keys() <= board.ids and players.keys() >= set(armies.values())):
        for territory, player in armies.items():
            _known_territory(territory, board, "armies")
            _known_player(player, players, f"the army in {territory}")
    if control and not (control.keys() <= board.ids and players.keys() >= set(control.values())):
        for territory, player in control.items():
            _known_territory(territory, board, "control")
            _known_player(player, players, f"control of {territory}")
    if farms and not board.barracks.issuperset(farms):
        for territory in farms:
            _known_territory(territory, board, "farms")
            if territory not in board.barracks:
                raise RequestError(f"a farm must be a former barracks, {territory} never was one")
    orders = request.orders
    if not players.keys() >= orders.keys():
        for player in orders:
            _known_player(player, players, "orders")
    text_size = sum(map(len, chain.from_iterable(orders.values())))
    if text_size > MAX_ORDER_TEXT:
        raise RequestError(f"orders too long: {text_size} characters (at most {MAX_ORDER_TEXT})")
    for player in request.resigned:
        _known_player(player, players, "resigned")
    if request.join_forces:
        joined: set[str] = set()
        for pair in request.join_forces:
            for player in pair:
                _known_player(player, players, "join_forces")
                if player in joined:
                    raise RequestError(f"join_forces names {player!r} twice")
                joined.add(player)
    if request.vp_target < 1:
        raise RequestError(f"vp_target must be at least 1, not {request.vp_target}")
    return TurnInput(
        game_map=game_map,
        position=Position(
            armies=dict(armies),
            control={**armies, **control} if control else dict(armies),
            farms=frozenset(farms),
        ),
        vp={player: entry.vp for player, entry in players.items()},
        orders=orders,
        effect=_effect(request.effect),
        vp_target=request.vp_target,
        resigned=frozenset(request.resigned),
        joins=tuple(request.join_forces),
    )


def _known_player(player: str, players: Mapping[str, object], where: str) -> None:
    if player not in players:
        raise RequestError(f"{where} names an unknown player: {player!r}")


def _known_territory(territory: str, board: Board, where: str) -> None:
    if territory not in board.ids:
        raise RequestError(f"{where} names a territory that does not exist: {territory!r}")


def _map(spec: str | dict[str, Any]) -> GameMap:
    try:
        game_map = builtin_map(spec) if isinstance(spec, str) else _inline_map(spec)
    except MapError as error:
        raise RequestError(str(error)) from error
    if len(game_map.territories) > MAX_TERRITORIES:
        raise RequestError(f"map too large: at most {MAX_TERRITORIES} territories")
    return game_map


def _inline_map(spec: dict[str, Any]) -> GameMap:
    """An inline map, converted and checked once while it keeps coming back (a game sends
    its generated map with every turn): encoding it is far cheaper than building it."""
    key = inline_key(spec)
    return map_from_object(spec) if key is None else _converted_map(key)


@lru_cache(maxsize=16)
def _converted_map(key: InlineKey) -> GameMap:
    game_map = map_from_object(key.spec)
    game_map.board  # noqa: B018 (built once, with the map)
    return game_map


def _effect(name: str | None) -> Effect | None:
    if name is None:
        return None
    try:
        return parse_effect(name)
    except ValueError as error:
        raise RequestError(str(error)) from error
