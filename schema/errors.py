"""Every error code the API answers, with its HTTP status and what it means: the one list.

An error is `{"error": {"code": ..., "message": ..., ...}}`; `code` is stable and says which
refusal it is, `message` says it to a person and may change. Refusals in the server take an
entry of this module (never a free string), so that a code cannot be used without being
here. A name that refers to nothing is a 404 `..._not_found` wherever it appears, in the
address or in the body.

docs/errors.md is generated from this module: `python -m schema.errors > docs/errors.md`.
"""

import sys
from typing import Any

import msgspec


class ErrorCode(msgspec.Struct, frozen=True):
    code: str
    status: int
    meaning: str


class Refusal(Exception):
    """Whatever the server refuses, the game's rules or the HTTP edge alike: an entry of
    this registry (its status is the HTTP status that fits, its code stable for clients)
    and a message fit to show a player. Subclasses name kinds of refusal for those who
    catch them (schema/refusals.py)."""

    def __init__(self, code: ErrorCode, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.entry = code
        self.message = message
        # Seconds after which the same request may succeed (a Retry-After header).
        self.retry_after = retry_after

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process too (server/http/heavy.py), and pickled back from
        # there: rebuilt as it was, whatever its kind's own arguments.
        return (_rebuilt, (type(self), self.args, self.__dict__))

    @property
    def code(self) -> str:
        return self.entry.code

    @property
    def status(self) -> int:
        return self.entry.status

    def details(self) -> dict[str, Any]:
        """Fields the refusal adds beside its code and message."""
        return {}


def _rebuilt(kind: type[Refusal], args: tuple[Any, ...], state: dict[str, Any]) -> Refusal:
    refusal = kind.__new__(kind)
    Exception.__init__(refusal, *args)
    refusal.__dict__.update(state)
    return refusal


CODES: dict[str, ErrorCode] = {}


def _code(code: str, status: int, meaning: str) -> ErrorCode:
    entry = ErrorCode(code, status, meaning)
    assert code not in CODES, code
    CODES[code] = entry
    return entry


# --- the request itself -------------------------------------------------------------
EMPTY_BODY = _code("empty_body", 400, "The call needs a JSON body and none came.")
INVALID_JSON = _code(
    "invalid_json", 400, "The body is not valid JSON, or is nested too deeply to read."
)
DUPLICATE_KEY = _code(
    "duplicate_key", 400, "An object in the body holds a key twice; the message names it."
)
BAD_ACTING_USER_ADMIN = _code(
    "bad_acting_user_admin", 400, "The header `X-Acting-User-Admin` is neither true nor false."
)
INVALID_ACTING_USER_NAME = _code(
    "invalid_acting_user_name",
    400,
    "The header `X-Acting-User-Name` is not one line of printable UTF-8 text of at most 32 "
    "characters.",
)
BAD_MESSAGE = _code(
    "bad_message",
    400,
    'A websocket\'s first message is not `{"token": "..."}`; the client of a socket that '
    "received no token in time (a spectator's) sent one later; or a socket opened with "
    "`?auth=message` received no token within 10 s (the socket closes with 4400).",
)
CLIENT_DISCONNECTED = _code(
    "client_disconnected", 400, "The client left while sending its body; nobody reads this."
)
INVALID_STORE_REQUEST = _code(
    "invalid_store_request",
    400,
    "The event store refused what the call would have it do (a name it cannot hold, say).",
)
HTTP_ERROR = _code(
    "http_error",
    400,
    "Any other error of the web framework itself, with the status it chose (none is expected).",
)
BODY_TOO_LARGE = _code("body_too_large", 413, "The body is larger than 64 KiB.")
EVENT_TOO_LARGE = _code(
    "event_too_large",
    413,
    "What the call would record is past the event store's bound (docs/eventstore.md).",
)
INVALID_REQUEST = _code(
    "invalid_request",
    422,
    "A parameter of the address is not valid (a game id, a turn number...), or the body of "
    "`POST /v1/adjudicate` is not a valid request (docs/adjudicate.md).",
)
INVALID_BODY = _code(
    "invalid_body",
    422,
    "The body does not fit the call's schema: a field missing, unknown, of the wrong type or "
    "out of its range.",
)
METHOD_NOT_ALLOWED = _code(
    "method_not_allowed",
    405,
    "The address does not take this method; the `Allow` header names those it takes.",
)

# --- who is calling -----------------------------------------------------------------
TOKEN_REQUIRED = _code(
    "token_required", 401, "The call acts for someone: it needs `Authorization: Bearer <token>`."
)
BAD_AUTHORIZATION = _code(
    "bad_authorization",
    401,
    "The `Authorization` header is not `Bearer <token>`, or a websocket was given a token "
    "both there and in `?token=`.",
)
BAD_TOKEN = _code("bad_token", 401, "The token is not known.")
ACTING_USER_REQUIRED = _code(
    "acting_user_required",
    401,
    "A trusted client's token acts for a user: the call needs `X-Acting-User`.",
)
CORS_REFUSED = _code(
    "cors_refused",
    403,
    "A browser's cross-origin preflight is refused: its origin, method or a header is not "
    "allowed (`SKIRMISH_CORS_ORIGINS`, docs/operations.md).",
)
NO_TOKENS_OF_ITS_OWN = _code(
    "no_tokens_of_its_own",
    403,
    "The operator (its token is in the server's settings) and a trusted client's users (they "
    "act through the client's token) have no tokens of their own to list, add or revoke.",
)
OPERATOR_ONLY = _code(
    "operator_only",
    403,
    "Only the server's operator may do this (trusted clients and their tokens, the clock).",
)
ADMIN_ONLY = _code("admin_only", 403, "Only an admin of the game, or the operator, may do this.")
NOT_A_PLAYER = _code("not_a_player", 403, "The caller plays no seat in this game.")
NOT_YOUR_PLAYER = _code(
    "not_your_player",
    403,
    "Acting for another player (`player` in the body) is only for a sandbox's admin.",
)
SANDBOX_ADMIN_ONLY = _code(
    "sandbox_admin_only", 403, "A sandbox has no real players: its admin plays every seat."
)
BANNED = _code("banned", 403, "The caller, or the player acted for, is banned from this game.")
PLAYER_RESIGNED = _code(
    "player_resigned", 403, "The player has resigned and gives no more orders or votes."
)
PLAYER_ELIMINATED = _code("player_eliminated", 403, "The player is out of the game.")
NOT_INVITED = _code(
    "not_invited",
    403,
    "The caller is invited to no seat of this game: only a real fork, before its start, "
    "invites, and only the holders of its source's active seats, until they decline.",
)

# --- names that refer to nothing ----------------------------------------------------
NOT_FOUND = _code("not_found", 404, "Nothing is at this address: no such route or file.")
GAME_NOT_FOUND = _code("game_not_found", 404, "No game has this id.")
PLAYER_NOT_FOUND = _code(
    "player_not_found", 404, "The game has no such player (still in the game, where it must be)."
)
ACCOUNT_NOT_FOUND = _code(
    "account_not_found", 404, "No such account (or the member named has not used the bot yet)."
)
TOKEN_NOT_FOUND = _code("token_not_found", 404, "The caller's account has no token of this id.")
CLIENT_NOT_FOUND = _code(
    "client_not_found", 404, "No trusted client has this id (`GET /v1/clients` lists them)."
)
MAP_NOT_FOUND = _code("map_not_found", 404, "No built-in map has this name (`GET /v1/maps`).")
TURN_NOT_FOUND = _code("turn_not_found", 404, "The game has not reached this turn.")
NO_FAKE_CLOCK = _code(
    "no_fake_clock", 404, "The server runs on the real clock: only `--fake-clock` moves it."
)
GAME_KILLED = _code("game_killed", 410, "An admin killed the game; it answers nothing more.")

# --- the game's state ---------------------------------------------------------------
MAP_NOT_DRAWN = _code(
    "map_not_drawn", 409, "The game has no map yet: it is drawn when the game starts."
)
WRONG_PHASE = _code(
    "wrong_phase",
    409,
    "The game is not in a phase that allows this (joining, running, paused, finished).",
)
WRONG_TURN = _code(
    "wrong_turn", 409, "The call names a turn other than the current one (it moved on)."
)
ORDERS_LOCKED = _code(
    "orders_locked",
    409,
    "Orders, votes and join-forces requests are locked around a resolution. The error's "
    "`orders_open_at` says when they open again (null while a turn that is due resolves: "
    "then a few minutes after it).",
)
GAME_EXISTS = _code("game_exists", 409, "A game with this id exists already.")
ALREADY_JOINED = _code("already_joined", 409, "The caller has already joined this game.")
ALREADY_CLAIMED = _code(
    "already_claimed", 409, "The caller has claimed their seat in this fork already."
)
FORK_NOT_JOINABLE = _code(
    "fork_not_joinable",
    409,
    "Nobody joins a real fork: its source's players claim their seats (`POST .../claim`).",
)
REAL_FORK_OF_SANDBOX = _code(
    "real_fork_of_sandbox",
    409,
    "A sandbox has no real players to invite: a fork of it is a sandbox too.",
)
GAME_FULL = _code(
    "game_full",
    409,
    "The game is full: 20 players, or on a built-in map as many as it has starting homes.",
)
NAME_TAKEN = _code("name_taken", 409, "Another player of the game has this name.")
NOT_ENOUGH_PLAYERS = _code("not_enough_players", 409, "A game starts with at least 3 players.")
ALREADY_RESIGNED = _code("already_resigned", 409, "The player has resigned already.")
CANNOT_BAN_YOURSELF = _code("cannot_ban_yourself", 409, "An admin cannot ban their own player.")
ALREADY_BANNED = _code("already_banned", 409, "The player is banned already.")
NOT_BANNED = _code("not_banned", 409, "The player (or account) is not banned from this game.")
VP_TARGET_FIXED = _code(
    "vp_target_fixed", 409, "The VP target can only change before the game starts."
)
NO_VOTE = _code("no_vote", 409, "No vote is held this turn.")
ALREADY_VOTED = _code("already_voted", 409, "A player votes once a turn.")
VOTE_NEEDS_ARMIES = _code("vote_needs_armies", 403, "Only players with armies on the board vote.")
JOIN_FORCES_WITH_ITSELF = _code(
    "join_forces_with_itself", 409, "A player cannot join forces with itself."
)
JOINED_FORCES_BEFORE = _code(
    "joined_forces_before", 409, "One of the two has joined forces once already."
)
JOIN_FORCES_TOO_LARGE = _code(
    "join_forces_too_large",
    409,
    "Together the two would control more territories than the most any player controls.",
)
JOIN_FORCES_NOT_BEHIND = _code(
    "join_forces_not_behind",
    409,
    "Neither of the two is at least 3 VP behind the leader.",
)
JOIN_FORCES_PARTNER_BANNED = _code(
    "join_forces_partner_banned", 403, "The player asked is banned from this game."
)
BROADCASTING_OFF = _code("broadcasting_off", 403, "An admin has switched broadcasting off.")
ALREADY_ADMIN = _code("already_admin", 409, "Every account named is an admin already.")
TOO_MANY_ADMINS = _code("too_many_admins", 409, "A game has at most 20 admins.")
NOT_ADMIN = _code("not_admin", 409, "The account is not an admin of this game.")
LAST_ADMIN = _code(
    "last_admin", 409, "A game keeps at least one admin: add another before removing this one."
)
ORDERS_MISSING = _code(
    "orders_missing",
    409,
    "An admin resolves a real game early only once every active player has sent orders for "
    "the turn (an empty submission says ready); the message says how many have not. The "
    "clock resolves the turn on time.",
)
NOTHING_TO_REWIND = _code("nothing_to_rewind", 409, "No resolution is left to undo.")
GAME_CHANGED = _code(
    "game_changed",
    409,
    "The game changed during a rewind (another admin rewound it?): nothing was undone.",
)
TOO_MANY_TOKENS = _code(
    "too_many_tokens", 409, "An account holds at most 20 tokens: revoke one first."
)
LAST_TOKEN = _code(
    "last_token",
    409,
    "The account's only token cannot be revoked (the account could never be used again).",
)
WRITE_CONFLICT = _code(
    "write_conflict", 409, "Another writer changed the same record at the same moment."
)
DUPLICATE = _code("duplicate", 409, "The event store holds this event already.")

# --- values -------------------------------------------------------------------------
OUT_OF_RANGE = _code(
    "out_of_range", 422, "A number is outside its range; the message says the range."
)
NAME_EMPTY = _code("name_empty", 422, "A name (a player's, a game's, an account's) is empty.")
NAME_UNPRINTABLE = _code("name_unprintable", 422, "A name must be one line of printable text.")
NAME_TOO_LONG = _code("name_too_long", 422, "A name is longer than 32 characters.")
TEXT_EMPTY = _code("text_empty", 422, "The orders or the message are empty.")
TEXT_UNPRINTABLE = _code(
    "text_unprintable",
    422,
    "The orders or the message hold unprintable characters (tabs and line breaks are fine).",
)
TEXT_TOO_LONG = _code(
    "text_too_long", 422, "The orders (4,000 characters) or the message (1,000) are too long."
)
MAP_UNUSABLE = _code(
    "map_unusable",
    422,
    "No map fits: a built-in map with too few starting homes for a game, or a generated map "
    "for a number of players out of 3-20, or a seed that gives none.",
)
UNKNOWN_GAME = _code("unknown_game", 422, "This server plays no game of this name.")
OPTIONS_REFUSED = _code(
    "options_refused", 422, "The game cannot be played with these options; the message says why."
)
MOVE_REFUSED = _code("move_refused", 422, "The game's rules do not take this move now.")
NOT_YOUR_MOVE = _code(
    "not_your_move", 409, "The game waits for another seat's move (GET the game: `to_move`)."
)
NOT_DUE = _code(
    "not_due",
    409,
    "The game's wait has not run out of time (or has no deadline): only its deadline times it "
    "out (GET the game: `next_resolution_at`).",
)
WRONG_KIND_OF_GAME = _code(
    "wrong_kind_of_game",
    409,
    "The call belongs to another game: Skirmish Society takes orders, votes and join-forces "
    "requests, and its orders and turns are read at /orders and /turns/{n}; the other games "
    "take moves, and their turns are read at /turns/{n}/play.",
)
UNKNOWN_EFFECT = _code("unknown_effect", 422, "No voting effect has this name.")
NOT_A_CANDIDATE = _code("not_a_candidate", 422, "This turn's vote is between two other effects.")
SECRET_TOO_SHORT = _code(
    "secret_too_short", 422, "A game's secret is at least 16 random bytes (the server's own)."
)
NO_ACCOUNT_NAMED = _code("no_account_named", 422, "Name the account to make an admin.")
EXACTLY_ONE_FIELD = _code(
    "exactly_one_field", 422, "The body takes exactly one of two fields; the message names them."
)
NOTHING_TO_CHANGE = _code(
    "nothing_to_change", 422, "The body changes nothing: give at least one field."
)
TIME_ZONE_REQUIRED = _code("time_zone_required", 422, "A time must carry its zone, e.g. Z.")
CLOCK_BACKWARDS = _code("clock_backwards", 422, "The clock never goes back.")
INVALID_WEBHOOK_URL = _code(
    "invalid_webhook_url", 422, "A webhook is an http(s) URL of at most 2,000 characters."
)
WEBHOOK_TARGET_REFUSED = _code(
    "webhook_target_refused",
    422,
    "The webhook's host does not resolve, or resolves to a private address.",
)
PLAYER_UNNAMED = _code(
    "player_unnamed", 422, "A text command needs a player: @name or a player id."
)
PLAYER_AMBIGUOUS = _code(
    "player_ambiguous", 422, "A text command's name fits several players: use the player id."
)

# --- later ----------------------------------------------------------------------------
RATE_LIMITED = _code(
    "rate_limited", 429, "Over a rate limit (docs/api.md, Limits): try again after Retry-After."
)
TOO_MANY_HEAVY_READS = _code(
    "too_many_heavy_reads",
    429,
    "This caller already has its share of one kind of heavy read under way (map pictures, "
    "verifications, what-ifs; docs/api.md, Limits): wait for them, then try again after "
    "Retry-After.",
)
TOO_MANY_SOCKETS = _code(
    "too_many_sockets", 429, "Too many open websockets from this account, address or in all."
)
TURN_QUOTA = _code(
    "turn_quota",
    429,
    "Past a player's quota for the turn (100 submissions, 1,000 order lines); Retry-After "
    "says when the turn resolves, which resets it.",
)
BUSY = _code(
    "busy",
    503,
    "The game is too busy right now, or the server's worker that runs its commands went away "
    "with the call under way (whether it went in is not known): try again after Retry-After.",
)
READ_MODELS_BEHIND = _code(
    "read_models_behind",
    503,
    "The read models (the games of /v1/me and /v1/games, a game's turn history; for the "
    "fake clock, every game's) have not caught up in time with what was committed before "
    'the request (docs/api.md, "Consistency"), or cannot be written for now: try again '
    "after Retry-After.",
)
SCHEDULER_BUSY = _code(
    "scheduler_busy",
    503,
    "For the fake clock: another server's scheduler kept games that fell due in hand for "
    "longer than its lease, and 30 s more: try again after Retry-After.",
)
DATABASE_UNAVAILABLE = _code(
    "database_unavailable", 503, "The database cannot be reached: try again after Retry-After."
)


def markdown() -> str:
    """docs/errors.md."""
    lines = [
        "# Error codes",
        "",
        "<!-- Generated by `python -m schema.errors > docs/errors.md`; do not edit. -->",
        "",
        'Every error answers `{"error": {"code": "...", "message": "..."}}` with the status',
        "below. `code` is stable and says which refusal it is; `message` says it to a person",
        "and may change. `orders_locked` adds `orders_open_at`. A name that refers to nothing",
        "is a 404 `..._not_found` wherever it appears, in the address or in the body.",
        "docs/api.md says which call answers what.",
    ]
    for status in sorted({entry.status for entry in CODES.values()}):
        lines += [
            "",
            f"## {status}",
            "",
            "| code | meaning |",
            "|---|---|",
        ]
        lines += [
            f"| `{entry.code}` | {entry.meaning} |"
            for entry in sorted(CODES.values(), key=lambda entry: entry.code)
            if entry.status == status
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
