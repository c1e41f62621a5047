"""The working copy of a Skor state that one action changes: thawed from the frozen wire
state, changed in place, frozen again. A refused action's copy is thrown away, which is
why a refusal can change nothing."""

from typing import Any

import msgspec

from rules.skor.board import ORDER
from rules.skor.dice import Dice
from rules.skor.state import Ending, Options, Piece, State, Structure, Tech, Turn

Event = dict[str, Any]
PHASES = ("move", "build", "tech")


class Refused(Exception):
    """An action the rules do not allow; the message is the reason (docs/skor.md)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TurnInfo:
    """The mutable `turn` block (State.turn)."""

    def __init__(self, turn: Turn) -> None:
        self.number = turn.number
        self.player = turn.player
        self.grace = bool(turn.grace)
        self.phase: str = turn.phase or "move"
        self.production = turn.production or 0
        self.upkeep = turn.upkeep or 0
        self.fed = bool(turn.fed)
        self.available = turn.available or 0
        self.spawns = turn.spawns or 0
        self.alien_spawn = bool(turn.alien_spawn)
        self.dice = turn.dice or 0

    def freeze(self, over: bool) -> Turn:
        if over:
            return Turn(self.number, self.player)
        return Turn(
            self.number,
            self.player,
            self.grace,
            self.phase,  # type: ignore[arg-type]
            self.production,
            self.upkeep,
            self.fed,
            self.available,
            self.spawns,
            self.alien_spawn,
            self.dice,
        )


def piece_order(piece: Piece) -> tuple[int, int, int]:
    """Canonical order: hex order, civilian before military, unmoved before moved."""
    return ORDER[piece.at], piece.kind == "military", piece.moved


class Game:
    def __init__(self, state: State, dice: Dice) -> None:
        self.options: Options = state.options
        self.players = list(state.players)
        self.cultures: dict[str, str] = dict(state.cultures)
        self.tech: dict[str, dict[str, int]] = {
            p: msgspec.structs.asdict(state.tech.get(p, Tech())) for p in self.players
        }
        self.structures: dict[str, Structure] = dict(state.structures)
        self.pieces: list[Piece] = list(state.pieces)
        self.turn = TurnInfo(state.turn)
        # The round limit has passed when a finished game's turn lost its details.
        self.turn_over = state.turn.phase is None
        self.incoming: dict[str, int] = {p: state.incoming.get(p, 0) for p in self.players}
        self.generation = state.generation
        self.ending: Ending | None = state.ending
        self.dice = dice
        self.events: list[Event] = []

    def freeze(self) -> State:
        structures = {h: self.structures[h] for h in sorted(self.structures, key=ORDER.__getitem__)}
        return State(
            players=self.players,
            cultures=self.cultures,  # type: ignore[arg-type]
            structures=structures,
            pieces=sorted(self.pieces, key=piece_order),
            turn=self.turn.freeze(self.turn_over),
            options=self.options,
            tech={p: Tech(**self.tech[p]) for p in self.players},
            incoming=dict(self.incoming),
            generation=self.generation,
            ending=self.ending,
        )

    # Who and what.

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def level(self, player: str, branch: str) -> int:
        return self.tech[player][branch]

    def at(self, hex_: str) -> list[Piece]:
        return [piece for piece in self.pieces if piece.at == hex_]

    def mine(self, hex_: str, player: str, kind: str | None = None) -> list[Piece]:
        return [
            piece
            for piece in self.pieces
            if piece.at == hex_ and piece.player == player and kind in (None, piece.kind)
        ]

    def mine_any(self, player: str) -> bool:
        return any(piece.player == player for piece in self.pieces)

    def enemy_at(self, hex_: str, player: str) -> list[Piece]:
        return [piece for piece in self.at(hex_) if piece.player != player]

    def kind_at(self, hex_: str) -> str | None:
        structure = self.structures.get(hex_)
        return None if structure is None else structure.kind

    def city_of(self, player: str) -> str:
        for hex_, structure in self.structures.items():
            if structure.kind == "city" and structure.by == player:
                return hex_
        raise AssertionError(f"{player} has no City")

    # Changes.

    def emit(self, event: str, **fields: Any) -> None:
        self.events.append({"event": event, **fields})

    def roll(self, sides: int, purpose: str) -> int:
        """The next die of this turn (labels `roll`, turn, generation, k)."""
        labels = ("roll", self.turn.number, self.generation, self.turn.dice)
        self.turn.dice += 1
        return self.dice.roll(labels, sides, purpose)

    def take(self, piece: Piece) -> None:
        # Pieces with equal fields are interchangeable, so removing an equal one is exact.
        self.pieces.remove(piece)

    def put(self, hex_: str, player: str, kind: str, moved: bool) -> None:
        self.pieces.append(Piece(hex_, player, kind, moved))  # type: ignore[arg-type]

    def replace(self, piece: Piece, **changes: Any) -> Piece:
        self.take(piece)
        changed = msgspec.structs.replace(piece, **changes)
        self.pieces.append(changed)
        return changed

    # Checks shared by the actions.

    def check_phase(self, phase: str) -> None:
        if self.turn.phase == "purge":
            raise Refused("remove a piece: the dictatorship's roll was 1")
        current = PHASES.index(self.turn.phase)
        if PHASES.index(phase) < current:
            over = "movement" if phase == "move" else phase
            raise Refused(f"the {over} phase is over")

    def enter_phase(self, phase: str) -> None:
        if PHASES.index(phase) > PHASES.index(self.turn.phase):
            self.turn.phase = phase

    def check_fed(self) -> None:
        if not self.turn.fed:
            raise Refused("starving: remove pieces until you can feed them, or end the turn")

    def check_pay(self, amount: int) -> None:
        """Starving is checked before Resource wherever Resource is paid."""
        self.check_fed()
        if amount > self.turn.available:
            raise Refused(f"needs {amount} Resource, {self.turn.available} available")
