"""The requirements for joining forces, checked when a request is made (rulebook,
"Requirements to Join Forces")."""

from collections.abc import Mapping, Set
from typing import Literal, NamedTuple

VP_BEHIND_LEADER = 3


class JoinProblem(NamedTuple):
    """Which requirement fails (stable, for a code), and the reason said to players."""

    kind: Literal["itself", "joined_before", "too_large", "not_behind"]
    reason: str


def join_forces_problem(
    a: str,
    b: str,
    *,
    territories: Mapping[str, int],
    vp: Mapping[str, int],
    joined_before: Set[str],
    names: Mapping[str, str] | None = None,
) -> JoinProblem | None:
    """Why players `a` and `b` may not join forces, or None if they may. `territories`
    and `vp` cover every player still in the game; `names` say them in the reason."""

    def name(player: str) -> str:
        return (names or {}).get(player, player)

    if a == b:
        return JoinProblem("itself", "a player cannot join forces with itself")
    for player in (a, b):
        if player in joined_before:
            return JoinProblem("joined_before", f"{name(player)} has already joined forces once")
    combined = territories.get(a, 0) + territories.get(b, 0)
    most = max(territories.values(), default=0)
    if combined > most:
        return JoinProblem(
            "too_large",
            f"together {name(a)} and {name(b)} would control {combined} territories, "
            f"more than the most any player controls ({most})",
        )
    leader = max(vp.values(), default=0)
    if min(vp.get(a, 0), vp.get(b, 0)) > leader - VP_BEHIND_LEADER:
        return JoinProblem(
            "not_behind",
            f"one of the two must be at least {VP_BEHIND_LEADER} VP behind the leader "
            f"({leader} VP)",
        )
    return None
