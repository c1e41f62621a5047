"""The Art of War's standings (rules/game.py `Ranked`): what §7 shows of every player, all of
it public. Its columns: territories owned, units on them (with free placement, the units
still to place too), stance, and where the player stands: `active`, `resigned` or
`eliminated` while the game goes on; once over, §6's final standing: `won`, `signed` (a
draw treaty's signers share the win), `survived`, `resigned` or `eliminated`. Whether it has
submitted this turn is the room's to say (`moved`: the room keeps the sealed orders)."""

from rules.artofwar.play import Play
from rules.game import Column, Ending, Result, Standing

# The final standing's words for the room's results: a treaty's signers drew.
_FINAL = {"drew": "signed"}
# Best first; a survivor stands with the players still playing.
_RANK = {"won": 0, "signed": 1, "active": 2, "survived": 2, "resigned": 3, "eliminated": 4}


def standings(state: Play, ending: Ending | None) -> list[Standing]:
    """Every seat, by where it stands, then by territories, then by units, then as seated."""
    position = state.position
    rows: list[tuple[tuple[int, int, int, int], Standing]] = []
    for index, seat in enumerate(state.seats):
        held = [t for t, owner in position.owners.items() if owner == seat]
        units = sum(position.units.get(t, 0) for t in held)
        status = _status(state, seat, ending)
        columns: dict[str, Column] = {
            "territories": len(held),
            "units": units,
            "stance": position.players[seat].stance.describe(),
            "status": status,
        }
        if state.options.placement == "free":
            columns["to_place"] = position.pending_builds.get(seat, 0)
        rows.append(((_RANK[status], -len(held), -units, index), Standing(seat, columns)))
    return [row for _, row in sorted(rows, key=lambda ranked: ranked[0])]


def _status(state: Play, seat: str, ending: Ending | None) -> str:
    if ending is not None:
        result: Result = ending.results[seat]
        return _FINAL.get(result, result)
    if state.position.players[seat].status == "eliminated":
        return "eliminated"
    return "resigned" if seat in state.resigned else "active"
