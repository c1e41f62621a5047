"""Phase P (free placement) and phase 1: placed units appear, transfers happen at once."""

from rules.artofwar.records import Placement, Transfer
from rules.artofwar.work import Work


def place(work: Work) -> list[Placement]:
    """Every carried placement, by territory; the pools are spent (unplaced units are lost)."""
    done = []
    for territory in sorted(work.checked.placements):
        units = work.checked.placements[territory]
        player = work.state.owners[territory]
        work.units[territory] = work.units.get(territory, 0) + units
        work.event(territory, "placed", units=units)
        done.append(Placement(player, territory, units))
    return done


def transfer(work: Work) -> list[Transfer]:
    """stay(t) = u(t) - out(t); every transfer F→D adds its N to in(D)."""
    moves = work.checked.moves
    work.stay = {t: n - (moves[t].units if t in moves else 0) for t, n in work.units.items()}
    done = []
    for source in sorted(moves):
        move = moves[source]
        if work.attacking(move):
            continue
        work.inflow[move.target] = work.inflow.get(move.target, 0) + move.units
        work.event(source, "transferred_out", target=move.target, units=move.units)
        work.event(move.target, "transferred_in", source=source, units=move.units)
        done.append(Transfer(move.player, source, move.target, move.units))
    return done
