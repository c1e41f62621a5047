"""The read models' rows as a batch of events leaves them: folded in memory, game by game,
then written for every game of the batch at once, with a few multi-row statements.

What the events do to `read_turns`: a start (GameStarted, GameForked, and each resolution
for the turn after it) writes the turn's whole row; a resolution fills in its turn's row;
a rewind deletes the turns after its own and empties its resolution. Within a batch, a
row written whole takes in every later change to it; a change to a row from before the
batch stays a change, made to whatever the table holds, as one statement per event would.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from eventstore.migrations import Connection
from projections.game import GameState, Player
from schema.events import event_type
from schema.game_events import GameForked, GameStarted, TurnResolved, TurnRewound

_encode = msgspec.json.Encoder().encode

# One row of `read_members`: the account, its seat and the seat's status, whether it is on
# the game's list of admins, and the seat it is invited to claim (a real fork's, before its
# start).
Member = tuple[str, str | None, str | None, bool, str | None]
_TURN_EVENTS = (GameStarted, GameForked, TurnResolved, TurnRewound)
# Their stored types: where the game's state is known, no other event need be read for rows.
TURN_EVENT_TYPES = frozenset(event_type(cls) for cls in _TURN_EVENTS)


@dataclass(slots=True)
class _Turn:
    """A turn's row: whole (`start_board` known), or the change of a row from before."""

    start_board: str | None
    effect: str | None
    resolution: str | None
    sets_effect: bool


class GameRows:
    """One game's rows after some of its events: its turns, and its entry as of `state`.
    `before` is the state whose rows the table holds, when known (its members are written
    again only if they differ)."""

    def __init__(self, game_id: str, before: GameState | None) -> None:
        self.game_id = game_id
        self.before = before
        self.state: GameState | None = None
        self.position = 0
        self.turns: dict[int, _Turn] = {}
        # The table's turns after this one are deleted before the rows are written.
        self.cut: int | None = None

    def add(self, event: object) -> None:
        """Take in what `event` does to the game's turns."""
        # Most events (orders, notices) leave the turns alone: one test for all of them.
        if not isinstance(event, _TURN_EVENTS):
            return
        if isinstance(event, GameStarted):
            self._start(1, event.board, None)
        elif isinstance(event, GameForked):
            self._start(event.turn, event.board, event.effect)
        elif isinstance(event, TurnResolved):
            turn = self._turn(event.turn)
            turn.resolution, turn.effect, turn.sets_effect = _text(event), event.effect, True
            self._start(event.turn + 1, event.board, event.next_effect)
        elif isinstance(event, TurnRewound):
            self.truncate(event.turn)
            self._turn(event.turn).resolution = None

    def truncate(self, turn: int) -> None:
        """Every turn after `turn` is gone, in the table as well as here."""
        for later in [t for t in self.turns if t > turn]:
            del self.turns[later]
        self.cut = turn if self.cut is None else min(self.cut, turn)

    def _start(self, turn: int, board: object, effect: str | None) -> None:
        self.turns[turn] = _Turn(_text(board), effect, None, True)

    def _turn(self, turn: int) -> _Turn:
        found = self.turns.get(turn)
        if found is None:
            found = self.turns[turn] = _Turn(None, None, None, False)
        return found


def _text(value: object) -> str:
    return _encode(value).decode()


