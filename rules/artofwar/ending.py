"""The end of a turn (P20): elimination, then conquest, then the last survivor."""

from rules.artofwar.diplomacy import Ending


def eliminated_now(active: list[str], owners: dict[str, str]) -> list[str]:
    """The active players that own no territory (P21)."""
    owning = set(owners.values())
    return [player for player in active if player not in owning]


def ending(survivors: list[str], owners: dict[str, str], territories: int) -> Ending | None:
    """Conquest (strictly more than two-thirds of every territory, P23), else the sole
    survivor (P22), else none. `survivors` are the players not eliminated, sorted."""
    counts: dict[str, int] = {}
    for owner in owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    for player in survivors:
        if 3 * counts.get(player, 0) > 2 * territories:
            others = [p for p in survivors if p != player]
            return Ending(by="conquest", winners=[player], signers=[], survivors=others)
    if len(survivors) == 1:
        return Ending(by="last_survivor", winners=survivors, signers=[], survivors=[])
    return None
