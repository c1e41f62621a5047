"""One turn (§4): phase 0 treaties, P placement, 1 transfers, 2 skirmishes, 3 invasions,
4 advance, 5 return, 6 build, then the end-of-turn checks. Pure: the draws come in."""

from rules.artofwar.advance import advance, return_home
from rules.artofwar.board import Board
from rules.artofwar.build import builds
from rules.artofwar.diplomacy import treaty
from rules.artofwar.draws import Draws
from rules.artofwar.ending import eliminated_now, ending
from rules.artofwar.invasions import invade
from rules.artofwar.options import Placement
from rules.artofwar.records import ArtOfWarOrderReport, Result, TurnResult
from rules.artofwar.skirmishes import skirmish
from rules.artofwar.state import Player, State
from rules.artofwar.transfers import place, transfer
from rules.artofwar.validate import Checked, check_orders
from rules.artofwar.work import Work


def resolve(
    board: Board,
    placement: Placement,
    state: State,
    orders: dict[str, list[str]],
    draws: Draws,
) -> TurnResult:
    """The turn's outcome; `orders` maps every player that submitted to its submissions, in
    the order sent (each a text of one or more order lines)."""
    free = placement == "free"
    checked = check_orders(board, state, free, orders)
    eliminated = sorted(set(state.players) - set(state.active()))
    signed = treaty({p: state.players[p].stance for p in state.active()})
    if signed is not None:
        return TurnResult(
            treaty=signed,
            orders=[_report(checked, i, "not_run", None) for i in range(len(checked.lines))],
            placements=[],
            transfers=[],
            skirmishes=[],
            battles=[],
            returns=[],
            builds=[],
            owners=dict(sorted(state.owners.items())),
            units=_units(state.units),
            pending_builds=_units(state.pending_builds),
            eliminated=eliminated,
            ending=signed,
            draws=[],
            events={},
        )
    work = Work(board, state, checked, draws, dict(state.units))
    placements = place(work) if free else []
    transfers = transfer(work)
    skirmishes = skirmish(work)
    fights = invade(work)
    # stay + retreated + inflow (units retreat to their source, which is among the stayed).
    work.units = dict(work.stay)
    for counts in (work.retreated, work.inflow):
        for territory, n in counts.items():
            work.units[territory] = work.units.get(territory, 0) + n
    battles, conquered = advance(work, fights)
    returns = return_home(work, conquered)
    owners = dict(state.owners)
    owners.update({target: group.move.player for target, group in conquered.items()})
    built = builds(board, owners)
    pending: dict[str, int] = {}
    for build in built:
        if free:
            pending[build.player] = pending.get(build.player, 0) + build.units
        else:
            work.units[build.territory] = work.units.get(build.territory, 0) + build.units
        work.event(build.territory, "built", units=build.units)
    out = eliminated_now(state.active(), owners)
    survivors = [p for p in state.active() if p not in out]
    return TurnResult(
        treaty=None,
        orders=[_report(checked, i, *_result(work, i)) for i in range(len(checked.lines))],
        placements=placements,
        transfers=transfers,
        skirmishes=skirmishes,
        battles=battles,
        returns=returns,
        builds=built,
        owners=dict(sorted(owners.items())),
        units=_units(work.units),
        pending_builds=_units(pending),
        eliminated=sorted(eliminated + out),
        ending=ending(survivors, owners, len(board.territories)),
        draws=draws.taken,
        events=dict(sorted(work.events.items())),
    )


def next_state(state: State, result: TurnResult) -> State:
    """The state the next turn starts from."""
    players = {
        name: Player("eliminated", player.stance) if name in result.eliminated else player
        for name, player in state.players.items()
    }
    return State(state.turn + 1, players, result.owners, result.units, result.pending_builds)


def _result(work: Work, i: int) -> tuple[Result, int | None]:
    line = work.checked.lines[i]
    if line.verdict != "carried":
        return line.verdict, None
    match line.kind:
        case "hold":
            return "held", None
        case "place":
            return "placed", None
        case "transfer":
            return "transferred", None
    return work.results[i]


def _report(checked: Checked, i: int, result: Result, survivors: int | None) -> ArtOfWarOrderReport:
    line = checked.lines[i]
    return ArtOfWarOrderReport(
        player=line.player,
        text=line.text,
        kind=line.kind,
        source=line.source,
        target=line.target,
        sent=line.units,
        result=result,
        survivors=survivors,
        reason=line.reason,
    )


def _units(units: dict[str, int]) -> dict[str, int]:
    """Units by territory (or player), in id order, without the zeros (absent means 0)."""
    return {key: n for key, n in sorted(units.items()) if n}
