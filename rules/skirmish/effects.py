"""The voting effects: each changes one turn's rules, as the catalogue in docs/rules.md says;
and a vote's draw of two of them."""

import enum
from typing import Annotated

import msgspec

from rules.kit.prng import derived


class Effect(enum.StrEnum):
    FEAST = "FEAST"
    FAMINE = "FAMINE"
    STORM = "STORM"
    ENTRENCH = "ENTRENCH"
    MOBILIZE = "MOBILIZE"
    TRUCE = "TRUCE"
    LAND_GRAB = "LAND GRAB"
    HARVEST = "HARVEST"


# An effect as events and answers hold it: its name. The schema lists the names; decoding
# does not check them, so that a stored event always reads as it was written.
EffectName = Annotated[str, msgspec.Meta(extra_json_schema={"enum": [e.value for e in Effect]})]

DESCRIPTIONS: dict[Effect, str] = {
    Effect.FEAST: "each successful farm order earns 2 VP instead of 1",
    Effect.FAMINE: "farm orders earn nothing (they still defend like a hold)",
    Effect.STORM: "overseas connections are closed: orders that use one are invalid",
    Effect.ENTRENCH: "every army that is not ordered to move defends with +1 strength",
    Effect.MOBILIZE: "a REF order is allowed even without more barracks than armies",
    Effect.TRUCE: "a move into a territory held by another player's army is invalid",
    Effect.LAND_GRAB: "the expansion award is 2 VP instead of 1",
    Effect.HARVEST: "a successful build order also earns 1 VP",
}


def parse_effect(name: str) -> Effect:
    """An effect from its name, case-insensitively; `LAND_GRAB` and `landgrab` work too."""
    key = "".join(ch for ch in name.upper() if ch.isalpha())
    for effect in Effect:
        if effect.value.replace(" ", "") == key:
            return effect
    raise ValueError(f"unknown effect: {name!r} (effects: {', '.join(e.value for e in Effect)})")


def draw_vote(randomness: bytes, turn: int) -> tuple[tuple[str, str], str]:
    """Two distinct effects for the vote held during `turn`, and the one that wins a tie,
    drawn from the game's randomness."""
    rng = derived(randomness, "votes", turn)
    first, second = rng.sample([e.value for e in Effect], 2)
    return (first, second), rng.choice((first, second))
