"""What a bot orders: pure functions of the public view of a game, the bot's player id and a
seeded random.Random, to order texts. Nothing here does I/O, so a strategy replays from its
seed and is tested without a server.

Legality is the server's own: every candidate is checked with `rules` (the order's
`problem` in the situation the view shows), the very check the server makes when orders
are sent. In same-day voting the effect of the vote under way is not known yet, and the
server checks without it, as here.
"""

from collections.abc import Callable
from random import Random

from rules.skirmish.board import Board
from rules.skirmish.effects import Effect, parse_effect
from rules.skirmish.orders import Build, Farm, Hold, Move, Order, Reinforce, Support
from rules.skirmish.position import REF, Position, Situation
from schema.views import PublicGame

# The public view, the bot's player id, its randomness -> the orders of one turn.
Strategy = Callable[[PublicGame, str, Random], list[str]]
# What a vote is cast for, the same way.
Ballot = Callable[[PublicGame, str, Random], str | None]


def situation_of(game: PublicGame) -> Situation:
    """The situation orders are checked in: the view's map, board and effect."""
    if game.map is None:
        raise ValueError(f"game {game.id} has no map yet")
    board = game.board
    position = Position(dict(board.armies), dict(board.control), frozenset(board.farms))
    effect = parse_effect(game.effect) if game.effect is not None else None
    return Situation(game.map.board, position, effect)


def order_text(order: Order) -> str:
    """An order as a player types it (docs/rules.md, "Orders"), by territory ids."""
    if isinstance(order, Hold):
        return f"{order.unit} H"
    if isinstance(order, Move):
        return f"{order.unit} to {order.target}"
    if isinstance(order, Support):
        if order.target is None:
            return f"{order.unit} S {order.supported}"
        return f"{order.unit} S {order.supported} to {order.target}"
    if isinstance(order, Build):
        return f"{order.unit} B"
    if isinstance(order, Farm):
        return f"{order.unit} F"
    return f"{REF} to {order.target}"


def armies_of(game: PublicGame, player: str) -> list[str]:
    return sorted(t for t, owner in game.board.armies.items() if owner == player)


def army_orders(situation: Situation, player: str, army: str) -> list[Order]:
    """Every legal order for the army: hold, build, farm, each move, each support of a
    hold or of a move into a territory next to it (by anyone's army)."""
    board, armies = situation.board, situation.position.armies
    candidates: list[Order] = [Hold(army), Build(army), Farm(army)]
    for neighbour in sorted(board.neighbours[army]):
        candidates.append(Move(army, neighbour))
        if neighbour in armies:
            candidates.append(Support(army, neighbour))
        for mover in sorted(board.neighbours[neighbour]):
            if mover != army and mover in armies:
                candidates.append(Support(army, mover, neighbour))
    return [order for order in candidates if order.problem(player, situation) is None]


def reinforcements(situation: Situation, player: str) -> list[Reinforce]:
    """Every legal reinforcement (a player carries out one a turn)."""
    candidates = [Reinforce(territory) for territory in sorted(situation.board.barracks)]
    return [order for order in candidates if order.problem(player, situation) is None]


def random_orders(game: PublicGame, player: str, rng: Random) -> list[str]:
    """For each army, one of its legal orders drawn uniformly; and, when the player may
    reinforce, a reinforcement drawn uniformly among its barracks."""
    situation = situation_of(game)
    orders: list[Order] = [
        rng.choice(army_orders(situation, player, army)) for army in armies_of(game, player)
    ]
    extra = reinforcements(situation, player)
    if extra:
        orders.append(rng.choice(extra))
    return [order_text(order) for order in orders]


