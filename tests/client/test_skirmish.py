"""Every call of the client against a real server, its answers decoded into schema/api.py's
types."""

from datetime import timedelta

import pytest

from client import ActingUser, Conflict, Forbidden, NotFound, SkirmishClient, Unauthorized
from rules.artofwar.house import ArtOfWarMap
from rules.skirmish.board import GameMap
from rules.skirmish.contract import PlayerEntry
from rules.skirmish.contract import Request as Adjudication
from schema.api import ForkBody, NewGame, PlayerPatch, SettingsPatch
from tests.api.game import NAMES, ORDERS, SEED
from tests.api.support import OPERATOR_TOKEN, PAST_THE_LOCK, Server, until


async def _players(anyone: SkirmishClient) -> list[tuple[str, SkirmishClient]]:
    """An account per name, each with a client of its own on the same connections."""
    created = [await anyone.create_account(name) for name in NAMES]
    return [(c.account_id, anyone.using(c.token)) for c in created]


async def _listed(anyone: SkirmishClient, count: int) -> bool:
    return len((await anyone.list_games()).games) == count


async def _turn_read(anyone: SkirmishClient, game: str, turn: int) -> bool:
    try:
        return (await anyone.turn(game, turn)).resolution is not None
    except NotFound:
        return False


async def test_a_game_from_setup_to_its_end(server: Server, anyone: SkirmishClient) -> None:
    players = await _players(anyone)
    (ann_id, ann), (bob_id, bob), (_, cy), (_, di) = players
    setup = NewGame("Client", fast_mode=True, seed=SEED, votes="every_turn", vote_start_turn=1)
    created = await ann.create_game(setup)
    assert (created.name, created.phase, created.admins) == ("Client", "joining", (ann_id,))
    other = await bob.create_game(NewGame("Another"))

    # The list is read from the read models, which may lag an append by a moment.
    await until(lambda: _listed(anyone, 2), what="both games to be listed")
    first = await anyone.list_games(limit=1)
    assert first.next is not None
    second = await anyone.list_games(after=first.next, limit=1)
    assert {g.id for g in first.games + second.games} == {created.id, other.id}
    assert [g.id for g in (await anyone.list_games(phase="joining")).games] == sorted(
        [created.id, other.id]
    )

    game = created.id
    for seat, (_, player) in enumerate(players, 1):
        joined = await player.join(game)
        assert (joined.events, joined.player) == (["player_joined.v1"], f"p{seat}")
    started = await ann.start(game)
    assert "game_started.v1" in started.events
    assert (await ann.change_settings(game, SettingsPatch(broadcasting=True))).position > 0
    view = await anyone.get_game(game)
    assert (view.phase, view.turn, len(view.players)) == ("running", 1, 4)

    accepted = await ann.submit_orders(game, ORDERS[1][0], turn=1)
    assert [(o.unit, o.kind, o.valid) for o in accepted.orders] == [
        ("EA", "build", True),
        ("GO", "build", True),
    ]
    mine = await ann.my_orders(game)
    assert (mine.player, mine.turn, len(mine.submitted), len(mine.current)) == ("p1", 1, 1, 2)
    await di.submit_orders(game, ORDERS[1][3])
    assert view.vote is not None
    await bob.vote(game, view.vote.candidates[0])
    said = await cy.broadcast(game, "hello")
    assert said.events == ["message_broadcast.v1"]
    look = await cy.change_me(game, PlayerPatch(color=7, notifications=False))
    assert look.position > said.position
    # Not yet: they are not behind the leader, and would control too much together.
    with pytest.raises(Conflict) as refused:
        await bob.join_forces(game, "p3")
    assert "Bob and Cy" in refused.value.message

    await ann.pause(game)
    await ann.unpause(game)
    server.clock.advance(60)
    # An admin resolves early once everyone has sent orders: Bob and Cy say they are ready.
    with pytest.raises(Conflict) as waiting:
        await ann.resolve(game)
    assert waiting.value.code == "orders_missing"
    for ready in (bob, cy):
        await ready.submit_orders(game, ",")
    resolved = await ann.resolve(game)
    assert "turn_resolved.v1" in resolved.events
    server.clock.advance(PAST_THE_LOCK)
    # The turn's history is a read model too.
    await until(lambda: _turn_read(anyone, game, 1), what="turn 1's history")
    turn = await anyone.turn(game, 1)
    assert turn.resolution is not None
    assert turn.resolution.turn == 1

    page = await anyone.events(game, limit=3)
    assert [e.type for e in page.events] == [
        "game_created.v1",
        "player_joined.v1",
        "player_joined.v1",
    ]
    everything = [e async for e in anyone.all_events(game, limit=5)]
    assert everything[:3] == page.events
    assert everything[-1].type == "turn_resolved.v1"
    assert len({e.position for e in everything}) == len(everything)

    rewound = await ann.rewind(game, "to see")
    assert rewound.events == ["turn_rewound.v1"]
    archive = await ann.archive(game)
    assert [t.reason for t in archive.truncations] == ["to see"]

    await ann.ban(game, "p4")
    await ann.unban(game, "p4")
    await ann.add_admin(game, player="p2")
    assert set((await anyone.get_game(game)).admins) == {ann_id, bob_id}
    await bob.remove_admin(game, ann_id)
    assert (await anyone.get_game(game)).admins == (bob_id,)
    await di.resign(game)
    assert (await bob.kill(game)).events == ["game_killed.v1"]


