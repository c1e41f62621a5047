"""Skor as a game the server's room runs (rules/game.py; docs/skor.md, "Playing Skor on the
server"): the engine's setup, then both sealed choices, then the players' actions in turn,
and the draws they agree on (rules/skor/agreement.py).

Each event records what the engine needs to do it again (the choices or actions, with the
generation and the value of every die rolled), so `evolve` re-applies the engine with those
explicit rolls: the state is rebuilt exactly, never needing the secret. The engine's own
events and dice ride along, public, for the feed."""

import re
from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from rules.game import (
    Draws,
    Ending,
    Move,
    MoveRefused,
    NotYourMove,
    OptionsRefused,
    Result,
    Sealed,
    Seat,
    Standing,
    Wait,
)
from rules.kit.clock import clock_option, without
from rules.kit.picture import Look, Picture
from rules.skor import engine
from rules.skor.actions import AnyAction, Resign
from rules.skor.agreement import (
    DrawAccepted,
    DrawDeclined,
    DrawEvent,
    DrawOffer,
    DrawOffered,
    answered,
    draw_move,
    drawn,
    standing,
)
from rules.skor.clock import MOST_ACTIONS, OPTION, action_for, forfeits
from rules.skor.dice import Dice, DieRecord
from rules.skor.engine import act
from rules.skor.house import SkorHouse
from rules.skor.moves import read
from rules.skor.picture import picture
from rules.skor.setup import Choice, Setup, SetupError, check_choice, roll_setup, start
from rules.skor.standings import standings
from rules.skor.state import Ending as EngineEnding
from rules.skor.state import Options, State

EngineEvent = dict[str, Any]
_CHOOSE = re.compile(r"\s*choose\s+(\w{1,20})\s+(\d)(?:\s+(\w{1,20}))?\s*", re.I)


class SetupRolled(msgspec.Struct, frozen=True, tag="skor_setup_rolled.v1", omit_defaults=True):
    """The public rolls: who plays first and both territories' terrain, before any choice."""

    setup: Setup
    dice: list[DieRecord]
    # How long a turn may last (P43), in seconds; None: for ever.
    turn_time: int | None = None


class Chosen(msgspec.Struct, frozen=True, tag="skor_chosen.v1"):
    """Both sealed choices, shown together; the board made and turn 1 started."""

    choices: dict[Seat, Choice]
    generation: int
    dice: list[DieRecord]
    events: list[EngineEvent]


class Acted(msgspec.Struct, frozen=True, tag="skor_acted.v1"):
    """One move of the player whose turn it is: one action, or several (a text of lines)."""

    player: Seat
    generation: int
    actions: list[AnyAction]
    dice: list[DieRecord]
    events: list[EngineEvent]


class TimedOut(msgspec.Struct, frozen=True, tag="skor_timed_out.v1"):
    """The player's turn ran out of time (P43): the server's action for it, as `Acted`'s,
    or, at its third timeout in a row, none: it forfeited."""

    player: Seat
    generation: int
    actions: list[AnyAction]
    dice: list[DieRecord]
    events: list[EngineEvent]
    forfeited: bool = False


class Left(msgspec.Struct, frozen=True, tag="skor_left.v1"):
    """A seat resigned (or was banned): the other wins (P41)."""

    player: Seat
    events: list[EngineEvent]


Event = SetupRolled | Chosen | Acted | TimedOut | Left | DrawEvent


