"""Why an order turned out as it did, in numbers and in one sentence."""

import msgspec

from rules.skirmish.orders import Move, Order, Reinforce
from rules.skirmish.position import REF
from rules.skirmish.resolve import Resolution


class Explanation(msgspec.Struct, frozen=True, omit_defaults=True):
    """The strengths that decided an order. For a move: its attack, what defended the
    target (a holding army, or the army coming the other way), and the strongest other
    move into the same territory. For an army that stayed: its hold strength and the
    strongest attack on it."""

    why: str
    attack: int | None = None
    defence: int | None = None
    prevent: int | None = None
    prevented_by: str | None = None
    hold: int | None = None
    strongest_attack: int | None = None
    attacked_from: str | None = None
    cut_by: str | None = None

    @classmethod
    def for_move(
        cls,
        *,
        source: str,
        target: str,
        attack: int,
        defence: int,
        head_to_head: bool,
        own_army: bool,
        prevents: list[tuple[int, str]],
        arrived: bool,
    ) -> "Explanation":
        prevent, prevented_by = max(prevents, default=(0, None), key=lambda p: p[0])
        defender = "the army coming the other way" if head_to_head else f"the hold of {target}"
        if arrived:
            why = f"attack {attack} beat {defender} ({defence})"
            if prevented_by is not None:
                why += f" and the move from {prevented_by} ({prevent})"
        elif own_army and attack == 0:
            why = f"{target} holds an army of the same player, which a move never kills"
        elif attack <= defence:
            why = f"attack {attack} did not beat {defender} ({defence}); a tie defends"
        else:
            why = (
                f"attack {attack} did not beat the move from {prevented_by} ({prevent}): a standoff"
            )
        return cls(
            why=why,
            attack=attack,
            defence=defence,
            prevent=prevent if prevented_by is not None else None,
            prevented_by=prevented_by,
        )

    @classmethod
    def for_stand(
        cls,
        *,
        territory: str,
        hold: int,
        attacks: list[tuple[int, str]],
        dislodged: bool,
        cut_by: str | None,
    ) -> "Explanation":
        strongest, attacker = max(attacks, default=(0, None), key=lambda a: a[0])
        if attacker is None:
            why = f"nobody attacked {territory}"
        elif dislodged:
            why = f"the attack from {attacker} ({strongest}) beat the hold ({hold})"
        else:
            why = f"the hold ({hold}) withstood the strongest attack, from {attacker} ({strongest})"
        if cut_by is not None:
            why += f"; the move from {cut_by} cut the order"
        return cls(
            why=why,
            hold=hold,
            strongest_attack=strongest if attacker is not None else None,
            attacked_from=attacker,
            cut_by=cut_by,
        )


def explain_order(order: Order, resolution: Resolution) -> Explanation:
    """The explanation of an order that was carried out: a move (or a reinforcement) by
    its attack, any other order by the hold of its army."""
    if isinstance(order, Reinforce):
        return _explain_move(resolution, resolution.ref_into[order.target])
    if isinstance(order, Move):
        return _explain_move(resolution, resolution.move_from[order.unit])
    return _explain_stand(resolution, order.unit)


def _explain_move(resolution: Resolution, i: int) -> Explanation:
    attack, defence = resolution.attack_and_defence(i)
    source, target = resolution.source, resolution.target
    prevents = [
        (resolution.prevent(j), source[j] or REF)
        for j in resolution.moves_into[target[i]]
        if j != i
    ]
    return Explanation.for_move(
        source=source[i] or REF,
        target=target[i],
        attack=attack,
        defence=defence,
        head_to_head=resolution.head_to_head[i] >= 0,
        own_army=resolution.armies.get(target[i]) == resolution.player[i],
        prevents=prevents,
        arrived=resolution.arrived(i),
    )


def _explain_stand(resolution: Resolution, territory: str) -> Explanation:
    attacks = [
        (resolution.attack_and_defence(m)[0], resolution.source[m] or REF)
        for m in resolution.moves_into.get(territory, ())
    ]
    return Explanation.for_stand(
        territory=territory,
        hold=resolution.hold_strength(territory),
        attacks=attacks,
        dislodged=resolution.dislodged(territory),
        cut_by=resolution.cut_by.get(territory),
    )
