"""What makes a Skor state in a request malformed (docs/skor.md, "State"): unknown names,
impossible stacks, a player without exactly one City, a turn that is not its player's."""

from collections import Counter

from rules.skor.board import HEXES
from rules.skor.state import State

MAX_NAME = 40


class StateError(ValueError):
    """A state no game of Skor can reach; the message says why."""


def _players(state: State) -> None:
    players = state.players
    if len(players) != 2 or players[0] == players[1]:
        raise StateError("a game of Skor has exactly two players, by different names")
    for name in players:
        if not name or len(name) > MAX_NAME:
            raise StateError(f"a player's name has 1 to {MAX_NAME} characters: {name!r}")
    if sorted(state.cultures) != sorted(players):
        raise StateError("cultures: one for each player")
    for field, keys in (("tech", state.tech), ("incoming", state.incoming)):
        for key in keys:
            if key not in players:
                raise StateError(f"{field}: not a player: {key}")


def _structures(state: State) -> None:
    cities: Counter[str] = Counter()
    for hex_, structure in state.structures.items():
        if hex_ not in HEXES:
            raise StateError(f"structures: no such hex: {hex_}")
        if structure.by is not None and structure.by not in state.players:
            raise StateError(f"structures: not a player: {structure.by}")
        if structure.kind == "city":
            if structure.by is None:
                raise StateError(f"the City on {hex_} has no player")
            cities[structure.by] += 1
    for player in state.players:
        if cities[player] != 1:
            raise StateError(f"{player} has {cities[player]} Cities, not one")


def _pieces(state: State) -> None:
    owners: dict[str, set[str]] = {}
    counts: Counter[str] = Counter()
    for piece in state.pieces:
        if piece.at not in HEXES:
            raise StateError(f"pieces: no such hex: {piece.at}")
        if piece.player not in state.players:
            raise StateError(f"pieces: not a player: {piece.player}")
        structure = state.structures.get(piece.at)
        if structure is not None and structure.kind == "obstruction":
            raise StateError(f"a piece on the obstruction {piece.at}")
        owners.setdefault(piece.at, set()).add(piece.player)
        counts[piece.at] += 1
    for hex_, players in owners.items():
        if len(players) > 1:
            raise StateError(f"{hex_} holds both players' pieces")
        if counts[hex_] > 2:
            raise StateError(f"{hex_} holds {counts[hex_]} pieces, more than 2")


def _turn(state: State) -> None:
    turn = state.turn
    if turn.player != state.players[(turn.number - 1) % 2]:
        raise StateError(f"turn {turn.number} is not {turn.player}'s")
    if state.ending is not None:
        winner = state.ending.winner
        if winner is not None and winner not in state.players:
            raise StateError(f"ending: not a player: {winner}")
        return
    if turn.number > 2 * state.options.round_limit:
        raise StateError(f"turn {turn.number} is past the round limit")
    details = (turn.grace, turn.phase, turn.production, turn.upkeep, turn.fed, turn.available)
    if None in details or None in (turn.spawns, turn.alien_spawn, turn.dice):
        raise StateError("a turn in play has every field of `turn`")


def validate(state: State) -> None:
    _players(state)
    _structures(state)
    _pieces(state)
    _turn(state)