class Play(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The setup's rolls (with sides once chosen), the engine's state once both chose, who
    left, if anyone did, and the offer of a draw that stands, if one does."""

    setup: Setup
    game: State | None = None
    left: Seat | None = None
    offer: DrawOffer | None = None
    # The dice the last action rolled, for its picture (none before the first action).
    dice: tuple[DieRecord, ...] = ()
    turn_time: int | None = None
    # Each player's timeouts in a row (P43): a move of its own starts again from none.
    timeouts: dict[Seat, int] = {}


def _rolls(dice: list[DieRecord]) -> Dice:
    return Dice(rolls=[die.value for die in dice])


def _options(options: Mapping[str, Any]) -> Options:
    try:
        return msgspec.convert(without(options, OPTION), Options)
    except msgspec.ValidationError as error:
        raise OptionsRefused(
            "Skor's options are round_limit (1 to 10000), alternative_culture and "
            f"turn_time: {error}"
        ) from error


def _opponent(play: Play, seat: Seat) -> Seat:
    first, second = play.setup.players
    return second if seat == first else first


class Skor(SkorHouse):
    name = "skor"
    version = 1
    state_type = Play
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (
        ("choose feudal 1", "your setup choice: culture, side 1 to 6 (a technocracy: a branch)"),
        ("move A0 A4", "move or attack (`A0 A4`, `move A4 X2 m`, `move X1 B16 covert`)"),
        ("spawn", "spawn a civilian (`spawn A8`)"),
        ("build farm A3", "build: farm, base, fortification, debris, turret, road"),
        ("research military", "research a branch"),
        ("fire A10 B5", "fire a turret"),
        ("send 6 A1 A5", "send Resource"),
        ("city A11 / debris X1 / promote A10 / spy A4 A4 B6 / sabotage B10", "the others"),
        ("remove A1", "remove a piece of yours"),
        ("end", "end your turn; several actions: one a line, or separated by `;`"),
        ("offer draw", "offer a draw, in your turn"),
        ("accept draw / decline draw", "answer your opponent's offer, in your turn"),
    )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        kept: dict[str, Any] = msgspec.to_builtins(_options(options))
        return {**kept, OPTION: clock_option(options, OPTION)}

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 2

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        # Dice(secret=draws.key) draws exactly draws.stream(*labels), one stream per die.
        dice = Dice(secret=draws.key)
        rolled = roll_setup(list(seats), _options(options), dice)
        # As kept: none in a game created before the option existed.
        return [SetupRolled(rolled, dice.records, options.get(OPTION))]

    def evolve(self, state: Play | None, event: Event) -> Play:
        if isinstance(event, SetupRolled):
            return Play(event.setup, turn_time=event.turn_time)
        assert state is not None, "a Skor game starts with its setup's rolls"
        match event:
            case Chosen():
                setup, game, _ = start(
                    state.setup, event.choices, _rolls(event.dice), event.generation
                )
                return replace(state, setup=setup, game=game)
            case Acted():
                return _played(state, event, timeouts={**state.timeouts, event.player: 0})
            case TimedOut():
                assert state.game is not None
                timeouts = {**state.timeouts, event.player: state.timeouts.get(event.player, 0) + 1}
                if event.forfeited:
                    ending = EngineEnding(_opponent(state, event.player), "forfeit")
                    return replace(
                        state, game=replace(state.game, ending=ending), timeouts=timeouts
                    )
                return _played(state, event, timeouts)
            case DrawOffered(player):
                assert state.game is not None
                return replace(state, offer=DrawOffer(player, state.game.turn.number))
            case DrawAccepted():
                assert state.game is not None
                return replace(state, game=drawn(state.game), offer=None)
            case DrawDeclined():
                return replace(state, offer=None)
            case Left():
                kept = state.game
                if kept is not None and kept.ending is None:
                    kept = act(kept, event.player, Resign(), Dice(rolls=[])).state
                return replace(state, game=kept, left=event.player)
        raise AssertionError(f"not a Skor event: {event!r}")

    def to_move(self, state: Play) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        # The room keeps who has chosen: the sealed wait names every seat the setup awaits.
        if state.game is None:
            return Wait(frozenset(engine.to_move(state.setup)), sealed=True)
        # The setup's choices wait for ever; each turn has its clock (P43).
        return Wait(frozenset(engine.to_move(state.game)), seconds=state.turn_time)

    def move(self, state: Play, seat: Seat, move: Move, draws: Draws) -> Sealed | list[Event]:
        if state.game is None:
            return Sealed(_choice(state.setup.options, seat, move))
        if state.game.ending is not None or state.left is not None:
            raise MoveRefused("the game is over")
        if seat != state.game.turn.player:
            raise NotYourMove("not your turn")
        answer = draw_move(move)
        if answer is not None:
            return [answered(state.offer, seat, answer)]
        game = replace(state.game, generation=draws.generation)
        dice = Dice(secret=draws.key)
        actions: list[AnyAction] = []
        events: list[EngineEvent] = []
        entries = read(move)
        for line, action in entries:
            # The engine's refusal, word for word; a line of several is named.
            where = f"{line}: " if len(entries) > 1 else ""
            if isinstance(action, str):
                raise MoveRefused(where + action)
            if isinstance(action, Resign):
                raise MoveRefused(where + "resign with the game's resign, not as a move")
            result = act(game, seat, action, dice)
            if result.refused is not None:
                raise MoveRefused(where + result.refused)
            game = result.state
            actions.append(action)
            events.extend(result.events)
        return [Acted(seat, draws.generation, actions, dice.records, events)]

    def seal(self, earlier: Move | None, move: Move) -> Move:
        # A newer setup choice replaces the earlier one.
        return move

    def resolve(self, state: Play, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        choices = {seat: msgspec.convert(move, Choice) for seat, move in moves.items()}
        dice = Dice(secret=draws.key)
        _, _, events = start(state.setup, choices, dice, draws.generation)
        return [Chosen(choices, draws.generation, dice.records, events)]

    def time_out(self, state: Play, seat: Seat, draws: Draws) -> list[Event]:
        game = state.game
        assert game is not None, "Skor's setup waits for ever"
        assert seat == game.turn.player, "the seat whose turn it is times out"
        if forfeits(state.timeouts, seat):
            won = {"event": "won", "player": _opponent(state, seat), "by": "forfeit"}
            return [TimedOut(seat, draws.generation, [], [], [won], forfeited=True)]
        game = replace(game, generation=draws.generation)
        dice = Dice(secret=draws.key)
        actions: list[AnyAction] = []
        events: list[EngineEvent] = []
        # Until the turn is over: an `end` whose purge roll says 1 leaves a purge to do.
        while game.ending is None and game.turn.player == seat and len(actions) < MOST_ACTIONS:
            action = action_for(game, seat)
            result = act(game, seat, action, dice)
            assert result.refused is None, result.refused
            game = result.state
            actions.append(action)
            events.extend(result.events)
        return [TimedOut(seat, draws.generation, actions, dice.records, events)]

    def leave(self, state: Play, seat: Seat) -> list[Event]:
        game = state.game
        if game is None or game.ending is not None:
            return [Left(seat, [])]
        return [Left(seat, act(game, seat, Resign(), Dice(rolls=[])).events)]

    def ending(self, state: Play) -> Ending | None:
        if state.left is not None:
            return Ending(
                "resignation", {_opponent(state, state.left): "won", state.left: "resigned"}
            )
        if state.game is None or state.game.ending is None:
            return None
        winner = state.game.ending.winner
        results: dict[Seat, Result] = {
            seat: "drew" if winner is None else "won" if seat == winner else "lost"
            for seat in state.setup.players
        }
        return Ending(state.game.ending.by, results)

    def view(self, state: Play, seats: frozenset[Seat]) -> Any:
        # Nothing in play is hidden; the sealed choices are the room's, never in the state.
        return msgspec.to_builtins(state)

    def read_text(self, text: str) -> Move | None:
        """A setup choice, an offer, acceptance or refusal of a draw, or actions, every line
        readable; `resign` is the room's own command."""
        if chosen := _CHOOSE.fullmatch(text):
            tech = chosen[3].lower() if chosen[3] else None
            return {"culture": chosen[1].lower(), "side": int(chosen[2]), "tech": tech}
        if draw_move(text) is not None:
            return text
        try:
            entries = read(text)
        except MoveRefused:
            # Too long or too many: the move's own refusal says so.
            return text
        readable = all(not isinstance(a, str | Resign) for _, a in entries)
        return text if readable else None

    def picture(self, state: Play, looks: Mapping[Seat, Look]) -> Picture | None:
        return picture(state.game, state.dice, looks)

    def standings(self, state: Play) -> list[Standing]:
        return standings(state.setup, state.game, self.ending(state))


def _played(state: Play, event: Acted | TimedOut, timeouts: dict[Seat, int]) -> Play:
    """The game after a player's actions (its own, or those a timeout made for it), their
    dice as recorded: a draw offer may lapse, the dice are the last action's."""
    assert state.game is not None
    game = replace(state.game, generation=event.generation)
    rolls = _rolls(event.dice)
    for action in event.actions:
        result = act(game, event.player, action, rolls)
        assert result.refused is None, result.refused
        game = result.state
    return replace(
        state,
        game=game,
        offer=standing(state.offer, game),
        dice=tuple(event.dice),
        timeouts=timeouts,
    )


def _choice(options: Options, seat: Seat, move: Move) -> dict[str, Any]:
    """A seat's setup choice, checked on its own and kept in its normal form."""
    try:
        choice = msgspec.convert(move, Choice)
        check_choice(options, seat, choice)
    except (msgspec.ValidationError, SetupError) as error:
        raise MoveRefused(
            'a setup choice is {"culture": ..., "side": 1 to 6, "tech": a branch '
            f"(a technocracy's only)}}: {error}"
        ) from error
    kept: dict[str, Any] = msgspec.to_builtins(choice)
    return kept


SKOR = Skor()
