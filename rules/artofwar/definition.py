"""The Art of War through the game room (rules/game.py, docs/art-of-war.md "Playing on the
server"): every player not eliminated gives its orders at once, in secret; the last
submission runs the turn. A change of stance and a public message are acts, public at once;
a private message (intrigue games) is an act its sender and recipient alone see."""

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from rules.artofwar.board import map_file_of
from rules.artofwar.diplomacy import Stance, StanceRefused, change_stance
from rules.artofwar.draws import Draws as TurnDraws
from rules.artofwar.draws import map_seed, setup_stream, turn_seed
from rules.artofwar.house import ArtOfWarHouse
from rules.artofwar.messages import MessageSent, addressee, message_of, message_text, send
from rules.artofwar.options import MAX_PLAYERS, MIN_PLAYERS
from rules.artofwar.orders import shaped, split_lines
from rules.artofwar.picture import picture
from rules.artofwar.play import (
    DEADLINE,
    STANCE,
    Event,
    Play,
    Resigned,
    StanceChanged,
    Started,
    TurnRun,
    board_of,
    check_game_options,
    game_options,
    play_board,
    stance_of,
    submission,
    submissions,
)
from rules.artofwar.resolve import next_state, resolve
from rules.artofwar.setup import SetupError, setup
from rules.artofwar.standings import standings
from rules.artofwar.state import Player
from rules.game import (
    Draws,
    Ending,
    Move,
    MoveRefused,
    OptionsRefused,
    Private,
    Result,
    Sealed,
    Seat,
    Standing,
    Wait,
)
from rules.kit.clock import clock_option
from rules.kit.picture import Look, Picture
from rules.kit.prng import SeededRandom


