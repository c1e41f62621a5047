"""Tic-tac-toe: two seats take turns; who plays first is drawn from the game's secret. With
`seconds`, a seat whose turn lasts longer has the lowest free cell marked for it."""

from collections.abc import Mapping
from typing import Any

import msgspec

from rules.game import Draws, Ending, Move, MoveRefused, OptionsRefused, Sealed, Seat, Wait

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class Began(msgspec.Struct, frozen=True, tag="began.v1"):
    # X plays first.
    x: Seat
    o: Seat
    seconds: int | None = None


class Marked(msgspec.Struct, frozen=True, tag="marked.v1"):
    seat: Seat
    cell: int


class Resigned(msgspec.Struct, frozen=True, tag="resigned.v1"):
    seat: Seat


Event = Began | Marked | Resigned


class State(msgspec.Struct, frozen=True):
    x: Seat
    o: Seat
    seconds: int | None = None
    cells: tuple[Seat | None, ...] = (None,) * 9
    resigned: Seat | None = None

    @property
    def next(self) -> Seat:
        marks = sum(cell is not None for cell in self.cells)
        return self.x if marks % 2 == 0 else self.o


class TicTacToe:
    name = "tic-tac-toe"
    version = 1
    state_type = State
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (("4", "mark a cell, 0 to 8"),)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        seconds = options.get("seconds")
        if set(options) - {"seconds"}:
            raise OptionsRefused("tic-tac-toe's one option is seconds")
        if seconds is not None and (type(seconds) is not int or not 1 <= seconds <= 86_400):
            raise OptionsRefused("seconds, a turn's time, is 1 to 86400")
        return {"seconds": seconds}

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 2

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        first = draws.stream("first").below(2)
        return [Began(x=seats[first], o=seats[1 - first], seconds=options["seconds"])]

    def evolve(self, state: State | None, event: Event) -> State:
        match event:
            case Began():
                return State(event.x, event.o, event.seconds)
            case Marked():
                assert state is not None
                cells = list(state.cells)
                cells[event.cell] = event.seat
                return msgspec.structs.replace(state, cells=tuple(cells))
            case Resigned():
                assert state is not None
                return msgspec.structs.replace(state, resigned=event.seat)

    def to_move(self, state: State) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        return Wait(frozenset({state.next}), seconds=state.seconds)

    def move(self, state: State, seat: Seat, move: Move, draws: Draws) -> Sealed | list[Event]:
        if type(move) is not int or not 0 <= move <= 8:
            raise MoveRefused(f"a move is a cell, 0 to 8, not {move!r}")
        if state.cells[move] is not None:
            raise MoveRefused(f"cell {move} is taken")
        return [Marked(seat, move)]

    def seal(self, earlier: Move | None, move: Move) -> Move:
        return move

    def resolve(self, state: State, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        raise MoveRefused("tic-tac-toe has no sealed moves")

    def time_out(self, state: State, seat: Seat, draws: Draws) -> list[Event]:
        return [Marked(seat, state.cells.index(None))]

    def leave(self, state: State, seat: Seat) -> list[Event]:
        return [Resigned(seat)]

    def ending(self, state: State) -> Ending | None:
        if state.resigned is not None:
            other = state.o if state.resigned == state.x else state.x
            return Ending("resignation", {other: "won", state.resigned: "resigned"})
        for a, b, c in LINES:
            seat = state.cells[a]
            if seat is not None and seat == state.cells[b] == state.cells[c]:
                loser = state.o if seat == state.x else state.x
                return Ending("line", {seat: "won", loser: "lost"})
        if all(cell is not None for cell in state.cells):
            return Ending("full", {state.x: "drew", state.o: "drew"})
        return None

    def view(self, state: State, seats: frozenset[Seat]) -> Any:
        return {"x": state.x, "o": state.o, "cells": list(state.cells), "resigned": state.resigned}

    def read_text(self, text: str) -> Move | None:
        cell = text.strip()
        return int(cell) if cell in {str(n) for n in range(9)} else None


TIC_TAC_TOE = TicTacToe()
