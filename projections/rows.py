"""The read models' rows: what each event writes to `read_turns`, and a game's
`read_games` row from its state."""

import msgspec

from eventstore.migrations import Connection
from projections.game import GameState
from projections.views import public_game
from schema.game_events import GameStarted, TurnResolved, TurnRewound

_encode = msgspec.json.Encoder().encode


def turn_writes(game_id: str, event: object) -> list[tuple[str, tuple[object, ...]]]:
    upsert_start = (
        "INSERT INTO read_turns (game_id, turn, start_board, effect) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id, turn) DO UPDATE SET start_board = excluded.start_board, "
        "effect = excluded.effect, resolution = NULL"
    )
    if isinstance(event, GameStarted):
        return [(upsert_start, (game_id, 1, _encode(event.board).decode(), None))]
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


async def write_game(connection: Connection, game_id: str, state: GameState, position: int) -> None:
    if state.phase == "new":
        return
    view = public_game(state, position)
    await connection.execute(
        "INSERT INTO read_games (game_id, name, phase, turn, players, position, view, "
        "next_resolution_at, next_reminder_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
        "ON CONFLICT (game_id) DO UPDATE SET name = excluded.name, phase = excluded.phase, "
        "turn = excluded.turn, players = excluded.players, position = excluded.position, "
        "view = excluded.view, next_resolution_at = excluded.next_resolution_at, "
        "next_reminder_at = excluded.next_reminder_at",
        game_id,
        state.settings.name,
        state.phase,
        state.turn,
        len(state.players),
        position,
        _encode(view).decode(),
        view.next_resolution_at,
        state.next_reminder_at(),
    )
