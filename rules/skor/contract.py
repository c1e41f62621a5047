"""Skor's adjudication contract (docs/skor.md, "JSON contract"): a setup, or actions on a
state, as JSON in, JSON out; the same request gives the same answer bit for bit."""

from typing import Annotated, Any, Literal

import msgspec

from rules.kit.requests import RequestError, decoded
from rules.skor.actions import KINDS, Action
from rules.skor.dice import Dice, DieRecord, RollsError
from rules.skor.engine import Result, act, check_player, submit_text
from rules.skor.game import Refused
from rules.skor.setup import Choice, SetupError, roll_setup, start
from rules.skor.state import Options, State
from rules.skor.validate import MAX_NAME, StateError, validate

MAX_ENTRIES = 10_000
MAX_TEXT = 10_000
MAX_ROLLS = 100_000
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]


class SetupRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: Annotated[list[Name], msgspec.Meta(min_length=2, max_length=2)]
    options: Options = Options()
    choices: dict[Name, Choice] | None = None


class SkorRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ruleset: Literal["skor"]
    setup: SetupRequest | None = None
    state: State | None = None
    action: dict[str, Any] | None = None
    actions: Annotated[list[dict[str, Any]], msgspec.Meta(max_length=MAX_ENTRIES)] | None = None
    seed: Annotated[str, msgspec.Meta(max_length=256, pattern="^([0-9a-fA-F]{2})+$")] | None = None
    rolls: (
        Annotated[
            list[Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]],
            msgspec.Meta(max_length=MAX_ROLLS),
        ]
        | None
    ) = None


class SkorResponse(msgspec.Struct, frozen=True):
    """The answer, as documented for POST /v1/adjudicate: a setup's rolls (`order_roll`,
    `players`, `territories`; with the choices, the `state` and its `events` too), or the
    `state` after the actions with each one's `results`; and every die rolled."""

    dice: list[DieRecord]
    rolls: list[int]
    order_roll: int | None = None
    players: list[str] | None = None
    # Each territory's rolled terrain (rules/skor/setup.py's Territory, by its own name:
    # there are other games' territories in the document).
    territories: dict[str, dict[str, Any]] | None = None
    state: State | None = None
    events: list[dict[str, Any]] | None = None
    results: list[dict[str, Any]] | None = None
    rolls_unused: int | None = None


_decoder = msgspec.json.Decoder(SkorRequest)
_encoder = msgspec.json.Encoder()


def _dice(request: SkorRequest) -> Dice:
    if (request.seed is None) == (request.rolls is None):
        raise RequestError("malformed request: give exactly one of `seed` and `rolls`")
    if request.seed is not None:
        return Dice(secret=bytes.fromhex(request.seed))
    return Dice(rolls=list(request.rolls or []))


def _setup(setup: SetupRequest, dice: Dice) -> dict[str, Any]:
    if setup.players[0] == setup.players[1]:
        raise RequestError("malformed request: the two players need different names")
    rolled = roll_setup(setup.players, setup.options, dice)
    if setup.choices is None:
        return msgspec.structs.asdict(rolled) | {"options": None}
    try:
        chosen, state, events = start(rolled, setup.choices, dice)
    except SetupError as error:
        raise RequestError(f"malformed request: {error}") from error
    answer = msgspec.structs.asdict(chosen)
    return answer | {"options": None, "state": state, "events": events}


def _reported(
    player: str, text: str | None, action: Action | None, result: Result
) -> dict[str, Any]:
    report: dict[str, Any] = {"player": player}
    if text is not None:
        report["text"] = text
    if action is not None:
        report["action"] = action
    if result.refused is None:
        report |= {"result": "ok", "events": result.events}
    else:
        report |= {"result": "refused", "reason": result.refused}
    return report


def _entry(state: State, entry: dict[str, Any], dice: Dice) -> tuple[State, list[dict[str, Any]]]:
    """One entry's results (a text entry may hold several lines) and the state after it."""
    player = entry.get("player")
    if not isinstance(player, str) or len(player) > MAX_NAME:
        raise RequestError("malformed request: every action names its `player`")
    if "text" in entry:
        text = entry["text"]
        if not isinstance(text, str) or len(text) > MAX_TEXT or set(entry) != {"player", "text"}:
            raise RequestError(
                f"malformed request: a text entry is a player and a text (at most {MAX_TEXT})"
            )
        after, done = submit_text(state, player, text, dice)
        reports = [
            {"player": player, "text": line.text, "result": "not_run"}
            if line.result is None
            else _reported(player, line.text, line.action, line.result)
            for line in done
        ]
        return after, reports
    fields = {key: value for key, value in entry.items() if key != "player"}
    name = fields.get("action")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        try:
            check_player(state, player, name == "resign")
            raise Refused(f"no such action: {name}")
        except Refused as refusal:
            return state, [_reported(player, None, None, Result(state, [], refusal.reason))]
    try:
        action = msgspec.convert(fields, kind)
    except msgspec.ValidationError as error:
        raise RequestError(f"malformed request: {name}: {error}") from error
    result = act(state, player, action, dice)
    return result.state, [_reported(player, None, action, result)]


def _actions(request: SkorRequest, state: State, dice: Dice) -> dict[str, Any]:
    try:
        validate(state)
    except StateError as error:
        raise RequestError(f"malformed request: state: {error}") from error
    if (request.action is None) == (request.actions is None):
        raise RequestError("malformed request: give exactly one of `action` and `actions`")
    entries = [request.action] if request.action is not None else request.actions or []
    results: list[dict[str, Any]] = []
    for entry in entries:
        state, reports = _entry(state, entry, dice)
        results.extend(reports)
    return {"state": state, "results": results}


def adjudicate_json(data: bytes | str) -> bytes:
    """The answer to one request; RequestError when the request is malformed."""
    request = decoded(_decoder, data)
    if (request.setup is None) == (request.state is None):
        raise RequestError("malformed request: give exactly one of `setup` and `state`")
    dice = _dice(request)
    try:
        if request.setup is not None:
            if request.action is not None or request.actions is not None:
                raise RequestError("malformed request: a setup takes no actions")
            answer = _setup(request.setup, dice)
        else:
            assert request.state is not None
            answer = _actions(request, request.state, dice)
    except RollsError as error:
        raise RequestError(f"malformed request: {error}") from error
    answer = {key: value for key, value in answer.items() if value is not None}
    answer |= {"dice": dice.records, "rolls": [record.value for record in dice.records]}
    if dice.unused:
        answer["rolls_unused"] = dice.unused
    return _encoder.encode(answer)
