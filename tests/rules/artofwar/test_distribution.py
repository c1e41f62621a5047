"""The draws of turns from fixed seeds have the chances the rules give: skirmish hits
Binomial(n, 0.4), attack hits Binomial(n, 0.6), defence hits Binomial(n, 0.8), and a tied
advance uniform among the tied groups. Chi-square tests with alpha = 1e-9: the seeds are
fixed, so the test cannot flake, and an alpha that small cannot have been tuned to them."""

import json
import math
from collections import Counter
from typing import Any

import pytest

from rules.adjudication import adjudicate_json

SAMPLES = 2000
ALPHA = 1e-9


def chi_square_p(observed: Counter[int], expected: dict[int, float]) -> float:
    """The p-value of observed counts against expected ones, bins merged from the tails so
    that each expects at least 5."""
    bins: list[tuple[float, float]] = []
    seen = expect = 0.0
    for k in sorted(expected):
        seen, expect = seen + observed[k], expect + expected[k]
        if expect >= 5:
            bins.append((seen, expect))
            seen = expect = 0.0
    if expect and bins:
        last = bins.pop()
        bins.append((last[0] + seen, last[1] + expect))
    assert sum(observed.values()) == sum(o for o, _ in bins), "a value outside the support"
    statistic = sum((o - e) ** 2 / e for o, e in bins)
    return _chi_square_survival(statistic, len(bins) - 1)


def _chi_square_survival(x: float, df: int) -> float:
    """Q(df/2, x/2), the regularized upper incomplete gamma (Numerical Recipes' gser and
    gcf: the series below a + 1, the continued fraction above, where it converges)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    scale = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = 1
        while term > total * 1e-15:
            term *= z / (a + n)
            total += term
            n += 1
        return 1 - math.exp(scale) * total
    tiny = 1e-300
    b, c, d = z + 1 - a, 1 / tiny, 1 / (z + 1 - a)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = 1 / (an * d + b if abs(an * d + b) > tiny else tiny)
        c = b + an / c if abs(b + an / c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(scale) * h


def binomial(n: int, p: float) -> dict[int, float]:
    return {k: SAMPLES * math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def turn(seed: int, owners: dict[str, str], units: dict[str, int], orders: Any) -> Any:
    request = {
        "ruleset": "art-of-war",
        "map": "aow-mini",
        "players": {p: {} for p in set(owners.values())},
        "owners": owners,
        "units": units,
        "orders": orders,
        "seed": f"{seed * 0x9E3779B97F4A7C15 & (1 << 64) - 1:016x}",
    }
    return json.loads(adjudicate_json(json.dumps(request)))


def _skirmish_hits() -> Counter[int]:
    """How many of 10 units AK's skirmish against CA's 10 hit, over SAMPLES seeds."""
    hits: Counter[int] = Counter()
    for seed in range(SAMPLES):
        response = turn(
            seed,
            {"AK": "red", "CA": "blue"},
            {"AK": 10, "CA": 10},
            {"red": ["AK 10 to CA"], "blue": ["CA 10 to AK"]},
        )
        hits[response["skirmishes"][0]["hits"]["AK"]] += 1
    return hits


def test_skirmish_hits_are_binomial_at_40_percent() -> None:
    assert chi_square_p(_skirmish_hits(), binomial(10, 0.4)) > ALPHA


@pytest.mark.parametrize(("side", "chance"), [("hits", 0.6), ("defender_hits", 0.8)])
def test_invasion_hits_are_binomial(side: str, chance: float) -> None:
    hits: Counter[int] = Counter()
    for seed in range(SAMPLES):
        response = turn(seed, {"CA": "red"}, {"CA": 10, "GL": 10}, {"red": ["CA 10 to GL"]})
        hits[response["battles"][0]["groups"][0][side]] += 1
    assert chi_square_p(hits, binomial(10, chance)) > ALPHA


def test_a_three_way_tie_is_drawn_uniformly() -> None:
    chosen: Counter[int] = Counter()
    owners = {"AK": "red", "CA": "green", "MX": "blue"}
    orders = {"red": ["AK 3 to US"], "green": ["CA 3 to US"], "blue": ["MX 3 to US"]}
    for seed in range(SAMPLES):
        response = turn(seed, owners, dict.fromkeys(owners, 3), orders)
        chosen[response["battles"][0]["advance"]["tie"]["index"]] += 1
    assert chi_square_p(chosen, dict.fromkeys(range(3), SAMPLES / 3)) > ALPHA


def test_the_test_rejects_a_wrong_chance() -> None:
    # The same skirmish hits, checked against 60%: the test must be able to fail.
    assert chi_square_p(_skirmish_hits(), binomial(10, 0.6)) < ALPHA
