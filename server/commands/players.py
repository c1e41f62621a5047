"""The players' commands: each runs the game command its HTTP route would, then words the
outcome. Refusals (Refusal) pass up to the dispatcher."""

from collections.abc import Awaitable, Callable

from projections.game import GameState, Player
from projections.owned import own_events
from projections.skirmish.hints import HINTS
from projections.views import my_orders, public_game
from schema.api import CommandReply, OrdersAccepted
from schema.bounds import MAX_NAME
from schema.commands import (
    Broadcast,
    CastVote,
    ChangeLook,
    ClaimSeat,
    DeclineSeat,
    JoinGame,
    RequestJoinForces,
    Resign,
    SetNotifications,
    SubmitOrders,
)
from schema.game_events import (
    JoinForcesRequested,
    MessageBroadcast,
    OrdersSubmitted,
    PlayerJoined,
    PlayerLeft,
    SeatClaimed,
    SeatDeclined,
    VoteCast,
)
from server.commands import moves, replies, status
from server.commands.context import Context, answer, the
from server.commands.parse import Request
from server.game import words
from server.game.application import done, readable
from server.game.decide.acting import acting_player

Handler = Callable[[Context, Request], Awaitable[CommandReply]]


def armies_of(state: GameState, player_id: str) -> list[str]:
    return sorted(t for t, owner in state.skirmish.board.armies.items() if owner == player_id)


def _me(state: GameState, ctx: Context) -> Player:
    return acting_player(state, ctx.who.actor)


def _text(request: Request) -> str:
    assert request.text is not None, "the parser gives this command its text"
    return request.text


def _number(request: Request) -> int:
    assert request.number is not None, "the parser gives this command its number"
    return request.number


async def submit(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        SubmitOrders(
            actor=ctx.who.actor, now=ctx.now(), text=_text(request), nonce=ctx.found.nonces()
        )
    )
    accepted = OrdersAccepted.of(the(OrdersSubmitted, executed.events), executed.position)
    return answer(replies.submitted(accepted), accepted)


async def list_orders(ctx: Context, request: Request) -> CommandReply:
    state = await ctx.state()
    me = _me(state, ctx)
    mine = my_orders(state, me.id)
    return answer(replies.my_orders(mine, armies_of(state, me.id), me.name), mine)


async def vote(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        CastVote(actor=ctx.who.actor, now=ctx.now(), effect=_text(request))
    )
    event = the(VoteCast, executed.events)
    game = public_game(executed.state, executed.position)
    name = executed.state.players[event.player_id].name
    return answer(replies.voted(name, event.effect, game.vote), done(executed))


async def join_forces(ctx: Context, request: Request) -> CommandReply:
    other = await ctx.find(await ctx.state(), _text(request))
    executed = await ctx.execute(
        RequestJoinForces(actor=ctx.who.actor, now=ctx.now(), with_player=other.id)
    )
    event = the(JoinForcesRequested, executed.events)
    state = executed.state
    me = state.players[event.player_id]
    joint = None
    if state.skirmish.join_requests.get(other.id) == me.id:
        # The joint player is named in the order the two joined the game.
        seats = list(state.players)
        first, second = sorted((me, other), key=lambda p: seats.index(p.id))
        joint = f"{first.name}/{second.name}"
    reply = replies.join_forces(me.name, other.name, joint, event.turn)
    return answer(reply, done(executed))


async def color(ctx: Context, request: Request) -> CommandReply:
    return await _look(ctx, "color", _number(request))


async def pattern(ctx: Context, request: Request) -> CommandReply:
    return await _look(ctx, "pattern", _number(request))


async def _look(ctx: Context, what: str, value: int) -> CommandReply:
    command = (
        ChangeLook(actor=ctx.who.actor, now=ctx.now(), color=value)
        if what == "color"
        else ChangeLook(actor=ctx.who.actor, now=ctx.now(), pattern=value)
    )
    executed = await ctx.execute(command)
    me = _me(executed.state, ctx)
    shown = "colour" if what == "color" else what
    reply = replies.look(me.name, shown, value, bool(executed.events))
    return answer(reply, done(executed))


