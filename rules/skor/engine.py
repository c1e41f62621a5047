"""Skor's engine (docs/skor.md): one action of one player on a state, accepted with its
events or refused with a reason; a refused action changes nothing and rolls nothing."""

from collections.abc import Callable
from typing import Any

import msgspec

from rules.skor import building, diplomacy, espionage, movement, nomadic, pieces, research, turret
from rules.skor.actions import (
    Action,
    Build,
    City,
    Debris,
    End,
    Fire,
    Move,
    Promote,
    Remove,
    Research,
    Resign,
    Sabotage,
    Send,
    Spawn,
    Spy,
)
from rules.skor.dice import Dice
from rules.skor.game import Event, Game, Refused
from rules.skor.parse import lines, parse
from rules.skor.setup import Setup
from rules.skor.state import Ending, State
from rules.skor.turns import check_win, end_turn

PURGE_ROLL = 2


class Result(msgspec.Struct, frozen=True):
    """The state after the action (the same state when refused) and what happened."""

    state: State
    events: list[Event]
    refused: str | None = None


def _end(game: Game, player: str, action: End) -> None:
    if game.turn.phase == "purge":
        game.check_phase("move")
    if game.cultures[player] == "dictatorship":
        roll = game.roll(PURGE_ROLL, "purge")
        game.emit("purge_roll", roll=roll)
        if roll == 1 and game.mine_any(player):
            game.turn.phase = "purge"
            return
    end_turn(game)


def _resign(game: Game, player: str, action: Resign) -> None:
    game.emit("resigned", player=player)
    game.ending = Ending(game.opponent(player), "resignation")


HANDLERS: dict[type[Action], Callable[[Game, str, Any], None]] = {
    Move: movement.move,
    Fire: turret.fire,
    City: nomadic.move_city,
    Spawn: pieces.spawn,
    Remove: pieces.remove,
    Build: building.build,
    Debris: building.debris,
    Promote: building.promote,
    Send: diplomacy.send,
    Spy: espionage.spy,
    Sabotage: espionage.sabotage,
    Research: research.research,
    End: _end,
    Resign: _resign,
}


def check_player(state: State, player: str, resigning: bool) -> None:
    """The checks before any action's own: the game goes on, and it is the player's turn."""
    if state.ending is not None:
        raise Refused("the game is over")
    if player not in state.players:
        raise Refused(f"not a player: {player}")
    if not resigning and player != state.turn.player:
        raise Refused("not your turn")


def act(state: State, player: str, action: Action, dice: Dice) -> Result:
    """`player`'s action on `state`, its dice from `dice`."""
    game = Game(state, dice)
    try:
        check_player(state, player, isinstance(action, Resign))
        HANDLERS[type(action)](game, player, action)
    except Refused as refusal:
        return Result(state, [], refusal.reason)
    check_win(game)
    return Result(game.freeze(), game.events)


class Line(msgspec.Struct, frozen=True):
    """One line of a text submission: its action when it could be read, and its result
    (None when an earlier line was refused: not run)."""

    text: str
    action: Action | None
    result: Result | None


def submit_text(state: State, player: str, text: str, dice: Dice) -> tuple[State, list[Line]]:
    """Several actions, one per line, applied in order until the first refusal."""
    done: list[Line] = []
    stopped = False
    # An empty submission is one line that cannot be read, not nothing at all.
    for line in lines(text) or [text.strip()]:
        if stopped:
            done.append(Line(line, None, None))
            continue
        try:
            action: Action | None = parse(line)
        except Refused as refusal:
            result = Result(state, [], refusal.reason)
            action = None
        else:
            assert action is not None
            result = act(state, player, action, dice)
        done.append(Line(line, action, result))
        state, stopped = result.state, result.refused is not None
    return state, done


def to_move(game: State | Setup) -> tuple[str, ...]:
    """Who is to act: during the setup, both players at once, each with a sealed choice
    (who has chosen is the room's to keep); then the player whose turn it is; nobody once
    the game is over (though either player may resign while it goes on)."""
    if isinstance(game, Setup):
        return tuple(game.players)
    return () if game.ending is not None else (game.turn.player,)
