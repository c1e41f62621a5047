"""Two `skirmish serve` processes on one database, as behind a load balancer: what is sent
to one reaches the websockets of the other, through LISTEN/NOTIFY."""

import contextlib

from tests.api.support import OPERATOR_TOKEN, Live, delivered, two_serve_processes


async def test_an_order_sent_to_one_process_reaches_a_socket_on_the_other(
    schema_url: str,
) -> None:
    async with (
        two_serve_processes(schema_url) as ((one, api_one), (two, api_two)),
        contextlib.AsyncExitStack() as stack,
    ):
        ann, bob, cy = [await api_one.account(name) for name in ("Ann", "Bob", "Cy")]
        game = await api_one.new_game(ann, seed=7)
        game_id = game.id
        for account in (ann, bob, cy):
            await api_one.join(game_id, account)
        await api_one.start(game_id, ann)
        # Tokens and games made through one process work through the other.
        state = await api_two.game(game_id, bob)
        bobs_armies = sorted(t for t, p in state.board.armies.items() if p == "p2")

        spectator_two = await stack.enter_async_context(Live.open(two, game_id))
        bob_two = await stack.enter_async_context(Live.open(two, game_id, token=bob.token))
        spectator_one = await stack.enter_async_context(Live.open(one, game_id))
        for live in (spectator_two, bob_two, spectator_one):
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))

        # An order through process one reaches Bob's socket on process two; a broadcast
        # reaches the spectator there too.
        order = await api_one.orders(game_id, bob, f"{bobs_armies[0]} H")
        said = await api_one.call(
            "POST", f"/v1/games/{game_id}/broadcast", cy, {"message": "hello from one"}
        )
        await bob_two.wait_for_position(said["position"])
        await spectator_two.wait_for_position(said["position"])
        mine = [e for e in bob_two.events if e["type"] == "orders_submitted.v1"]
        assert [(e["position"], e["data"]["text"]) for e in mine] == [
            (order.position, f"{bobs_armies[0]} H")
        ]
        assert not [e for e in spectator_two.events if e["type"] == "orders_submitted.v1"]
        assert spectator_two.events[-1]["data"]["message"] == "hello from one"

        # And the other way round: a resolution through process two reaches process one.
        await api_two.admin(game_id, OPERATOR_TOKEN, "resolve")
        await spectator_one.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))

        # A spectator of process one that moves to process two resumes where it was.
        await spectator_one.connection.close()
        await spectator_one.stop_reading()
        resume = spectator_one.messages[-1]["position"]
        moved = await stack.enter_async_context(Live.open(two, game_id, after=resume))
        last = await api_one.call(
            "POST", f"/v1/games/{game_id}/broadcast", ann, {"message": "the last word"}
        )
        await moved.wait_for_position(last["position"])
        await spectator_two.wait_for_position(last["position"])
        assert delivered(spectator_one.messages) + delivered(moved.messages) == delivered(
            spectator_two.messages
        )
