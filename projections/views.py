"""What a game looks like from outside: the public view, the standings, a player's own
orders. Pure functions of the state; nothing secret enters the public ones."""

from datetime import datetime
from typing import Any

from msgspec.structs import replace

from projections.game import GameState
from projections.owned import own_events
from projections.seat_view import player_view
from projections.skirmish.orders import standing_orders
from projections.visibility import secret_revealed
from rules.game import Column, Game, Ranked
from schema.game_events import RecordedPosition
from schema.views import ClockKind, MyOrders, PlayerView, PublicGame, SeatClaim


def standings(state: GameState) -> list[PlayerView]:
    """The players in the game's order: a game whose events are the room's own, its own
    (Skirmish Society's by VP, then territories, then name: the side bar's order); any
    other, its standings (`play_standings`)."""
    own = own_events(state.definition)
    if own is None:
        return play_standings(state, state.definition)
    players: list[PlayerView] = own.public(state.play, state.players)["players"]
    return players


def _own_fields(state: GameState) -> dict[str, Any]:
    """The public game's fields of a game whose events are the room's own
    (`OwnEvents.public`), empty for any other game, which shows its `play` instead."""
    own = own_events(state.definition)
    if own is not None:
        return own.public(state.play, state.players)
    return {
        "players": standings(state),
        "map": None,
        "board": RecordedPosition(armies={}, control={}, farms=[]),
        "vote": None,
        "effect": None,
        "winner": None,
        "last_turn": None,
    }


def play_standings(state: GameState, definition: Game[Any, Any]) -> list[PlayerView]:
    """The players of a game run by its definition: in its standings' order with their
    columns where it has standings (`Ranked`), else in the order they joined; and whether
    the game waits for each, and has its move where that is public. None of Skirmish
    Society's numbers: 0."""
    if state.play is None:
        return [player_view(p) for p in state.players.values()]
    wait = definition.to_move(state.play)
    columns: dict[str, dict[str, Column]] = {}
    if isinstance(definition, Ranked):
        columns = {row.seat: row.columns for row in definition.standings(state.play)}
    # A seat the standings leave out (none should) follows the ranked ones, as it joined.
    order = [seat for seat in columns if seat in state.players]
    order += [seat for seat in state.players if seat not in columns]
    announced = wait.sealed and wait.announced
    return [
        replace(
            player_view(state.players[seat]),
            standing=columns.get(seat),
            to_move=state.phase == "running" and seat in wait.seats,
            moved=seat in state.sealed if announced and seat in wait.seats else None,
        )
        for seat in order
    ]


def public_game(
    state: GameState,
    position: int,
    now: datetime | None = None,
    clock: ClockKind | None = None,
    seats: frozenset[str] | None = None,
) -> PublicGame:
    """The game as anyone sees it; with `seats` (those of a caller who plays, projections.
    visibility.Viewer), a game run by its definition shows its `view` for those seats and
    their own sealed moves of the wait, never another seat's."""
    assert state.phase != "new"
    return PublicGame(
        id=state.game_id,
        name=state.settings.name,
        phase=state.phase,
        turn=state.turn,
        settings=state.settings,
        admins=state.admins,
        next_resolution_at=state.next_resolution_at(),
        orders_open_at=state.orders_open_at(),
        orders_close_at=state.orders_close_at(),
        position=position,
        now=now,
        clock=clock,
        commitment=state.commitment,
        secret=state.secret if secret_revealed(state.secret, state) else None,
        forked_from=state.forked_from,
        claims=_claims(state) if state.awaiting_claims else None,
        game=state.game,
        game_version=state.game_version,
        **_own_fields(state),
        **_play_view(state, seats),
    )


def _play_view(state: GameState, seats: frozenset[str] | None) -> dict[str, Any]:
    """What a game run by its definition shows a reader (anyone, without `seats`): none of
    it for Skirmish Society."""
    definition = state.definition
    if own_events(definition) is not None:
        return {}
    if state.play is None:
        return {"options": state.options}
    wait = definition.to_move(state.play)
    shown: dict[str, Any] = {
        "options": state.options,
        "play": definition.view(state.play, seats or frozenset()),
        "to_move": sorted(wait.seats) if state.phase == "running" else [],
        "moved": sorted(state.sealed) if wait.sealed and wait.announced else None,
        "ending": definition.ending(state.play),
    }
    if seats is not None:
        shown["seats"] = sorted(seats)
        shown["sealed"] = {seat: move for seat, move in state.sealed.items() if seat in seats}
    return shown


def _claims(state: GameState) -> dict[str, SeatClaim]:
    """Each seat still playing of a fork before its start, as claimed, invited or vacant."""
    invited = {seat for seat, who in state.invited.items() if set(who) - state.banned_accounts}
    return {
        p.id: "claimed" if p.accounts else "invited" if p.id in invited else "vacant"
        for p in state.players.values()
        if p.status == "active"
    }


def my_orders(state: GameState, player_id: str) -> MyOrders:
    submissions = state.skirmish.submissions.get(player_id, ())
    return MyOrders(
        player=player_id,
        turn=state.turn,
        submitted=[list(s.checked) for s in submissions],
        current=standing_orders(state.skirmish, player_id),
        last_turn=[
            o
            for o in state.skirmish.last_turn_orders(player_id)
            if o.result not in ("invalid", "replaced")
        ],
    )
