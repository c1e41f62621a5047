"""Skor's standings (rules/game.py `Ranked`): no score (docs/design/games.md §3), but what §7.5
makes public of each player: its territory, its culture (null until both chose: the choices
are sealed till then), its pieces on the board, its tech levels, the Resource it has to spend
(only the player whose turn it is has any: Resource does not carry over) and the Resource
sent to it, and where it stands: `active`, then `won`, `lost`, `drew` or `resigned`. Whose
turn it is is the room's to say (`to_move`)."""

from rules.game import Column, Ending, Standing
from rules.skor.setup import Setup
from rules.skor.state import BRANCHES, State, Tech

# Best first: the winner, then the loser; a draw's players, and players still playing, level.
_RANK = {"won": 0, "drew": 0, "active": 0, "lost": 1, "resigned": 1}


def standings(setup: Setup, game: State | None, ending: Ending | None) -> list[Standing]:
    """Both players, the winner first, else in the order they play (A first)."""
    territory = {t.player: name for name, t in setup.territories.items()}
    rows = []
    for seat in setup.players:
        columns: dict[str, Column] = {"territory": territory[seat]}
        columns.update(_in_play(game, seat))
        columns["status"] = "active" if ending is None else ending.results[seat]
        rows.append(Standing(seat, columns))
    return sorted(rows, key=lambda row: _RANK[str(row.columns["status"])])


def _in_play(game: State | None, seat: str) -> dict[str, Column]:
    """Nothing is on the board before both chose: their cultures are secret till then."""
    if game is None:
        return {
            "culture": None,
            "civilians": 0,
            "military": 0,
            "tech": "",
            "available": 0,
            "incoming": 0,
        }
    kinds = [piece.kind for piece in game.pieces if piece.player == seat]
    tech = game.tech.get(seat, Tech())
    levels = [f"{branch} {tech.level(branch)}" for branch in BRANCHES if tech.level(branch)]
    mine = game.turn.player == seat and game.ending is None
    return {
        "culture": game.cultures[seat],
        "civilians": kinds.count("civilian"),
        "military": kinds.count("military"),
        "tech": ", ".join(levels),
        "available": (game.turn.available or 0) if mine else 0,
        "incoming": game.incoming.get(seat, 0),
    }
