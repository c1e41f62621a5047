"""Command text -> a typed request, or the problem with it. Pure: no game, no I/O.

`/color 16`, `COLOR 16` and `color 16` are the same command: the leading slash is optional
and command names are case-insensitive (a dash may stand for an underscore).
"""

import difflib
import re
import shlex
from typing import Any, Literal

import msgspec

from rules.registry import DEFAULT_GAME
from schema.api import NewGame
from schema.bounds import MAX_SEED

Argument = Literal["none", "text", "optional_text", "number", "flag", "hour", "player", "options"]


class Spec(msgspec.Struct, frozen=True):
    usage: str
    summary: str
    argument: Argument = "none"
    admin: bool = False
    # False for the commands that make sense without a game (setup, words, help).
    needs_game: bool = True


COMMANDS: dict[str, Spec] = {
    "submit": Spec("/submit <orders>", "submit orders, separated by commas", "text"),
    "list": Spec("/list", "my orders this turn and my valid orders of last turn"),
    "vote": Spec("/vote <EFFECT>", "vote in the current voting event", "text"),
    "join_forces": Spec(
        "/join_forces <@name or player id>", "ask to join forces with a player", "player"
    ),
    "color": Spec("/color <1-20>", "change my colour", "number"),
    "pattern": Spec("/pattern <1-16>", "change my pattern", "number"),
    "notifications": Spec("/notifications <true|false>", "turn my notifications on or off", "flag"),
    "refresh_name": Spec(
        "/refresh_name [new name]", "set my name, or re-apply my account's", "optional_text"
    ),
    "broadcast": Spec("/broadcast <message>", "post an anonymous public message", "text"),
    "resign": Spec("/resign", "leave the game (for good once it has started)"),
    "join": Spec("/join [name]", "join the game in its join phase", "optional_text"),
    "claim": Spec("/claim", "take my old seat in a real fork, before it starts"),
    "decline": Spec(
        "/decline", "decline my seat in a real fork (or give it back), before it starts"
    ),
    "help": Spec("/help", "the game's state and my standing", needs_game=False),
    "cheat_sheet": Spec("/cheat_sheet", "every order form with an example", needs_game=False),
    "hint": Spec("/hint", "a random hint", needs_game=False),
    "call_of_duty_loading_screen": Spec(
        "/call_of_duty_loading_screen", "sage advice, entirely useless", needs_game=False
    ),
    "setup": Spec(
        "/setup [game name]",
        "create a game; you become its admin",
        "optional_text",
        needs_game=False,
    ),
    "advanced_setup": Spec(
        "/advanced_setup [vp=N] [current_hour=HOUR] [fast_mode_enabled=true|false] "
        "[resolution_hour=HOUR] [votes=every_turn|every_other_turn|disabled] "
        "[vote_start_turn=N] [map_type=normal|spacious] [voting_mode=normal|same_day] "
        '[hints=true|false] [name="Game name"]',
        "create a game with options; you become its admin",
        "options",
        needs_game=False,
    ),
    "start": Spec("/start", "start the game", admin=True),
    "pause": Spec("/pause", "stop turns from resolving", admin=True),
    "unpause": Spec("/unpause", "let turns resolve again", admin=True),
    "broadcasting": Spec(
        "/broadcasting <true|false>", "allow or forbid /broadcast", "flag", admin=True
    ),
    "ban": Spec("/ban <@name>", "ban a player", "player", admin=True),
    "unban": Spec("/unban <@name>", "lift a ban", "player", admin=True),
    "add_admin": Spec(
        "/add_admin <@name>", "make a member an admin of the game", "player", admin=True
    ),
    "remove_admin": Spec(
        "/remove_admin <@name>",
        "stop a member being an admin (one always stays)",
        "player",
        admin=True,
    ),
    "resolution_time": Spec(
        "/resolution_time <HOUR> (0-23, or with AM/PM: 6AM, 2PM)",
        "the local hour at which turns resolve",
        "hour",
        admin=True,
    ),
    "local_time": Spec(
        "/local_time <HOUR> (the hour it is now where you are: 0-23, or 6AM, 2PM)",
        "set the game's local time zone",
        "hour",
        admin=True,
    ),
    "fast_mode": Spec(
        "/fast_mode <true|false>", "resolve every 15 minutes, or daily", "flag", admin=True
    ),
    "kill_room": Spec("/kill_room", "delete the game for good", admin=True),
    "rewind": Spec("/rewind [reason]", "undo the last resolution", "optional_text", admin=True),
    "resolve": Spec("/resolve", "resolve the current turn now", admin=True),
    "fork": Spec(
        "/fork <turn>",
        "a sandbox copy of the game from the start of a turn (admins; anyone once it ends)",
        "number",
    ),
}


