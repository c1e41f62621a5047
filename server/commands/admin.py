"""The admins' commands, and setting up a game. The decider checks who may; the ones that
name a player check first, so that a non-admin learns that, not whether the name exists."""

from datetime import datetime

from projections.game import GameState, Player
from projections.schedule import Window
from projections.views import public_game
from schema import errors as codes
from schema.api import CommandReply, ForkBody, NewGame
from schema.commands import (
    AddAdmin,
    BanPlayer,
    ChangeSettings,
    KillGame,
    PauseGame,
    RemoveAdmin,
    ResolveTurn,
    RewindTurn,
    StartGame,
    UnbanPlayer,
    UnpauseGame,
)
from schema.game_events import PlayerLeft, TurnResolved, TurnRewound
from schema.refusals import Conflict, InvalidCommand, NotFound
from schema.views import PublicGame
from server.commands import announcements
from server.commands.context import Context, answer, the
from server.commands.lookup import mentioned_user
from server.commands.parse import DEFAULT_GAME_NAME, Request
from server.commands.players import Handler
from server.game.application import done, fork, set_up
from server.game.decide.acting import require_admin
from server.game.decide.names import find_player
from server.game.outcome import Outcome


def _told(ctx: Context, executed: Outcome[GameState]) -> tuple[PublicGame, Window, datetime]:
    """The game a command left, its window now, and now: what an announcement tells."""
    now = ctx.now()
    return public_game(executed.state, executed.position), executed.state.window(now), now


async def setup(ctx: Context, request: Request) -> CommandReply:
    body = request.setup or NewGame(name=request.text or DEFAULT_GAME_NAME)
    executed = await set_up(ctx.found, ctx.who, body, ctx.address)
    game = public_game(executed.state, executed.position)
    return answer(announcements.created(game), game)


async def start(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        StartGame(actor=ctx.who.actor, now=ctx.now(), secret=ctx.found.entropy())
    )
    game, window, now = _told(ctx, executed)
    return answer(announcements.started(game, window, now), done(executed))