def greedy_orders(game: PublicGame, player: str, rng: Random) -> list[str]:
    """Takes what nobody defends: an army on a farm farms; one on a barracks no other
    player's army could reach builds a farm; otherwise it moves into a neighbour left empty
    (barracks and farms first, then another player's, then unclaimed land), or, with a
    second army beside the target, attacks an enemy army that nothing else could support;
    the rest support those moves or hold. A free barracks gets a reinforcement."""
    situation = situation_of(game)
    board, position = situation.board, situation.position
    armies = position.armies
    mine = armies_of(game, player)
    orders: dict[str, Order] = {}
    taken: set[str] = set()  # where this turn's moves go, so that two never collide

    def threatened(territory: str) -> bool:
        return any(armies.get(n, player) != player for n in board.neighbours[territory])

    for army in mine:
        if army in position.farms:
            orders[army] = Farm(army)
        elif situation.is_barracks(army) and not threatened(army):
            orders[army] = Build(army)
    for army in mine:
        if army in orders:
            continue
        empty = [
            n
            for n in sorted(board.neighbours[army])
            if n not in armies
            and n not in taken
            and _worth(board, position, player, n) > 0
            and Move(army, n).problem(player, situation) is None
        ]
        if empty:
            target = max(empty, key=lambda t: (_worth(board, position, player, t), rng.random()))
            orders[army] = Move(army, target)
            taken.add(target)
    for army in mine:
        if army in orders:
            continue
        attack = _attack(situation, player, army, [a for a in mine if a not in orders], taken)
        if attack is not None:
            move, support = attack
            orders[army] = move
            orders[support.unit] = support
            taken.add(move.target)
    for army in mine:
        if army not in orders:
            orders[army] = _support_or_hold(situation, player, army, orders)
    chosen: list[Order] = [orders[army] for army in mine]
    free = [r for r in reinforcements(situation, player) if r.target not in armies]
    if free:
        chosen.append(free[0])
    return [order_text(order) for order in chosen]


def _worth(board: Board, position: Position, player: str, territory: str) -> int:
    """How much a move into an empty neighbour is worth to the greedy bot."""
    owner = position.control.get(territory)
    if owner == player:
        return 0
    valuable = territory in board.barracks or territory in position.farms
    return 2 * valuable + (2 if owner is None else 1)


def _attack(
    situation: Situation, player: str, army: str, free: list[str], taken: set[str]
) -> tuple[Move, Support] | None:
    """A move on a neighbouring enemy army with a second free army's support, when no other
    army stands next to the target to support its hold: 2 against 1."""
    board, armies = situation.board, situation.position.armies
    for target in sorted(board.neighbours[army]):
        owner = armies.get(target)
        if owner is None or owner == player or target in taken:
            continue
        defenders = [n for n in board.neighbours[target] if armies.get(n) not in (None, player)]
        if defenders:
            continue
        move = Move(army, target)
        if move.problem(player, situation) is not None:
            continue
        for helper in free:
            support = Support(helper, army, target)
            if helper != army and support.problem(player, situation) is None:
                return move, support
    return None


def _support_or_hold(
    situation: Situation, player: str, army: str, orders: dict[str, Order]
) -> Order:
    """Support a move of its own side into a territory next to it, else hold."""
    for order in orders.values():
        if isinstance(order, Move):
            support = Support(army, order.unit, order.target)
            if support.problem(player, situation) is None:
                return support
    return Hold(army)


def random_ballot(game: PublicGame, player: str, rng: Random) -> str | None:
    return rng.choice(game.vote.candidates) if game.vote is not None else None


# The greedy bot's taste in effects: what pays a farmer first.
_GREEDY_TASTE = [
    Effect.FEAST,
    Effect.HARVEST,
    Effect.LAND_GRAB,
    Effect.MOBILIZE,
    Effect.ENTRENCH,
    Effect.TRUCE,
    Effect.STORM,
    Effect.FAMINE,
]


def greedy_ballot(game: PublicGame, player: str, rng: Random) -> str | None:
    if game.vote is None:
        return None
    return min(game.vote.candidates, key=lambda name: _GREEDY_TASTE.index(parse_effect(name)))


STRATEGIES: dict[str, tuple[Strategy, Ballot]] = {
    "random": (random_orders, random_ballot),
    "greedy": (greedy_orders, greedy_ballot),
}