class Request(msgspec.Struct, frozen=True):
    """A command understood. Which field holds its argument depends on the command's kind:
    `text` (text, optional_text, player), `number` (number, hour), `flag`, `setup`."""

    name: str
    text: str | None = None
    number: int | None = None
    flag: bool | None = None
    setup: NewGame | None = None

    @property
    def spec(self) -> Spec:
        return COMMANDS[self.name]


class Problem(msgspec.Struct, frozen=True):
    """Text that is not a command as written: what is wrong, and the usage that fits."""

    message: str
    usage: str | None = None
    suggestion: str | None = None
    # Whether the text's first word names no command: then it may be a game's move.
    unknown: bool = False


DEFAULT_GAME_NAME = "Skirmish Society"
_FLAGS = {"true": True, "on": True, "yes": True, "false": False, "off": False, "no": False}
_HOUR = re.compile(r"(\d{1,2})\s*(?:([ap])\.?\s*m\.?)?", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?\d{1,9}")
_HEAD = re.compile(r"(\S+)\s*(.*)", re.DOTALL)
_SEED = re.compile(r"\d{1,19}")
_NAMED_HOURS = {"midnight": 0, "noon": 12, "midday": 12}


def parse(text: str) -> Request | Problem:
    stripped = text.strip()
    if not stripped:
        return Problem("Send a command, for example /help or /submit BL H.")
    match = _HEAD.fullmatch(stripped)
    assert match is not None  # a stripped, non-empty text always has a first word
    head, rest = match.group(1), match.group(2)
    name = head.lstrip("/").lower().replace("-", "_")
    spec = COMMANDS.get(name)
    if spec is None:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        shown = head if head.startswith("/") else f"/{head}"
        return Problem(
            f"Unknown command: {shown[:40]}.",
            suggestion=f"/{close[0]}" if close else None,
            unknown=True,
        )
    try:
        return _argument(name, spec, rest.strip())
    except ValueError as error:
        return Problem(str(error), usage=spec.usage)


def _argument(name: str, spec: Spec, rest: str) -> Request:
    kind = spec.argument
    if kind == "none":
        if rest:
            raise ValueError(f"/{name} takes nothing after it.")
        return Request(name)
    if kind == "optional_text":
        return Request(name, text=rest or None)
    if kind == "options":
        return Request(name, setup=parse_options(rest))
    if not rest:
        raise ValueError(f"/{name} needs {_WHAT[kind]}.")
    if kind in ("text", "player"):
        return Request(name, text=rest)
    if kind == "number":
        return Request(name, number=parse_number(rest))
    if kind == "flag":
        return Request(name, flag=parse_flag(rest))
    assert kind == "hour"
    return Request(name, number=parse_hour(rest))


_WHAT: dict[Argument, str] = {
    "text": "some text",
    "player": "a player: @name or a player id",
    "number": "a number",
    "flag": "true or false",
    "hour": "an hour",
}


def parse_number(text: str) -> int:
    if not _NUMBER.fullmatch(text.strip()):
        raise ValueError(f"{text[:20]!r} is not a whole number.")
    return int(text)


def parse_flag(text: str) -> bool:
    flag = _FLAGS.get(text.strip().lower())
    if flag is None:
        raise ValueError(f"{text[:20]!r} is neither true nor false.")
    return flag


def parse_hour(text: str) -> int:
    """An hour of the day: 0-23, or 1-12 with AM or PM (12AM is 0, 12PM is 12)."""
    cleaned = text.strip().lower()
    if cleaned in _NAMED_HOURS:
        return _NAMED_HOURS[cleaned]
    match = _HOUR.fullmatch(cleaned)
    if match is None:
        raise ValueError(f"{text[:20]!r} is not an hour: use 0-23, or 1-12 with AM or PM.")
    hour, half = int(match.group(1)), match.group(2)
    if half is None:
        if hour > 23:
            raise ValueError(f"{hour} is not an hour: use 0-23.")
        return hour
    if not 1 <= hour <= 12:
        raise ValueError(f"{text.strip()[:20]} is not an hour: with AM or PM, use 1-12.")
    return hour % 12 + (12 if half == "p" else 0)


_OPTION_NAMES = {
    "vp": "vp_target",
    "vp_target": "vp_target",
    "current_hour": "current_hour",
    "fast_mode_enabled": "fast_mode",
    "fast_mode": "fast_mode",
    "resolution_hour": "resolution_hour",
    "votes": "votes",
    "vote_start_turn": "vote_start_turn",
    "map_type": "map_type",
    "voting_mode": "voting_mode",
    "hints": "hints",
    "name": "name",
    "map": "map",
    "seed": "seed",
    "sandbox": "sandbox",
    "broadcasting": "broadcasting",
    "game": "game",
}
_CHOICES = {
    "votes": ("every_turn", "every_other_turn", "disabled"),
    "map_type": ("normal", "spacious"),
    "voting_mode": ("normal", "same_day"),
}


def parse_options(text: str) -> NewGame:
    """`key=value` (or `key:value`) pairs, quoted where a value has spaces."""
    try:
        tokens = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"The options do not read: {error}.") from error
    pairs = [_pair(token) for token in tokens]
    game = next((_game_name(value) for key, value in pairs if key == "game"), DEFAULT_GAME)
    if game != DEFAULT_GAME:
        return _new_game_of(game, pairs)
    options: dict[str, Any] = {}
    for key, value in pairs:
        field = _OPTION_NAMES.get(key)
        if field is None:
            raise ValueError(f"Unknown option: {key[:30]}.")
        if field in options:
            raise ValueError(f"{key} is given twice.")
        options[field] = _option_value(field, key, value)
    options.setdefault("name", DEFAULT_GAME_NAME)
    return NewGame(**options)


