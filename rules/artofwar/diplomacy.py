"""Stances, the treaty test of phase 0 (§5.2) and binding diplomacy (§5.3)."""

from typing import Literal

import msgspec

from rules.artofwar.options import MAX_PLAYERS

StanceKind = Literal["no_mercy", "offer_mercy", "draw", "surrender"]
# Looser than any draw with a size: a draw with any number of signers.
_ANY = 1 << 30


class Stance(msgspec.Struct, frozen=True, omit_defaults=True):
    kind: StanceKind = "no_mercy"
    # With `draw` only: the most signers this player accepts (absent: any number), 2 to 20.
    draw_max: int | None = None

    def looseness(self) -> tuple[int, int]:
        """Tightest first: no mercy < offer mercy < draw k=2 < k=3 < … < draw < surrender
        (P27: offering mercy can end the game, no mercy cannot)."""
        match self.kind:
            case "no_mercy":
                return (0, 0)
            case "offer_mercy":
                return (1, 0)
            case "draw":
                return (2, _ANY if self.draw_max is None else self.draw_max)
            case "surrender":
                return (3, 0)

    def describe(self) -> str:
        if self.kind == "draw":
            return f"draw ({'any' if self.draw_max is None else self.draw_max})"
        return self.kind.replace("_", " ")


class StanceRefused(ValueError):
    """A change that binding diplomacy does not allow."""


class Ending(msgspec.Struct, frozen=True):
    by: Literal["conquest", "mercy", "draw", "last_survivor"]
    winners: list[str]
    signers: list[str]
    survivors: list[str]


def check_stance(stance: Stance) -> None:
    """A stance as §5.1 allows it; ValueError otherwise. A `draw_max` past the most players
    a game has would accept every draw, as no `draw_max` does: it is bounded, as every input."""
    if stance.draw_max is not None and (
        stance.kind != "draw" or not 2 <= stance.draw_max <= MAX_PLAYERS
    ):
        raise ValueError(
            f"draw_max goes with a draw, and is 2 to {MAX_PLAYERS} (the most players a game has)"
        )


def change_stance(current: Stance, new: Stance, *, binding: bool) -> Stance:
    """The stance after a change; in a binding game a tightening is refused (§5.3)."""
    check_stance(new)
    if binding and new.looseness() < current.looseness():
        raise StanceRefused(
            f"binding diplomacy: cannot tighten {current.describe()} to {new.describe()}"
        )
    return new


def treaty(stances: dict[str, Stance]) -> Ending | None:
    """Phase 0 over the surviving players' stances: the ending a treaty signs, or None while
    the war rages on."""
    by_kind: dict[StanceKind, list[str]] = {
        "no_mercy": [],
        "offer_mercy": [],
        "draw": [],
        "surrender": [],
    }
    for player in sorted(stances):
        by_kind[stances[player].kind].append(player)
    mercy, draw, surrender = by_kind["offer_mercy"], by_kind["draw"], by_kind["surrender"]
    if by_kind["no_mercy"]:
        return None
    if len(mercy) == 1 and not draw:
        return Ending(by="mercy", winners=mercy, signers=[], survivors=surrender)
    if not mercy and draw:
        limits = [stances[p].draw_max for p in draw]
        if all(k is None or len(draw) <= k for k in limits):
            return Ending(by="draw", winners=[], signers=draw, survivors=surrender)
    return None
