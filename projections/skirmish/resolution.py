"""Skirmish Society's resolution of a turn into one `TurnResolved`, as a function of the
game's state (`SkirmishPlay`, with the room's facts it holds: statuses, bans, resignations)
and its time and the game's randomness; and whose orders an early resolution
still waits for. The room (server/game/decide/resolution.py) checks who resolves and when.

Pure: no I/O, no clock.
"""

from datetime import datetime

from projections.skirmish.orders import position_of
from projections.skirmish.state import SkirmishPlay
from projections.skirmish.votes import outcome, vote_for
from rules.skirmish.effects import parse_effect
from rules.skirmish.turn import TurnInput, resolve_turn
from schema.game_events import RecordedPosition, TurnResolved


def resolve(play: SkirmishPlay, *, now: datetime, randomness: bytes) -> TurnResolved:
    """The resolution of this turn at `now`, the next vote drawn from `randomness`."""
    assert play.map is not None
    turn = play.turn
    settings = play.room.settings
    vote_outcome = outcome(play, settings, turn)
    same_day = settings.voting_mode == "same_day"
    effect = vote_outcome.winner if same_day and vote_outcome is not None else play.effect
    seats = play.room.seats
    resolved = resolve_turn(
        TurnInput(
            game_map=play.map,
            position=position_of(play),
            vp={seat: play.vp_of(seat) for seat in seats},
            orders={
                seat: [s.text for s in submissions]
                for seat, submissions in play.submissions.items()
                if seat in play.room.in_play
            },
            effect=parse_effect(effect) if effect else None,
            vp_target=settings.vp_target,
            resigned=frozenset(seat for seat, facts in seats.items() if facts.status == "resigned"),
            joins=_mutual_requests(play),
        )
    )
    position = resolved.position
    return TurnResolved(
        turn=turn,
        at=now,
        effect=effect,
        orders=resolved.orders,
        board=RecordedPosition(
            armies=position.armies, control=position.control, farms=sorted(position.farms)
        ),
        dead=resolved.dead,
        vp=resolved.vp,
        vp_gained=resolved.vp_gained,
        eliminated=resolved.eliminated,
        winner=resolved.winner,
        joined=resolved.joined,
        vote_outcome=vote_outcome,
        next_vote=vote_for(settings, turn + 1, randomness) if resolved.winner is None else None,
        next_effect=vote_outcome.winner if vote_outcome is not None and not same_day else None,
    )


def not_ready(play: SkirmishPlay) -> str | None:
    """Why an admin may not resolve `turn` early: rules.md, an early resolution of a real
    game waits until every active player has sent orders (an empty submission says ready),
    or an admin who plays could resolve, read the others' orders, rewind and change theirs.
    Says how many are missing, never who: who has sent orders is nobody's business before
    the resolution. None once everyone's are in."""
    active = play.room.in_play
    missing = len(active - play.submissions.keys())
    if not missing:
        return None
    verb = "has" if missing == 1 else "have"
    return (
        f"{missing} of the {len(active)} active players {verb} not sent orders for turn "
        f"{play.turn}: an admin resolves early only once everyone's orders are in (an "
        "empty submission says ready); the clock resolves the turn on time"
    )


def _mutual_requests(play: SkirmishPlay) -> tuple[tuple[str, str], ...]:
    """Pairs who asked for each other this turn, in the order they joined the game."""
    room, requests = play.room, play.join_requests
    order = {seat: i for i, seat in enumerate(room.seats)}
    pairs = {
        tuple(sorted((a, b), key=order.__getitem__))
        for a, b in requests.items()
        if requests.get(b) == a and a in room.in_play and b in room.in_play
    }
    return tuple(sorted((a, b) for a, b in pairs))