def _new_game_of(game: str, pairs: list[tuple[str, str]]) -> NewGame:
    """A game run by its definition: the room's settings, and every other pair the game's
    own option, its value read as JSON where it reads (`true`, `3600`, `null`), else as
    text. The game checks its options when the game is created, with its own reasons."""
    room: dict[str, Any] = {"name": game, "game": game}
    options: dict[str, Any] = {}
    seen: set[str] = set()
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"{key} is given twice.")
        seen.add(key)
        if key == "name":
            room["name"] = value
        elif key == "sandbox":
            room["sandbox"] = parse_flag(value)
        elif key != "game":
            options[key] = _json_or_text(value)
    return NewGame(**room, options=options)


def _game_name(value: str) -> str:
    """`art-of-war`, `Art of War` and `art_of_war` are one game."""
    return re.sub(r"[\s_]+", "-", value.strip().lower())


def _json_or_text(value: str) -> object:
    try:
        return msgspec.json.decode(value)
    except msgspec.DecodeError:
        return value


def _pair(token: str) -> tuple[str, str]:
    cuts = [i for i in (token.find("="), token.find(":")) if i > 0]
    if not cuts:
        raise ValueError(f"Options are written key=value, not {token[:30]!r}.")
    cut = min(cuts)
    key, value = token[:cut].strip().lower().replace("-", "_"), token[cut + 1 :].strip()
    if not value:
        raise ValueError(f"{key} needs a value.")
    return key, value


def _option_value(field: str, key: str, value: str) -> object:
    if field in ("current_hour", "resolution_hour"):
        return parse_hour(value)
    if field == "game":
        return _game_name(value)
    if field == "seed":
        if not _SEED.fullmatch(value) or int(value) > MAX_SEED:
            raise ValueError(f"seed is a whole number from 0 to {MAX_SEED}.")
        return int(value)
    if field in ("vp_target", "vote_start_turn"):
        return parse_number(value)
    if field in ("fast_mode", "hints", "sandbox", "broadcasting"):
        return parse_flag(value)
    if field in _CHOICES:
        choice = re.sub(r"[\s-]+", "_", value.strip().lower())
        if choice not in _CHOICES[field]:
            raise ValueError(f"{key} is one of {', '.join(_CHOICES[field])}.")
        return choice
    return value
