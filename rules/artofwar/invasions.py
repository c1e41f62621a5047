"""Phase 3: invasions, one exchange of fire (attackers 60%, defenders 80%), the defenders
shared out among the groups in proportion and rounded down."""

from rules.artofwar.draws import ATTACK, DEFENCE
from rules.artofwar.records import Defenders, Group
from rules.artofwar.work import Attack, Work


class Fight:
    """One target's battle before the advance."""

    __slots__ = ("defenders", "groups", "left", "losses", "target", "unassigned")

    def __init__(self, target: str, defenders: Defenders, groups: list[Group], left: int):
        self.target = target
        self.defenders = defenders
        self.groups = groups
        self.unassigned = defenders.total - sum(g.assigned for g in groups)
        self.losses = defenders.total - left
        self.left = left


def invade(work: Work) -> list[Fight]:
    """Every battle in ascending target id."""
    return [_battle(work, target, work.attacks[target]) for target in sorted(work.attacks)]


def _battle(work: Work, target: str, attacks: list[Attack]) -> Fight:
    stayed, back, came = (
        work.stay.get(target, 0),
        work.retreated.get(target, 0),
        work.inflow.get(target, 0),
    )
    d = stayed + back + came
    for attack in attacks:
        move = attack.move
        work.event(target, "invaded", source=move.source, player=move.player, units=attack.units)
    # With no defenders there is no fight: no draws, the territory gives in (P15).
    if d:
        total = sum(attack.units for attack in attacks)
        assigned = [d * attack.units // total for attack in attacks]
        fired = [work.draws.hits(attack.units, ATTACK) for attack in attacks]
        answered = [work.draws.hits(n, DEFENCE) for n in assigned]
    else:
        assigned = [0] * len(attacks)
        fired = [([], 0) for _ in attacks]
        answered = [([], 0) for _ in attacks]
    left = d - min(sum(hits for _, hits in fired), d)
    groups = []
    for attack, n, (draws, hits), (back_draws, back_hits) in zip(
        attacks, assigned, fired, answered, strict=True
    ):
        losses = min(back_hits, attack.units)
        attack.survivors = attack.units - losses
        groups.append(
            Group(
                attack.move.source,
                attack.move.player,
                attack.units,
                n,
                draws,
                hits,
                back_draws,
                back_hits,
                losses,
                attack.survivors,
            )
        )
    work.event(target, "defended", defenders=d, lost=d - left)
    return Fight(target, Defenders(stayed, back, came, d), groups, left)
