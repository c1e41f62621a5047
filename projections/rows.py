"""The read models' rows: what each event writes to `read_turns`, and a game's
`read_games` and `read_members` rows from its state."""

import msgspec

from eventstore.migrations import Connection
from projections.game import GameState, Player
from projections.views import public_game
from schema.game_events import GameForked, GameStarted, TurnResolved, TurnRewound

_encode = msgspec.json.Encoder().encode

# One row of `read_members`: the account, its seat and the seat's status, and whether it is
# on the game's list of admins.
Member = tuple[str, str | None, str | None, bool]


def turn_writes(game_id: str, event: object) -> list[tuple[str, tuple[object, ...]]]:
    upsert_start = (
        "INSERT INTO read_turns (game_id, turn, start_board, effect) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id, turn) DO UPDATE SET start_board = excluded.start_board, "
        "effect = excluded.effect, resolution = NULL"
    )
    if isinstance(event, GameStarted):
        return [(upsert_start, (game_id, 1, _encode(event.board).decode(), None))]
    if isinstance(event, GameForked):
        board = _encode(event.board).decode()
        return [(upsert_start, (game_id, event.turn, board, event.effect))]
    if isinstance(event, TurnResolved):
        return [
            (
                "UPDATE read_turns SET resolution = $3, effect = $4 "
                "WHERE game_id = $1 AND turn = $2",
                (game_id, event.turn, _encode(event).decode(), event.effect),
            ),
            (
                upsert_start,
                (game_id, event.turn + 1, _encode(event.board).decode(), event.next_effect),
            ),
        ]
    if isinstance(event, TurnRewound):
        return [
            ("DELETE FROM read_turns WHERE game_id = $1 AND turn > $2", (game_id, event.turn)),
            (
                "UPDATE read_turns SET resolution = NULL WHERE game_id = $1 AND turn = $2",
                (game_id, event.turn),
            ),
        ]
    return []


async def write_game(
    connection: Connection,
    game_id: str,
    state: GameState,
    position: int,
    before: GameState | None = None,
) -> None:
    """The game's rows as of `state`; its members only if they differ from those of
    `before` (the state last written, when known)."""
    if state.phase == "new":
        return
    view = public_game(state, position)
    await connection.execute(
        "INSERT INTO read_games (game_id, name, phase, turn, players, position, view, "
        "next_resolution_at, next_reminder_at, client_id) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
        "ON CONFLICT (game_id) DO UPDATE SET name = excluded.name, phase = excluded.phase, "
        "turn = excluded.turn, players = excluded.players, position = excluded.position, "
        "view = excluded.view, next_resolution_at = excluded.next_resolution_at, "
        "next_reminder_at = excluded.next_reminder_at, client_id = excluded.client_id",
        game_id,
        state.settings.name,
        state.phase,
        state.turn,
        len(state.players),
        position,
        _encode(view).decode(),
        view.next_resolution_at,
        state.next_reminder_at(),
        state.client_id,
    )
    found = members(state)
    if before is not None and members(before) == found:
        return
    await connection.execute("DELETE FROM read_members WHERE game_id = $1", game_id)
    # Every game has an admin, so `found` is never empty.
    accounts, players, statuses, admins = (list(column) for column in zip(*found, strict=True))
    await connection.execute(
        "INSERT INTO read_members (game_id, account_id, player_id, player_status, admin) "
        "SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[])",
        game_id,
        accounts,
        players,
        statuses,
        admins,
    )


def members(state: GameState) -> list[Member]:
    """The accounts of the game's seats and its admins, by account. A sandbox's seats are
    all its admin's: it names none of them."""
    seats: dict[str, Player] = {}
    if not state.settings.sandbox:
        seats = {a: player for player in state.players.values() for a in player.accounts}
    return [
        (
            account,
            seats[account].id if account in seats else None,
            seats[account].status if account in seats else None,
            account in state.admins,
        )
        for account in sorted(seats.keys() | set(state.admins))
    ]
