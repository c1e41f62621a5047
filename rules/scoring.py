"""The end of a turn, in the order docs/rules.md fixes: farming, expansion, join forces,
elimination, winner."""

from collections import Counter
from collections.abc import Iterable, Mapping

import msgspec

from rules.effects import Effect
from rules.position import Position

EXPANSION_MINIMUM = 5
_FARM_VP = {Effect.FEAST: 2, Effect.FAMINE: 0}


class Scores(msgspec.Struct, frozen=True):
    position: Position
    vp: dict[str, int]
    vp_gained: dict[str, int]
    eliminated: list[str]
    winner: str | None
    joined: dict[str, tuple[str, str]]


def is_out(player: str, position: Position, barracks: frozenset[str]) -> bool:
    """Out of the game: no army and no barracks (farms are not barracks)."""
    if player in position.armies.values():
        return False
    return not any(
        owner == player and territory in barracks and territory not in position.farms
        for territory, owner in position.control.items()
    )


def score_turn(
    *,
    vp_before: Mapping[str, int],
    start: Position,
    end: Position,
    barracks: frozenset[str],
    farmed: Iterable[str],
    built: Iterable[str],
    effect: Effect | None,
    joins: Iterable[tuple[str, str]],
    resigned: frozenset[str],
    vp_target: int,
) -> Scores:
    """`farmed` and `built` name the player of each successful farm and build order."""
    scoring = {p for p in vp_before if p not in resigned and not is_out(p, start, barracks)}
    gained: Counter[str] = Counter()
    farm_value = _FARM_VP.get(effect, 1) if effect is not None else 1
    for player in farmed:
        gained[player] += farm_value
    if effect is Effect.HARVEST:
        for player in built:
            gained[player] += 1
    territories = Counter(end.control.values())
    contenders = {p: territories[p] for p in scoring if territories[p] >= EXPANSION_MINIMUM}
    if contenders:
        most = max(contenders.values())
        for player, count in contenders.items():
            if count == most:
                gained[player] += 2 if effect is Effect.LAND_GRAB else 1
    vp_gained = {p: gained[p] if p in scoring else 0 for p in vp_before}
    vp = {p: vp_before[p] + vp_gained[p] for p in vp_before}

    position, joined = end, {}
    for a, b in joins:
        joint = f"{a}/{b}"
        joined[joint] = (a, b)
        vp[joint] = min(vp.pop(a), vp.pop(b))
        position = _merge(position, (a, b), joint)

    eliminated = sorted(p for p in vp if is_out(p, position, barracks))
    in_race = {
        p: points
        for p, points in vp.items()
        if p not in resigned and p not in eliminated and points >= vp_target
    }
    winner = None
    if in_race:
        best = max(in_race.values())
        leaders = [p for p, points in in_race.items() if points == best]
        winner = leaders[0] if len(leaders) == 1 else None
    return Scores(position, vp, vp_gained, eliminated, winner, joined)


def _merge(position: Position, players: tuple[str, str], joint: str) -> Position:
    def rename(owner: str) -> str:
        return joint if owner in players else owner

    return Position(
        armies={t: rename(p) for t, p in position.armies.items()},
        control={t: rename(p) for t, p in position.control.items()},
        farms=position.farms,
    )
