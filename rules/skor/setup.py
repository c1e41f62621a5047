"""Skor's setup (docs/skor.md, "Setup"): a d2 for the first player, each territory's terrain
rolled in its local frame, then both players' sealed choices (culture, a Technocracy's free
branch, the side that faces the opponent) turn the territories into the board."""

import msgspec

from rules.skor.board import FACING, local_destination, rotated
from rules.skor.dice import Dice
from rules.skor.game import Event, Game
from rules.skor.state import BRANCHES, Culture, Options, Piece, State, Structure, Tech, Turn
from rules.skor.turns import start_turn

TERRAIN = ("resource", "resource", "resource", "obstruction", "obstruction")


class SetupError(ValueError):
    """Choices that do not fit the game (a Technocracy without its branch, ...)."""


class Placement(msgspec.Struct, frozen=True):
    kind: str
    first: int
    second: list[int]
    local: str


class Territory(msgspec.Struct, frozen=True, omit_defaults=True):
    player: str
    placements: list[Placement]
    local: dict[str, str]
    side: int | None = None
    rotation: int | None = None


class Setup(msgspec.Struct, frozen=True):
    """What both players see before choosing: who plays first and the rolled territories."""

    order_roll: int
    players: list[str]
    territories: dict[str, Territory]
    options: Options


class Choice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    culture: Culture
    side: int
    tech: str | None = None


def _terrain(name: str, player: str, dice: Dice) -> Territory:
    taken = {0: "city"}
    placements = []
    k = 0
    for kind in TERRAIN:
        purpose = f"{kind} side"
        first = dice.roll(("terrain", name, k), 6, purpose)
        k += 1
        seconds: list[int] = []
        while True:
            seconds.append(dice.roll(("terrain", name, k), 6, purpose))
            k += 1
            target = local_destination(first, seconds[-1])
            # The City and every earlier placement reroll the second die only.
            if target not in taken:
                break
        taken[target] = kind
        placements.append(Placement(kind, first, seconds, f"L{target}"))
    local = {f"L{i}": taken[i] for i in sorted(taken)}
    return Territory(player, placements, local)


def roll_setup(players: list[str], options: Options, dice: Dice) -> Setup:
    """The public rolls: `order` (1: the first to join plays first), then A's and B's terrain."""
    order = dice.roll(("order",), 2, "first player")
    ordered = list(players) if order == 1 else [players[1], players[0]]
    territories = {
        name: _terrain(name, player, dice) for name, player in zip(("A", "B"), ordered, strict=True)
    }
    return Setup(order, ordered, territories, options)


def check_choice(options: Options, player: str, choice: Choice) -> None:
    """One player's choice on its own (a game room checks each as it is sealed)."""
    if not 1 <= choice.side <= 6:
        raise SetupError(f"{player}'s side must be 1 to 6")
    if choice.culture == "alternative" and not options.alternative_culture:
        raise SetupError("the alternative culture needs the option alternative_culture")
    if (choice.culture == "technocracy") != (choice.tech is not None):
        raise SetupError(f"{player}: a technocracy, and only a technocracy, names a tech")
    if choice.tech is not None and choice.tech not in BRANCHES:
        raise SetupError(f"no such branch: {choice.tech}")


def _check(setup: Setup, choices: dict[str, Choice]) -> None:
    if sorted(choices) != sorted(setup.players):
        raise SetupError("choices are needed from both players, and only from them")
    for player, choice in choices.items():
        check_choice(setup.options, player, choice)


def _free_tier(branch: str | None) -> Tech:
    """A Technocracy's free tier 1 (any branch, City included)."""
    return Tech() if branch is None else msgspec.structs.replace(Tech(), **{branch: 1})


def start(
    setup: Setup, choices: dict[str, Choice], dice: Dice, generation: int = 0
) -> tuple[Setup, State, list[Event]]:
    """The board after both choices, and turn 1 started; the setup with sides and rotations.
    `generation` counts the game's rewinds so far (a room's), part of turn 1's dice labels."""
    _check(setup, choices)
    structures: dict[str, Structure] = {}
    territories = {}
    for name, territory in setup.territories.items():
        player = territory.player
        side = choices[player].side
        steps = (FACING[name] - side) % 6
        for local, kind in territory.local.items():
            by = player if kind == "city" else None
            hex_ = f"{name}{rotated(int(local[1:]), steps)}"
            structures[hex_] = Structure(kind, by)  # type: ignore[arg-type]
        territories[name] = msgspec.structs.replace(territory, side=side, rotation=steps)
    first, second = setup.players
    tech = {p: _free_tier(choices[p].tech) for p in setup.players}
    state = State(
        players=setup.players,
        cultures={p: choices[p].culture for p in setup.players},
        structures=structures,
        pieces=[Piece(city, p, "civilian") for p, city in ((first, "A0"), (second, "B0"))] * 2,
        turn=Turn(1, first, True, "move", 0, 0, True, 0, 0, False, 0),
        options=setup.options,
        tech=tech,
        incoming=dict.fromkeys(setup.players, 0),
        generation=generation,
    )
    game = Game(state, dice)
    start_turn(game, 1)
    return msgspec.structs.replace(setup, territories=territories), game.freeze(), game.events
