"""Phase 4, the advance of the strongest surviving group into a territory left without
defenders, and phase 5, the return (or loss) of every group that did not advance."""

from rules.artofwar.invasions import Fight
from rules.artofwar.records import Advance, Battle, Return, Tie
from rules.artofwar.work import Attack, Work


def advance(work: Work, fights: list[Fight]) -> tuple[list[Battle], dict[str, Attack]]:
    """The battles' records, and the territories conquered (target -> the group that
    advanced). Sets each target's units."""
    battles: list[Battle] = []
    conquered: dict[str, Attack] = {}
    for fight in fights:
        target = fight.target
        attacks = work.attacks[target]
        winner, tie = _winner(work, attacks) if fight.left == 0 else (None, None)
        record = None
        work.units[target] = fight.left
        if winner is not None:
            move = winner.move
            conquered[target] = winner
            work.units[target] = winner.survivors
            record = Advance(move.source, move.player, winner.survivors, tie)
            work.results[move.line] = ("conquered", winner.survivors)
            work.event(
                target, "conquered", player=move.player, source=move.source, units=winner.survivors
            )
        battles.append(
            Battle(
                target,
                work.owner(target),
                fight.defenders,
                fight.groups,
                fight.unassigned,
                fight.losses,
                fight.left,
                record,
            )
        )
    return battles, conquered


def _winner(work: Work, attacks: list[Attack]) -> tuple[Attack | None, Tie | None]:
    """The eligible group that brought the most units (P16); a tie is drawn (§4.9)."""
    eligible = [attack for attack in attacks if attack.survivors >= 1]
    if not eligible:
        return None, None
    most = max(attack.units for attack in eligible)
    tied = [attack for attack in eligible if attack.units == most]
    if len(tied) == 1:
        return tied[0], None
    draw, index = work.draws.choice(len(tied))
    return tied[index], Tie([a.move.source for a in tied], draw, index)


def return_home(work: Work, conquered: dict[str, Attack]) -> list[Return]:
    """Groups that did not advance go home, or are disbanded if home fell this turn."""
    done = []
    for target in sorted(work.attacks):
        for attack in work.attacks[target]:
            move = attack.move
            if conquered.get(target) is attack:
                continue
            if attack.survivors == 0:
                work.results[move.line] = ("destroyed", 0)
                continue
            if move.source in conquered:
                work.results[move.line] = ("disbanded", 0)
                work.event(move.source, "disbanded", source=target, units=attack.survivors)
                done.append(Return(move.source, move.player, attack.survivors, "disbanded"))
                continue
            work.units[move.source] += attack.survivors
            work.results[move.line] = ("bounced", attack.survivors)
            work.event(move.source, "returned", source=target, units=attack.survivors)
            done.append(Return(move.source, move.player, attack.survivors, "bounced"))
    return done