class ArtOfWar(ArtOfWarHouse):
    name = "art-of-war"
    # 2: a seat's submissions of a turn are all carried (§3.4); 1 kept only the newest.
    version = 2
    state_type = Play
    event_type = Event
    text_forms: tuple[tuple[str, str], ...] = (
        ("US 3 to AK, MX hold", "orders (§3.6), with your earlier ones: newest per territory"),
        ("place 2 AK", "place units (free placement)"),
        ("stance draw 3", "change your stance: no mercy, offer mercy, draw [N], surrender"),
        ("say <text>", "a public message"),
        ("tell <player> <text>", "a private message, to a name or seat (p2): intrigue games"),
    )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        try:
            checked = check_game_options(dict(options))
        except ValueError as error:
            raise OptionsRefused(str(error)) from error
        result: dict[str, Any] = msgspec.to_builtins(checked)
        return {**result, DEADLINE: clock_option(options, DEADLINE)}

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2 to 20 (P3), and no more than the map has territories: whether a `one` game can
        seat its players apart depends on the setup's draw, and is told at the start."""
        checked = game_options(options)
        if checked.map == "generated":
            return MIN_PLAYERS, MAX_PLAYERS
        territories = len(board_of(checked.map, MIN_PLAYERS, None).territories)
        return MIN_PLAYERS, min(MAX_PLAYERS, territories)

    def setup(
        self, options: Mapping[str, Any], seats: tuple[Seat, ...], draws: Draws
    ) -> list[Event]:
        checked = game_options(options)
        seed = None
        if checked.map == "generated":
            seed = checked.map_seed if checked.map_seed is not None else map_seed(draws.key)
        board = board_of(checked.map, len(seats), seed)
        try:
            position = setup(board, list(seats), checked, setup_stream(draws.key))
        except SetupError as error:
            raise OptionsRefused(str(error)) from error
        # The deadline as kept: none in a game created before the option existed.
        return [Started(checked, tuple(seats), seed, position, options.get(DEADLINE))]

    def evolve(self, state: Play | None, event: Event) -> Play:
        if isinstance(event, Started):
            return Play(
                event.options,
                event.seats,
                event.map_seed,
                event.position,
                deadline=event.deadline,
            )
        assert state is not None, "a game starts with started.v1"
        match event:
            case StanceChanged(seat, stance):
                return _with_stance(state, seat, stance)
            case TurnRun(result=result):
                return replace(
                    state,
                    position=next_state(state.position, result),
                    ending=result.ending,
                    last_orders=tuple(result.orders),
                )
            case Resigned(seat):
                surrendered = _with_stance(state, seat, Stance("surrender"))
                return replace(surrendered, resigned=state.resigned | {seat})
            case MessageSent():
                return state
        raise AssertionError(f"not an Art of War event: {event!r}")

    def to_move(self, state: Play) -> Wait:
        if self.ending(state) is not None:
            return Wait()
        # §7: who has submitted is public, so that everyone sees whom the turn waits for.
        # P30: at the deadline the room runs the turn with the orders that are in.
        seats = frozenset(_waited(state))
        return Wait(seats, sealed=True, announced=True, seconds=state.deadline)

    def move(
        self, state: Play, seat: Seat, move: Move, draws: Draws
    ) -> Sealed | Private | list[Event]:
        message = message_of(move)
        if message is not None:
            sent = send(seat, message, state.seats, state.options.intrigue)
            return [sent] if sent.to is None else Private([sent], frozenset({sent.to}))
        stance = stance_of(move)
        if stance is None:
            # Sealed with the seat's earlier submissions of the turn (`seal`, §3.4).
            return Sealed(submission(move))
        current = state.position.players[seat].stance
        try:
            change_stance(current, stance, binding=state.options.diplomacy == "binding")
        except StanceRefused as error:
            raise MoveRefused(str(error)) from error
        return [StanceChanged(seat, stance)]

    def seal(self, earlier: Move | None, move: Move) -> Move:
        """§3.4: a player's orders are all its submissions of the turn, in the order sent;
        the newest valid order per territory is carried out (rules/artofwar/validate.py)."""
        return submissions(earlier, move)

    def resolve(self, state: Play, moves: Mapping[Seat, Move], draws: Draws) -> list[Event]:
        position = state.position
        # A seat without a move (resigned, banned) submitted nothing (P34).
        orders = {
            seat: msgspec.convert(moves[seat], list[str])
            for seat in position.active()
            if seat in moves
        }
        # P33's rewind generation: the game's rewinds so far, new after every rewind.
        seed = turn_seed(draws.key, position.turn, draws.generation)
        result = resolve(
            play_board(state),
            state.options.placement,
            position,
            orders,
            TurnDraws(stream=SeededRandom(seed)),
        )
        return [TurnRun(position.turn, draws.generation, f"{seed:016x}", orders, result)]

    def time_out(self, state: Play, seat: Seat, draws: Draws) -> list[Event]:
        raise AssertionError("the Art of War's waits are sealed: the room resolves them")

    def leave(self, state: Play, seat: Seat) -> list[Event]:
        return [Resigned(seat)]

    def ending(self, state: Play) -> Ending | None:
        """§6's final standing: winners, treaty signers (drew), players that survived,
        players eliminated; a seat that resigned and survived is `resigned`. When every
        player left has resigned, nobody is left to play: the game ends `abandoned`."""
        players = state.position.players
        ranks: dict[Seat, Result] = {}
        if state.ending is None:
            if _waited(state):
                return None
            by = "abandoned"
        else:
            ending = state.ending
            by = ending.by
            ranks.update(dict.fromkeys(ending.survivors, "survived"))
            ranks.update(dict.fromkeys(ending.signers, "drew"))
            ranks.update(dict.fromkeys(ending.winners, "won"))
        results: dict[Seat, Result] = {}
        for seat in state.seats:
            result: Result = ranks.get(seat, "survived")
            if players[seat].status == "eliminated":
                result = "eliminated"
            elif seat in state.resigned and result == "survived":
                result = "resigned"
            results[seat] = result
        return Ending(by, results)

    def view(self, state: Play, seats: frozenset[Seat]) -> Any:
        """Everything is public between turns (P37): a turn's orders are secret only until it
        runs, and the room keeps them until then. The map comes with it (`board`, drawing
        hints and all), so that a reader can draw the game from its view alone."""
        view: dict[str, Any] = msgspec.to_builtins(state)
        view["board"] = msgspec.to_builtins(map_file_of(play_board(state)))
        # Every stance by its kind, the default `no_mercy` too (the state omits it).
        for name, player in state.position.players.items():
            stance: dict[str, Any] = {"kind": player.stance.kind}
            if player.stance.draw_max is not None:
                stance["draw_max"] = player.stance.draw_max
            view["position"]["players"][name]["stance"] = stance
        return view

    def read_text(self, text: str) -> Move | None:
        """A message, a stance, or orders: a text whose every line has an order's shape
        (anything else is no move, rather than orders that would replace the turn's)."""
        message = message_text(text)
        if message is not None:
            return message
        if STANCE.fullmatch(text):
            return text
        lines = split_lines(text)
        return text if lines and all(shaped(line) for line in lines) else None

    def addressee(self, move: Move) -> str | None:
        return addressee(move)

    def addressed_to(self, move: Move, seat: Seat) -> Move:
        return {**move, "to": seat}

    def picture(self, state: Play, looks: Mapping[Seat, Look]) -> Picture:
        return picture(state, looks)

    def standings(self, state: Play) -> list[Standing]:
        return standings(state, self.ending(state))


def _waited(state: Play) -> list[Seat]:
    """Every player not eliminated must submit (P31), but one that resigned (P34)."""
    return [seat for seat in state.position.active() if seat not in state.resigned]


def _with_stance(state: Play, seat: Seat, stance: Stance) -> Play:
    player = state.position.players[seat]
    players = {**state.position.players, seat: Player(player.status, stance)}
    return replace(state, position=replace(state.position, players=players))


class ArtOfWarVersion1(ArtOfWar):
    """The rules the first games were played by, for their replay and verify: a new
    submission replaced the seat's earlier ones of the turn."""

    version = 1

    def seal(self, earlier: Move | None, move: Move) -> Move:
        return move


ART_OF_WAR_VERSION_1 = ArtOfWarVersion1()
ART_OF_WAR = ArtOfWar()