async def notifications(ctx: Context, request: Request) -> CommandReply:
    assert request.flag is not None
    executed = await ctx.execute(
        SetNotifications(actor=ctx.who.actor, now=ctx.now(), enabled=request.flag)
    )
    me = _me(executed.state, ctx)
    reply = replies.notifications(me.name, request.flag, bool(executed.events))
    return answer(reply, done(executed))


async def refresh_name(ctx: Context, request: Request) -> CommandReply:
    """With a name, that name; without, the account's (for a client's user, the name the
    client gives now, as Discord would give the server nickname)."""
    name = request.text or (ctx.current_name or ctx.who.name)[:MAX_NAME]
    before = _me(await ctx.state(), ctx)
    executed = await ctx.execute(ChangeLook(actor=ctx.who.actor, now=ctx.now(), name=name))
    after = executed.state.players[before.id]
    return answer(replies.renamed(before.name, after.name), done(executed))


async def broadcast(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(
        Broadcast(actor=ctx.who.actor, now=ctx.now(), message=_text(request))
    )
    event = the(MessageBroadcast, executed.events)
    return answer(replies.broadcast(event.message), done(executed))


async def resign(ctx: Context, request: Request) -> CommandReply:
    me = _me(await ctx.state(), ctx)
    executed = await ctx.execute(Resign(actor=ctx.who.actor, now=ctx.now()))
    if any(isinstance(e, SeatDeclined) for e in executed.events):
        return answer(replies.declined(executed.state.settings.name), done(executed))
    left = any(isinstance(e, PlayerLeft) for e in executed.events)
    return answer(replies.resigned(me.name, left), done(executed))


async def claim(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(ClaimSeat(actor=ctx.who.actor, now=ctx.now()))
    event = the(SeatClaimed, executed.events)
    state = executed.state
    reply = replies.claimed(
        state.players[event.player_id].name, event.player_id, state.settings.name
    )
    return answer(reply, done(executed))


async def decline(ctx: Context, request: Request) -> CommandReply:
    executed = await ctx.execute(DeclineSeat(actor=ctx.who.actor, now=ctx.now()))
    return answer(replies.declined(executed.state.settings.name), done(executed))


async def join(ctx: Context, request: Request) -> CommandReply:
    name = request.text or (ctx.current_name or ctx.who.name)[:MAX_NAME]
    executed = await ctx.execute(JoinGame(actor=ctx.who.actor, now=ctx.now(), name=name))
    event = the(PlayerJoined, executed.events)
    state = executed.state
    reply = replies.joined(event.name, event.player_id, state.settings.name, len(state.players))
    return answer(reply, done(executed))


async def help_(ctx: Context, request: Request) -> CommandReply:
    if ctx.game is None:
        return answer(status.without_game())
    loaded = await readable(ctx.found, ctx.game)
    state = loaded.state
    game = public_game(state, loaded.position)
    account = ctx.who.account_id
    # Eliminated players still see their standing.
    me = next((p for p in state.players.values() if account in p.accounts), None)
    if own_events(state.definition) is None:
        seat = None if me is None else me.id
        admin = state.is_admin(ctx.who.actor)
        return answer(moves.summary(game, state.definition, seat, admin), game)
    armies = [] if me is None else armies_of(state, me.id)
    admin = state.is_admin(ctx.who.actor)
    now = ctx.now()
    text = status.summary(
        game,
        state.window(now),
        now,
        me=None if me is None else me.id,
        armies=armies,
        admin=admin,
        invited=state.invitation_of(account),
    )
    return answer(text, game)


async def cheat_sheet(ctx: Context, request: Request) -> CommandReply:
    return answer(words.CHEAT_SHEET)


async def hint(ctx: Context, request: Request) -> CommandReply:
    return answer(ctx.rng.choice(HINTS))


async def loading_screen(ctx: Context, request: Request) -> CommandReply:
    return answer(ctx.rng.choice(words.QUOTES))


HANDLERS: dict[str, Handler] = {
    "submit": submit,
    "list": list_orders,
    "vote": vote,
    "join_forces": join_forces,
    "color": color,
    "pattern": pattern,
    "notifications": notifications,
    "refresh_name": refresh_name,
    "broadcast": broadcast,
    "resign": resign,
    "join": join,
    "claim": claim,
    "decline": decline,
    "help": help_,
    "cheat_sheet": cheat_sheet,
    "hint": hint,
    "call_of_duty_loading_screen": loading_screen,
}
