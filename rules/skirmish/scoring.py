"""The end of a turn, in the order docs/rules.md fixes: farming, expansion, join forces,
elimination, winner. Who is out after the moves is known before any of it: a player out
then (no army, no barracks), like a resigned one, neither earns VP nor blocks the
expansion award."""

from collections.abc import Collection, Iterable, Mapping

import msgspec

from rules.skirmish.effects import Effect
from rules.skirmish.position import Position

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
    # A loop rather than any() over a generator, which is slower per territory.
    farms = position.farms
    for territory, owner in position.control.items():
        if owner == player and territory in barracks and territory not in farms:
            return False
    return True


def players_out(
    players: Collection[str], position: Position, barracks: frozenset[str]
) -> list[str]:
    """The players that are out (`is_out`), in the order given. Most players have an army,
    which one set of the armies' players answers for all of them at once."""
    armed = set(position.armies.values())
    if armed.issuperset(players):
        return []
    return [p for p in players if p not in armed and is_out(p, position, barracks)]


def score_turn(
    *,
    vp_before: Mapping[str, int],
    end: Position,
    barracks: frozenset[str],
    farmed: Iterable[str],
    built: Iterable[str],
    effect: Effect | None,
    joins: Iterable[tuple[str, str]],
    resigned: frozenset[str],
    vp_target: int,
) -> Scores:
    """`end` is the position after the moves; `farmed` and `built` name the player of
    each successful farm and build order."""
    out_after_moves = players_out(vp_before, end, barracks)
    scoring = set(vp_before).difference(resigned, out_after_moves)
    # Plain dicts and loops rather than Counters and comprehensions: a turn has few
    # players, and this runs on every adjudication.
    gained = dict.fromkeys(vp_before, 0)
    farm_value = _FARM_VP.get(effect, 1) if effect is not None else 1
    for player in farmed:
        gained[player] = gained.get(player, 0) + farm_value
    if effect is Effect.HARVEST:
        for player in built:
            gained[player] = gained.get(player, 0) + 1
    # Expansion: whoever controls the most territories, at least EXPANSION_MINIMUM; all of
    # them on a tie.
    owners = list(end.control.values())
    most, expanders = EXPANSION_MINIMUM, []
    for player in scoring:
        count = owners.count(player)
        if count > most:
            most, expanders = count, [player]
        elif count == most:
            expanders.append(player)
    expansion_value = 2 if effect is Effect.LAND_GRAB else 1
    for player in expanders:
        gained[player] += expansion_value
    vp_gained: dict[str, int] = {}
    vp: dict[str, int] = {}
    for player, before in vp_before.items():
        vp_gained[player] = gain = gained[player] if player in scoring else 0
        vp[player] = before + gain

    position, joined = end, {}
    for a, b in joins:
        joint = f"{a}/{b}"
        joined[joint] = (a, b)
        vp[joint] = min(vp.pop(a), vp.pop(b))
        position = _merge(position, (a, b), joint)

    # Elimination after joining forces: a player out after the moves who joined forces
    # this turn lives on in the joint player (with its partner's armies and barracks).
    eliminated = sorted(players_out(vp, position, barracks) if joined else out_after_moves)
    # The winner: the one player still racing with the most VP, at least vp_target.
    best, leaders = vp_target, []
    for player, points in vp.items():
        if points >= best and player not in resigned and player not in eliminated:
            if points > best:
                best, leaders = points, [player]
            else:
                leaders.append(player)
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