async def test_a_trusted_client_acts_for_its_users(server: Server, anyone: SkirmishClient) -> None:
    operator = anyone.using(OPERATOR_TOKEN)
    bot = await operator.create_client("discord-bot")
    creator = anyone.using(bot.token, ActingUser("u-1", "Zoë"))
    members = [anyone.using(bot.token, ActingUser(f"u-{n}")) for n in (2, 3)]
    moderator = anyone.using(bot.token, ActingUser("u-4", admin=True))
    game = await creator.create_game(NewGame("Through a bot"))
    for player in (creator, *members):
        await player.join(game.id)
    view = await anyone.get_game(game.id)
    assert sorted(p.name for p in view.players) == ["Zoë", "u-2", "u-3"]
    assert len(view.admins) == 1
    # Vouched for as an admin by the client, though not on the game's list.
    assert (await moderator.start(game.id)).events[0] == "game_started.v1"


async def test_webhooks_commands_adjudication_health_and_the_clock(
    server: Server, anyone: SkirmishClient
) -> None:
    ann = anyone.using((await anyone.create_account("Ann")).token)
    game = await ann.create_game(NewGame("Hooks"))
    hook = await ann.set_webhook(game.id, "http://127.0.0.1:9/hook")
    assert (hook.url, hook.trusted, len(hook.secret) > 20) == (
        "http://127.0.0.1:9/hook",
        False,
        True,
    )
    seen = await ann.webhook(game.id)
    assert (seen.url, seen.pending, seen.delivered, seen.failed) == (hook.url, 0, 0, 0)
    await ann.delete_webhook(game.id)
    assert (await ann.webhook(game.id)).url is None

    reply = await ann.command("/help")
    assert reply.ok
    assert reply.reply
    status = await ann.command("/join", game=game.id)
    assert status.ok

    outcome = await anyone.adjudicate(
        Adjudication(
            map="rulebook",
            players={"red": PlayerEntry(), "blue": PlayerEntry(vp=3)},
            armies={"SI": "red", "FI": "red", "RG": "blue", "OG": "blue"},
            orders={"red": ["SI H", "FI S SI"], "blue": ["RG to SI, OG S RG to SI"]},
        )
    )
    assert outcome.armies["SI"] == "red"

    health = await anyone.health()
    assert (health.status, health.database, health.read_models) == ("ok", "ok", "ok")

    before = server.clock.now()
    moved = await anyone.using(OPERATOR_TOKEN).move_clock(advance_seconds=90)
    assert moved.now == before + timedelta(seconds=90)
    later = before + timedelta(hours=2)
    assert (await anyone.using(OPERATOR_TOKEN).move_clock(to=later)).now == later


