"""What the server asks of Skirmish Society's rules: a starting map and board from settings
and a seed, how many players a built-in map seats, the instant check of an order, the
resolution of a turn, and the seeded draw of a vote."""

from collections.abc import Sequence

from rules.kit.prng import derived
from rules.skirmish.board import GameMap, MapError
from rules.skirmish.effects import Effect, parse_effect
from rules.skirmish.mapgen import MAX_PLAYERS, MIN_PLAYERS, MapType, generate
from rules.skirmish.maps import builtin_map
from rules.skirmish.position import Position, Situation
from rules.skirmish.turn import TurnInput, TurnOutcome, resolve_turn
from rules.skirmish.validate import CheckedOrder, check_submission


class SkirmishSociety:
    name = "skirmish-society"
    # A change of the rules that would play a recorded game differently comes as a new
    # version beside this one: games keep the version they were created under.
    version = 1

    def starting_map(
        self, *, players: int, map_type: MapType, builtin: str | None, seed: int
    ) -> GameMap:
        if builtin is None:
            return generate(players=players, map_type=map_type, seed=seed)
        game_map = builtin_map(builtin)
        if len(game_map.homes) < players:
            raise MapError(
                f"map {builtin!r} has starting homes for {len(game_map.homes)} players, "
                f"not {players}"
            )
        return game_map

    def starting_board(
        self, game_map: GameMap, players: Sequence[str], randomness: bytes
    ) -> tuple[Position, dict[str, tuple[str, ...]]]:
        """Each player gets a home, drawn from the game's randomness, with an army on each
        of its barracks."""
        seats = derived(randomness, "seats").sample(game_map.homes, len(players))
        homes = dict(zip(players, seats, strict=True))
        barracks = game_map.board.barracks
        armies = {t: p for p, home in homes.items() for t in home if t in barracks}
        control = {t: p for p, home in homes.items() for t in home}
        return Position(armies=armies, control=control), homes

    def player_counts(self, builtin: str) -> tuple[int, int] | None:
        """The fewest and the most players a game on the built-in map `builtin` can start
        with (one starting home each), or None if it cannot host a game. MapError for an
        unknown map."""
        homes = len(builtin_map(builtin).homes)
        return (MIN_PLAYERS, min(homes, MAX_PLAYERS)) if homes >= MIN_PLAYERS else None

    def check_submission(
        self, game_map: GameMap, position: Position, player: str, text: str, effect: str | None
    ) -> tuple[CheckedOrder, ...]:
        board = game_map.board
        situation = Situation(board, position, parse_effect(effect) if effect else None)
        return check_submission(player, text, board, situation)

    def resolve(self, turn: TurnInput) -> TurnOutcome:
        return resolve_turn(turn)

    def draw_vote(self, randomness: bytes, turn: int) -> tuple[tuple[str, str], str]:
        """Two distinct effects for the vote held during `turn`, and the one that wins a tie."""
        rng = derived(randomness, "votes", turn)
        first, second = rng.sample([e.value for e in Effect], 2)
        return (first, second), rng.choice((first, second))


SKIRMISH_SOCIETY = SkirmishSociety()
