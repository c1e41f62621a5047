"""An attack (docs/skor.md, "Combat"): a sequence of duels against the target hex's pieces,
the attacker's die then the defender's, totals compared."""

from typing import Any

from rules.skor.game import Game
from rules.skor.state import Piece

Stake = tuple[list[Piece], int]


def military_die(game: Game, player: str) -> int:
    level = game.level(player, "military")
    return 10 if level == 3 else 8 if level >= 1 else 6


def _defence_die(game: Game, stake: list[Piece]) -> int | None:
    """The die the pieces at stake roll; None when a lone civilian loses automatically."""
    owner = stake[0].player
    if stake[0].kind == "military":
        return military_die(game, owner)
    level = game.level(owner, "civilians")
    if len(stake) == 2:
        return 6 if level >= 1 else 4
    return {2: 4, 3: 6}.get(level)


def _structure_modifier(game: Game, hex_: str) -> int:
    kind = game.kind_at(hex_)
    if kind is None:
        return 0
    return {"fortification": 2, "debris": -1}.get(kind, 1)


def _stakes(game: Game, defenders: list[Piece], covert: bool, bonus: int) -> list[Stake]:
    """The duels' stakes and the defenders' modifier in each, in the order fought."""
    military = [p for p in defenders if p.kind == "military"]
    civilians = [p for p in defenders if p.kind == "civilian"]
    if covert:
        return [(military, bonus)]
    if len(military) == 2:
        return [([military[0]], bonus + 1), ([military[1]], bonus + 1)]
    if military:
        return [([military[0]], bonus)] + [([c], bonus) for c in civilians]
    return [(civilians, bonus)]


def _roll(game: Game, die: int, modifier: int, purpose: str) -> dict[str, int]:
    roll = game.roll(die, purpose)
    return {"die": die, "roll": roll, "modifier": modifier, "total": roll + modifier}


def _outcome(attacker: int, defender: int, drawn_ties: bool) -> str:
    if attacker != defender:
        return "attacker" if attacker > defender else "defender"
    # "both pieces are removed from play", unless Diplomacy 2 draws the tie.
    return "drawn" if drawn_ties else "tie"


def _removed(piece: Piece, at: str) -> dict[str, Any]:
    return {"player": piece.player, "kind": piece.kind, "at": at}


def attack(
    game: Game, attacker: Piece, mode: str, target: str, cost: int, crew: list[Piece]
) -> None:
    """`attacker` stands on its origin; for a turret it is one of the `crew`, who stay."""
    player, origin = attacker.player, attacker.at
    defenders = sorted(game.at(target), key=lambda p: p.kind == "military")
    origin_kind = game.kind_at(origin)
    attacker_modifier = {"fortification": 1, "debris": -1}.get(origin_kind or "", 0)
    drawn_ties = max(game.level(p, "diplomacy") for p in game.players) >= 2
    turret = mode == "turret"
    if not turret:
        game.take(attacker)
    duels: list[dict[str, Any]] = []
    removed: list[dict[str, Any]] = []
    alive, captured = True, True
    for stake, modifier in _stakes(
        game, defenders, mode == "covert", _structure_modifier(game, target)
    ):
        against = [p.kind for p in stake]
        die = _defence_die(game, stake)
        if die is None:
            duels.append({"against": against, "outcome": "automatic"})
            for piece in stake:
                game.take(piece)
                removed.append(_removed(piece, target))
            continue
        attack_roll = _roll(game, military_die(game, player), attacker_modifier, "attack")
        defence_roll = _roll(game, die, modifier, "defence")
        outcome = _outcome(attack_roll["total"], defence_roll["total"], drawn_ties)
        duels.append(
            {
                "against": against,
                "attacker": attack_roll,
                "defender": defence_roll,
                "outcome": outcome,
            }
        )
        if outcome in ("defender", "tie") and (outcome == "tie" or not turret):
            # A lost turret shot costs the crew nothing; a tie costs it one piece.
            alive = False
            if turret:
                game.take(crew[0])
            removed.append(_removed(attacker, origin))
        if outcome in ("attacker", "tie"):
            for piece in stake:
                game.take(piece)
                removed.append(_removed(piece, target))
        if outcome != "attacker":
            captured = False
            break
    if alive and not turret:
        game.put(target if captured else origin, player, "military", True)
    game.emit(
        "attack",
        player=player,
        mode=mode,
        **{"from": origin},
        to=target,
        cost=cost,
        defenders=[p.kind for p in defenders],
        duels=duels,
        removed=removed,
        captured=captured,
    )