async def test_who_i_am_my_tokens_the_maps_and_the_map_image(
    server: Server, anyone: SkirmishClient
) -> None:
    created = await anyone.create_account("Ann")
    ann = anyone.using(created.token)
    game = await ann.create_game(NewGame("Mine", fast_mode=True, seed=SEED))
    await ann.join(game.id)
    for name in NAMES[1:3]:
        await anyone.using((await anyone.create_account(name)).token).join(game.id)
    await ann.start(game.id)

    async def listed() -> bool:
        return [g.player for g in (await ann.me()).games] == ["p1"]

    await until(listed, what="the game in /v1/me")
    me = await ann.me(limit=1)
    assert (me.account_id, me.name, me.games[0].id, me.games[0].admin) == (
        created.account_id,
        "Ann",
        game.id,
        True,
    )

    phone = await ann.add_token("phone")
    assert [t.name for t in (await ann.tokens()).tokens] == ["first", "phone"]
    assert (await anyone.using(phone.token).me()).account_id == created.account_id
    await ann.revoke_token(phone.id)
    with pytest.raises(Unauthorized) as refused:
        await anyone.using(phone.token).me()
    assert refused.value.code == "bad_token"
    (only,) = (await ann.tokens()).tokens
    with pytest.raises(Conflict) as last:
        await ann.revoke_token(only.id)
    assert last.value.code == "last_token"

    assert "rulebook" in {m.name for m in (await anyone.maps()).maps}
    rulebook = await anyone.builtin_map("rulebook")
    assert isinstance(rulebook, GameMap)
    assert len(rulebook.territories) > 10
    world = await anyone.builtin_map("world")
    assert isinstance(world, ArtOfWarMap)
    assert (world.game, world.name, len(world.territories)) == ("art-of-war", "world", 42)
    generated = await anyone.generate_map(5, "spacious", seed=3)
    assert generated == await anyone.generate_map(5, "spacious", seed=3)
    assert "FEAST" in {e.name for e in (await anyone.effects()).effects}

    png = await anyone.map_image(game.id)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert (await anyone.map_image(game.id, turn=1)) == png
    with pytest.raises(NotFound) as unreached:
        await anyone.map_image(game.id, turn=9)
    assert unreached.value.code == "turn_not_found"


async def test_a_fork_and_a_real_forks_invitations(anyone: SkirmishClient) -> None:
    players = await _players(anyone)
    (_, ann), (_, bob), (_, cy), (_, di) = players
    game = (await ann.create_game(NewGame("Forked", fast_mode=True, seed=SEED))).id
    for _, player in players:
        await player.join(game)
    await ann.start(game)
    sandbox = await ann.fork(game, ForkBody(turn=1))
    assert (sandbox.phase, sandbox.name, sandbox.claims) == (
        "running",
        "Forked (fork, turn 1)",
        None,
    )
    assert sandbox.forked_from is not None
    assert (sandbox.forked_from.game, sandbox.forked_from.turn) == (game, 1)
    with pytest.raises(Forbidden) as refused:
        await bob.fork(game, ForkBody(turn=1, name="Mine"))
    assert refused.value.code == "admin_only"

    real = (await ann.fork(game, ForkBody(turn=1, sandbox=False, name="Again"))).id

    async def invited() -> bool:
        mine = {g.id: (g.player, g.invited_to) for g in (await bob.me()).games}
        return mine.get(real) == (None, "p2")

    await until(invited, what="Bob's invitation in /v1/me")
    claimed = await bob.claim_seat(real)
    assert (claimed.events, claimed.player) == (["seat_claimed.v1"], "p2")
    with pytest.raises(Conflict) as twice:
        await bob.claim_seat(real)
    assert twice.value.code == "already_claimed"
    assert (await cy.decline_seat(real)).events == ["seat_declined.v1"]
    with pytest.raises(Forbidden) as declined:
        await cy.claim_seat(real)
    assert declined.value.code == "not_invited"
    waiting = await anyone.get_game(real)
    assert waiting.phase == "joining"
    assert waiting.claims == {"p1": "invited", "p2": "claimed", "p3": "vacant", "p4": "invited"}
    assert "fork_started.v1" in (await ann.start(real)).events
    started = await di.get_game(real)
    assert started.phase == "running"
    statuses = {p.id: p.status for p in started.players}
    assert statuses == {"p1": "resigned", "p2": "active", "p3": "resigned", "p4": "resigned"}