async def pause(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(PauseGame(actor=ctx.who.actor, now=ctx.now()))
    return answer(announcements.paused(), done(executed))


async def unpause(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(UnpauseGame(actor=ctx.who.actor, now=ctx.now()))
    game, window, now = _told(ctx, executed)
    return answer(announcements.unpaused(game, window, now), done(executed))


async def broadcasting(ctx: Context, request: Request) -> CommandReply:
    assert request.flag is not None
    executed = await ctx.execute(
        ChangeSettings(actor=ctx.who.actor, now=ctx.now(), broadcasting=request.flag)
    )
    reply = announcements.broadcasting(request.flag, bool(executed.events))
    return answer(reply, done(executed))


async def fast_mode(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        ChangeSettings(actor=ctx.who.actor, now=ctx.now(), fast_mode=request.flag)
    )
    game, window, now = _told(ctx, executed)
    reply = announcements.fast_mode(game, window, now, bool(executed.events))
    return answer(reply, done(executed))


async def resolution_time(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        ChangeSettings(actor=ctx.who.actor, now=ctx.now(), resolution_hour=request.number)
    )
    game, window, now = _told(ctx, executed)
    reply = announcements.resolution_time(game, window, now, bool(executed.events))
    return answer(reply, done(executed))


async def local_time(ctx: Context, request: Request) -> CommandReply:
    assert request.number is not None
    executed = await ctx.execute(
        ChangeSettings(actor=ctx.who.actor, now=ctx.now(), current_hour=request.number)
    )
    game = public_game(executed.state, executed.position)
    return answer(announcements.local_time(game, request.number), done(executed))


async def _admin_state(ctx: Context) -> GameState:
    state = await ctx.state()
    require_admin(state, ctx.who.actor)
    return state


async def ban(ctx: Context, request: Request) -> CommandReply:
    assert request.text is not None
    player = await ctx.find(await _admin_state(ctx), request.text)
    executed = await ctx.execute(BanPlayer(actor=ctx.who.actor, now=ctx.now(), player_id=player.id))
    join_phase = any(isinstance(e, PlayerLeft) for e in executed.events)
    return answer(announcements.banned(player.name, join_phase), done(executed))


async def unban(ctx: Context, request: Request) -> CommandReply:
    assert request.text is not None
    state = await _admin_state(ctx)
    target, name = await _unban_target(ctx, state, request.text)
    executed = await ctx.execute(UnbanPlayer(actor=ctx.who.actor, now=ctx.now(), player_id=target))
    return answer(announcements.unbanned(name), done(executed))


async def _unban_target(ctx: Context, state: GameState, reference: str) -> tuple[str, str]:
    """A player by name or id; or, for one a ban removed in the join phase (no longer a
    player), its account by account name or id."""
    try:
        player = await ctx.find(state, reference)
    except (InvalidCommand, NotFound):
        pass
    else:
        return player.id, player.name
    removed = [
        a
        for a in sorted(state.banned_accounts)
        if all(a not in p.accounts for p in state.players.values())
    ]
    user = mentioned_user(reference)
    if user is not None:
        account = await ctx.account_of(user)
        if account in removed:
            return account, (await ctx.found.accounts.name_of(account)) or account
        raise Conflict(codes.NOT_BANNED, "the player you mentioned is not banned from this game")
    candidates = [
        Player(account, (await ctx.found.accounts.name_of(account)) or account, (account,), 0, 0)
        for account in removed
    ]
    found = find_player([*state.players.values(), *candidates], reference)
    return found.id, found.name


async def _accounts_named(
    ctx: Context, state: GameState, reference: str
) -> tuple[tuple[str, ...], str]:
    """The accounts a reference names, and a name to say: a Discord mention names its user
    (who need not play), anything else a player (both accounts of a joint one)."""
    user = mentioned_user(reference)
    if user is not None:
        account = await ctx.account_of(user)
        if account is None:
            raise NotFound(
                codes.ACCOUNT_NOT_FOUND, "the member you mentioned has not used this game's bot yet"
            )
        return (account,), (await ctx.found.accounts.name_of(account)) or account
    player = find_player(state.players.values(), reference)
    return player.accounts, player.name


async def add_admin(ctx: Context, request: Request) -> CommandReply:
    assert request.text is not None
    accounts, name = await _accounts_named(ctx, await _admin_state(ctx), request.text)
    executed = await ctx.execute(AddAdmin(actor=ctx.who.actor, now=ctx.now(), accounts=accounts))
    return answer(announcements.admin_added(name), done(executed))


async def remove_admin(ctx: Context, request: Request) -> CommandReply:
    assert request.text is not None
    accounts, name = await _accounts_named(ctx, await _admin_state(ctx), request.text)
    executed = await ctx.execute(RemoveAdmin(actor=ctx.who.actor, now=ctx.now(), accounts=accounts))
    return answer(announcements.admin_removed(name), done(executed))


async def kill_room(ctx: Context, request: Request) -> CommandReply:
    state = await ctx.state()
    executed = await ctx.execute(KillGame(actor=ctx.who.actor, now=ctx.now()))
    return answer(announcements.killed(state.settings.name), done(executed))


async def rewind(ctx: Context, request: Request) -> CommandReply:
    rewind = RewindTurn(
        actor=ctx.who.actor, now=ctx.now(), reason=request.text, secret=ctx.found.entropy()
    )
    executed = await ctx.found.games.rewind(ctx.game_id, rewind)
    rewound = the(TurnRewound, executed.events)
    game, window, now = _told(ctx, executed)
    told = announcements.rewound(game, window, now, ctx.who.name, rewound.reason)
    return answer(told, done(executed))


async def resolve(ctx: Context, request: Request) -> CommandReply:
    before = await ctx.state()
    executed = await ctx.execute(ResolveTurn(actor=ctx.who.actor, now=ctx.now()))
    event = the(TurnResolved, executed.events)
    names = {pid: p.name for pid, p in before.players.items()}
    names.update({pid: p.name for pid, p in executed.state.players.items()})
    game, window, now = _told(ctx, executed)
    reply = announcements.resolved(event, names, game, window, now)
    return answer(reply, done(executed))


async def fork_here(ctx: Context, request: Request) -> CommandReply:
    assert request.number is not None  # parsed as a number
    body = ForkBody(turn=request.number)
    executed = await fork(ctx.found, ctx.who, ctx.game_id, body, ctx.address)
    game = public_game(executed.state, executed.position)
    return answer(announcements.forked(game), game)


HANDLERS: dict[str, Handler] = {
    "setup": setup,
    "advanced_setup": setup,
    "start": start,
    "pause": pause,
    "unpause": unpause,
    "broadcasting": broadcasting,
    "fast_mode": fast_mode,
    "resolution_time": resolution_time,
    "local_time": local_time,
    "ban": ban,
    "unban": unban,
    "add_admin": add_admin,
    "remove_admin": remove_admin,
    "kill_room": kill_room,
    "rewind": rewind,
    "resolve": resolve,
    "fork": fork_here,
}
