"""Forking a game at the start of one of its turns (docs/rules.md, "Forks")."""

from projections.game import GameState, Player
from rules.kit.prng import commitment
from rules.registry import UnknownGame, game_rules
from schema import errors as codes
from schema.bounds import MAX_NAME
from schema.commands import Actor, ForkGame
from schema.game_events import ForkedPlayer, GameEvent, GameForked
from schema.refusals import Conflict, InvalidCommand, NotAllowed, NotFound
from server.game.decide.acting import existing, require_phase
from server.game.decide.lifecycle import MIN_SECRET_BYTES, check_settings


def check_fork(source: GameState, actor: Actor, turn: int, *, sandbox: bool) -> None:
    """May `actor` fork `source` at the start of `turn`: an admin, or anyone for a sandbox
    of a finished game (a real fork seats the source's players, which is theirs to ask);
    a turn it has played, from its first (a fork's first is its source's turn it began at)
    to a finished game's last or the current one."""
    existing(source)
    require_phase(source, "running", "paused", "finished")
    if source.settings.sandbox and not sandbox:
        raise Conflict(
            codes.REAL_FORK_OF_SANDBOX,
            "a sandbox has no real players to invite: a fork of it is a sandbox too",
        )
    finished = source.phase == "finished"
    if not source.is_admin(actor) and not (finished and sandbox):
        raise NotAllowed(
            codes.ADMIN_ONLY,
            "only an admin may fork a game being played, or make a real fork; anyone may "
            "make a sandbox of a finished game",
        )
    first, last = source.first_turn, source.turn - 1 if finished else source.turn
    if not first <= turn <= last:
        raise NotFound(
            codes.TURN_NOT_FOUND, f"turn {turn} cannot be forked: turns {first} to {last} can"
        )


def fork_name(source_name: str, turn: int) -> str:
    """A fork's default name, "<source's name> (fork, turn n)", within MAX_NAME: the
    source's name gives way, ended by an ellipsis, never what says it is a fork."""
    suffix = f" (fork, turn {turn})"
    room = MAX_NAME - len(suffix)
    if len(source_name) > room:
        source_name = source_name[: room - 1].rstrip() + "…"
    return source_name + suffix


def forked_players(source: GameState, admin: str, *, sandbox: bool) -> tuple[ForkedPlayer, ...]:
    """The source's seats as the fork takes them: in a sandbox its admin holds every one; a
    real fork invites the accounts of each seat still playing (a joint player's two) to
    claim it."""

    def holders(player: Player) -> tuple[str, ...]:
        if sandbox:
            return (admin,)
        return player.accounts if player.status == "active" else ()

    skirmish = source.skirmish
    return tuple(
        ForkedPlayer(
            id=p.id,
            name=p.name,
            accounts=holders(p),
            color=p.color,
            pattern=p.pattern,
            status=p.status,
            vp=skirmish.vp_of(p.id),
            has_joined_forces=p.id in skirmish.joined_forces,
        )
        for p in source.players.values()
    )


def fork_game(state: GameState, command: ForkGame) -> list[GameEvent]:
    if state.phase != "new":
        raise Conflict(codes.GAME_EXISTS, f"game {command.game_id} already exists")
    if len(command.secret) < MIN_SECRET_BYTES:
        raise InvalidCommand(
            codes.SECRET_TOO_SHORT, f"a game's secret is at least {MIN_SECRET_BYTES} random bytes"
        )
    try:
        rules = game_rules(command.game, command.game_version)
    except UnknownGame as error:
        raise InvalidCommand(codes.UNKNOWN_GAME, str(error)) from error
    settings = check_settings(rules, command.settings)
    return [
        GameForked(
            game_id=command.game_id,
            source_game=command.source_game,
            turn=command.turn,
            position=command.position,
            chain_hash=command.chain_hash,
            settings=settings,
            admin=command.actor.account,
            map=command.map,
            board=command.board,
            players=list(command.players),
            effect=command.effect,
            vote=command.vote,
            at=command.now,
            secret=command.secret.hex(),
            commitment=commitment(command.secret),
            invites=not settings.sandbox,
            game=rules.name,
            game_version=rules.version,
            options=command.options,
            play=command.play,
        )
    ]
