"""Graph steps of map generation: connectivity, homes apart, spread-out barracks.

Territories are list indices here and neighbours are sorted tuples, so that every choice
depends only on the seeded generator and never on set or dict iteration order.
"""

from collections import deque
from collections.abc import Iterable, Sequence

from rules.kit.prng import SeededRandom

Adjacency = Sequence[Sequence[int]]
Home = tuple[int, int, int]

_FAR = 1 << 30


def distances(adjacency: Adjacency, sources: Iterable[int]) -> list[int]:
    """Steps from the nearest source to every territory (breadth-first)."""
    steps = [_FAR] * len(adjacency)
    queue = deque(sources)
    for source in queue:
        steps[source] = 0
    while queue:
        here = queue.popleft()
        for there in adjacency[here]:
            if steps[there] == _FAR:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def is_connected(adjacency: Adjacency, members: Sequence[int]) -> bool:
    """Whether `members` form one piece, moving only through members."""
    if not members:
        return True
    inside = set(members)
    seen = {members[0]}
    stack = [members[0]]
    while stack:
        for there in adjacency[stack.pop()]:
            if there in inside and there not in seen:
                seen.add(there)
                stack.append(there)
    return len(seen) == len(inside)


def homes_hold(adjacency: Adjacency, homes: Sequence[Home]) -> bool:
    """Whether every home is connected and no two homes share a border."""
    owner: dict[int, int] = {}
    for player, home in enumerate(homes):
        if not is_connected(adjacency, home):
            return False
        owner.update(dict.fromkeys(home, player))
    return all(
        owner.get(there, player) == player
        for here, player in owner.items()
        for there in adjacency[here]
    )


def spread_barracks(
    adjacency: Adjacency,
    homes: Sequence[int],
    barracks: Sequence[int],
    count: int,
    rng: SeededRandom,
) -> list[int]:
    """`count` more barracks outside the homes, each as far as possible from every barracks
    so far. On a crowded map every free territory borders some home barracks, so ties go
    to the one farthest from the extra barracks already chosen, then from the homes."""
    from_homes = distances(adjacency, homes)
    rank = rng.shuffled(range(len(adjacency)))
    chosen: list[int] = []
    excluded = set(homes)
    for _ in range(count):
        from_barracks = distances(adjacency, [*barracks, *chosen])
        from_chosen = distances(adjacency, chosen)
        free = [t for t in range(len(adjacency)) if t not in excluded]
        pick = max(free, key=lambda t: (from_barracks[t], from_chosen[t], from_homes[t], rank[t]))
        chosen.append(pick)
        excluded.add(pick)
    return chosen
