"""Phase 2: two territories attacking each other fight on the border (40% a unit)."""

from rules.artofwar.draws import SKIRMISH
from rules.artofwar.records import Skirmish
from rules.artofwar.validate import CarriedMove
from rules.artofwar.work import Attack, Work


def skirmish(work: Work) -> list[Skirmish]:
    """Every skirmish, by the smaller id of its pair; the other attacks become invading groups,
    and a side that wiped out the other breaks through as one."""
    moves = work.checked.moves
    attacks = sorted((m for m in moves.values() if work.attacking(m)), key=lambda m: m.source)
    done = []
    for move in attacks:
        back = moves.get(move.target)
        paired = back is not None and back.target == move.source and work.attacking(back)
        if not paired:
            work.event(move.source, "attacked", target=move.target, units=move.units)
            _invade(work, move, move.units)
        elif back is not None and move.source < back.source:
            done.append(_fight(work, move, back))
    return done


def _fight(work: Work, first: CarriedMove, second: CarriedMove) -> Skirmish:
    a, b = first.units, second.units
    draws_a, hits_a = work.draws.hits(a, SKIRMISH)
    draws_b, hits_b = work.draws.hits(b, SKIRMISH)
    left_a, left_b = a - min(hits_b, a), b - min(hits_a, b)
    x, y = first.source, second.source
    through = x if left_a and not left_b else y if left_b and not left_a else None
    for move, left, enemy in ((first, left_a, y), (second, left_b, x)):
        work.event(move.source, "attacked", target=enemy, units=move.units)
        work.event(
            move.source, "skirmish", opponent=enemy, units=move.units, lost=move.units - left
        )
        if through == move.source:
            _invade(work, move, left)
        elif left:
            work.retreated[move.source] = left
            work.results[move.line] = ("retreated", left)
            work.event(move.source, "retreated", units=left)
        else:
            work.results[move.line] = ("destroyed", 0)
    return Skirmish(
        between=(x, y),
        units={x: a, y: b},
        draws={x: draws_a, y: draws_b},
        hits={x: hits_a, y: hits_b},
        survivors={x: left_a, y: left_b},
        breakthrough=through,
    )


def _invade(work: Work, move: CarriedMove, units: int) -> None:
    work.attacks.setdefault(move.target, []).append(Attack(move, units))