async def write(connection: Connection, games: Sequence[GameRows]) -> None:
    """Write the rows of `games` (one each), in game order, as the scheduler's claims lock
    them: the deletions of rewinds first, then the turns, the games and their members."""
    games = sorted(games, key=lambda rows: rows.game_id)
    cuts = [(rows.game_id, rows.cut) for rows in games if rows.cut is not None]
    if cuts:
        await connection.execute(
            "DELETE FROM read_turns t USING unnest($1::text[], $2::int[]) AS c(game_id, turn) "
            "WHERE t.game_id = c.game_id AND t.turn > c.turn",
            *_columns(cuts, 2),
        )
    whole = [
        (rows.game_id, number, turn.start_board, turn.effect, turn.resolution)
        for rows in games
        for number, turn in sorted(rows.turns.items())
        if turn.start_board is not None
    ]
    if whole:
        await connection.execute(
            "INSERT INTO read_turns (game_id, turn, start_board, effect, resolution) "
            "SELECT g, t, b::json, e, r::json "
            "FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) "
            "AS u(g, t, b, e, r) "
            "ON CONFLICT (game_id, turn) DO UPDATE SET start_board = excluded.start_board, "
            "effect = excluded.effect, resolution = excluded.resolution",
            *_columns(whole, 5),
        )
    changed = [
        (rows.game_id, number, turn.resolution, turn.effect, turn.sets_effect)
        for rows in games
        for number, turn in sorted(rows.turns.items())
        if turn.start_board is None
    ]
    if changed:
        await connection.execute(
            "UPDATE read_turns t SET resolution = u.r::json, "
            "effect = CASE WHEN u.s THEN u.e ELSE t.effect END "
            "FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::boolean[]) "
            "AS u(g, n, r, e, s) WHERE t.game_id = u.g AND t.turn = u.n",
            *_columns(changed, 5),
        )
    await _write_games(connection, [rows for rows in games if rows.state is not None])


async def _write_games(connection: Connection, games: list[GameRows]) -> None:
    entries: list[tuple[object, ...]] = []
    found: list[tuple[str, Member]] = []
    renewed: list[str] = []
    for rows in games:
        state = rows.state
        assert state is not None
        if state.phase == "new":
            continue
        entries.append(
            (
                rows.game_id,
                state.settings.name,
                state.phase,
                state.turn,
                len(state.players),
                rows.position,
                state.next_resolution_at(),
                state.next_reminder_at(),
                state.client_id,
            )
        )
        now = members(state)
        if rows.before is None or members(rows.before) != now:
            renewed.append(rows.game_id)
            found.extend((rows.game_id, member) for member in now)
    if not entries:
        return
    await connection.execute(
        "INSERT INTO read_games (game_id, name, phase, turn, players, position, "
        "next_resolution_at, next_reminder_at, client_id) "
        "SELECT g, n, p, t, c, o, r, m, l FROM unnest($1::text[], $2::text[], "
        "$3::text[], $4::int[], $5::int[], $6::bigint[], $7::timestamptz[], "
        "$8::timestamptz[], $9::text[]) AS u(g, n, p, t, c, o, r, m, l) "
        "ON CONFLICT (game_id) DO UPDATE SET name = excluded.name, phase = excluded.phase, "
        "turn = excluded.turn, players = excluded.players, position = excluded.position, "
        "next_resolution_at = excluded.next_resolution_at, "
        "next_reminder_at = excluded.next_reminder_at, client_id = excluded.client_id",
        *_columns(entries, 9),
    )
    if not renewed:
        return
    await connection.execute("DELETE FROM read_members WHERE game_id = ANY($1::text[])", renewed)
    # Every game has an admin, so each renewed game has members.
    await connection.execute(
        "INSERT INTO read_members (game_id, account_id, player_id, player_status, admin, "
        "invited_to) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], "
        "$5::boolean[], $6::text[])",
        *_columns([(game_id, *member) for game_id, member in found], 6),
    )


def _columns(rows: Sequence[tuple[object, ...]], width: int) -> list[list[object]]:
    """Rows as columns, one array parameter each, for `unnest`."""
    return [[row[n] for row in rows] for n in range(width)]


def members(state: GameState) -> list[Member]:
    """The accounts of the game's seats, its admins, and those invited to claim a seat, by
    account. A sandbox's seats are all its admin's: it names none of them."""
    seats: dict[str, Player] = {}
    if not state.settings.sandbox:
        seats = {a: player for player in state.players.values() for a in player.accounts}
    invited = {
        a: seat
        for seat, who in state.invited.items()
        for a in who
        if a not in state.banned_accounts
    }
    return [
        (
            account,
            seats[account].id if account in seats else None,
            seats[account].status if account in seats else None,
            account in state.admins,
            invited.get(account),
        )
        for account in sorted(seats.keys() | set(state.admins) | invited.keys())
    ]
