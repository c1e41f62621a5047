"""The herald against a real server: a whole game played by Discord users, what it posts in
the game's channel and what it sends each player, and a restart in the middle."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from discord_bot.herald_posts import Outgoing
from discord_bot.herald_state import Records
from discord_bot.messages import LIMIT
from tests.api.game import NAMES, ORDERS
from tests.api.support import Server, serving, until
from tests.discord_bot.herald_game import CHANNEL, DiscordGame, RecordingSink, png_size

SECRET_WORDS = "the owl flies at midnight"


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    async with serving(schema_url) as running_server:
        yield running_server


STARTED = (
    "**Friday game** has started! Turn 1 is open for orders (they close 1 minute before the "
    "resolution). Next resolution: 2030-03-04 08:15 UTC (08:15 local time, in 15m)."
)


def _first_lines(messages: list[Outgoing]) -> list[str]:
    return [m.text.split("\n")[0] for m in messages]


def _notice(text: str) -> str:
    """A notice's gist: 'turn 2 resolved.', 'turn 3 resolves at ...'."""
    first = text.split("\n")[0]
    assert first.startswith("Friday game: ")
    return first.removeprefix("Friday game: ").split(". ")[0].split(" You have")[0]


async def _play_turns_one_to_two(game: DiscordGame, sink: RecordingSink) -> None:
    """Turn 1 (Bob wants no notifications), resolved, rewound (once its post is out: a
    resolution rewound before the herald gets to it is no longer in the game's history) and
    resolved again; turn 2 with an anonymous broadcast, and a pause on the way."""
    await game.notifications("Bob", on=False)
    await game.submit(1)
    await game.play_out(1)
    await until(lambda: len(sink.posts) == 2, what="turn 1's post")
    await until(lambda: all(len(sink.direct(n)) == 2 for n in ("Ann", "Cy", "Di")))
    await game.as_("Ann").rewind(game.game_id, "testing")
    await game.play_out(1)
    await game.as_("Cy").broadcast(game.game_id, f"{SECRET_WORDS} @everyone")
    await game.as_("Ann").pause(game.game_id)
    await game.as_("Ann").unpause(game.game_id)
    await game.submit(2)
    await game.play_out(2)


async def _play_turns_three_to_four(game: DiscordGame) -> None:
    """Turn 3: everyone votes MOBILIZE; turn 4: Ann reaches the target and wins."""
    await game.vote_all()
    await game.submit(3)
    await game.play_out(3)
    await game.submit(4)
    await game.play_out(4)


def _finished(sink: RecordingSink) -> bool:
    return any("wins the game!" in m.text for m in sink.posts)


async def test_a_whole_game_is_posted_in_the_channel_and_each_player_gets_their_own_notices(
    server: Server, tmp_path: Path
) -> None:
    game = DiscordGame(server)
    await game.create()
    sink = RecordingSink()
    async with game.herald(tmp_path, sink) as herald:
        await game.join_and_start()
        game.enlist(herald)
        await _play_turns_one_to_two(game, sink)
        await _play_turns_three_to_four(game)
        await until(lambda: _finished(sink), what="the winner's post")
        # Every reminder and result of the last turn has been sent too.
        await until(
            lambda: any("turn 4 resolved" in m.text for m in sink.direct("Di")),
            what="the last results",
        )

    posts = sink.posts
    assert {m.channel for m in sink.sent} == {CHANNEL}
    assert _first_lines(posts) == [
        STARTED,
        "Turn 1 has resolved.",
        "The last resolution is undone: the game is back at turn 1. Ann rewound it: testing. "
        "That turn's orders stand as submitted orders and can be replaced; its votes must be "
        "cast again. Turn 1 is open "
        "for orders (they close 1 minute before the resolution). Next resolution: 2030-03-04 "
        "08:32 UTC (08:32 local time, in 15m).",
        "Turn 1 has resolved.",
        "Anonymous broadcast:",
        "The game is paused: no turn resolves until an admin sends /unpause. Orders and votes "
        "are still taken.",
        "The game resumes. Turn 2 is open for orders (they close 1 minute before the "
        "resolution). Next resolution: 2030-03-04 08:49 UTC (08:49 local time, in 15m).",
        "Turn 2 has resolved.",
        "Turn 3 has resolved.",
        "Turn 4 has resolved. Effect: MOBILIZE.",
    ]
    started, first, rewound, again, broadcast, _, _, second, third, fourth = posts
    # The map with every start, resolution and rewind, as a PNG that decodes.
    for post in (started, first, rewound, again, second, third, fourth):
        width, height = png_size(post.image)
        assert max(width, height) <= 1024
    assert broadcast.image is None
    # The broadcast says nothing of who sent it, and pings nobody.
    assert broadcast.text == f"Anonymous broadcast:\n{SECRET_WORDS} @\u200beveryone"
    # Results, standings, the vote and its outcome, the winner.
    assert "Di: \u2713 GI to PR; \u2713 VE to BT" in first.text
    assert "Standings:\n1. " in first.text
    for name in NAMES:
        assert f". {name}: " in fourth.text
    assert "New vote: " in second.text
    assert "Vote: MOBILIZE won (MOBILIZE 4" in third.text
    assert fourth.text.split("Standings:")[0].rstrip().endswith("Ann wins the game!")
    assert all(len(m.text) <= LIMIT for m in sink.sent)

    # Each player their own notices, nobody else's: Bob asked for none.
    assert sink.direct("Bob") == []
    for name in ("Ann", "Cy", "Di"):
        assert [_notice(m.text) for m in sink.direct(name)] == [
            "turn 1 resolves at 08:15 local time (08:15 UTC)",
            "turn 1 resolved.",
            # Rewound and resolved again; the turn's reminder went out already.
            "turn 1 resolved.",
            "turn 2 resolves at 08:49 local time (08:49 UTC)",
            "turn 2 resolved.",
            "turn 3 resolves at 09:04 local time (09:04 UTC)",
            "turn 3 resolved.",
            "turn 4 resolves at 09:19 local time (09:19 UTC)",
            "turn 4 resolved.",
        ]
        assert all(m.image is None for m in sink.direct(name))
    index = {name: i for i, name in enumerate(NAMES)}
    for name in ("Ann", "Cy", "Di"):
        others = [o for t in ORDERS.values() for i, o in t.items() if i != index[name]]
        for message in sink.direct(name):
            texts = [order.strip() for line in others for order in line.split(",")]
            assert not [t for t in texts if t in message.text], (name, message.text)
    assert "GI to PR" in sink.direct("Di")[1].text
    assert sink.direct("Di")[0].text.startswith("Friday game: turn 1 resolves at 08:15")


async def test_a_herald_restarted_from_its_records_posts_nothing_twice_and_misses_nothing(
    server: Server, tmp_path: Path
) -> None:
    game = DiscordGame(server)
    await game.create()
    sink = RecordingSink()
    async with game.heralds(tmp_path, sink) as heralds:
        heralds.follow(game.game_id, CHANNEL)
        await game.join_and_start()
        game.enlist(heralds)
        await game.notifications("Bob", on=False)
        await game.submit(1)
        await game.play_out(1)
        await until(lambda: len(sink.posts) == 2, what="turn 1's post")
        await until(lambda: all(len(sink.direct(n)) == 2 for n in ("Ann", "Cy", "Di")))
    stopped_at = len(sink.sent)

    # While the herald is away: a rewind, turn 1 again, a broadcast, turn 2.
    await game.as_("Ann").rewind(game.game_id, "testing")
    await game.play_out(1)
    await game.as_("Cy").broadcast(game.game_id, SECRET_WORDS)
    await game.submit(2)
    await game.play_out(2)
    assert len(sink.sent) == stopped_at

    # The bot again: from what it kept, it goes on to the end of the game.
    async with game.heralds(tmp_path, sink):
        await _play_turns_three_to_four(game)
        await until(lambda: _finished(sink), what="the winner's post")
        await until(lambda: all(len(sink.direct(n)) == 9 for n in ("Ann", "Cy", "Di")))

    assert _first_lines(sink.posts) == [
        STARTED,
        "Turn 1 has resolved.",
        "The last resolution is undone: the game is back at turn 1. Ann rewound it: testing. "
        "That turn's orders stand as submitted orders and can be replaced; its votes must be "
        "cast again. Turn 1 is open "
        "for orders (they close 1 minute before the resolution). Next resolution: 2030-03-04 "
        "08:32 UTC (08:32 local time, in 15m).",
        "Turn 1 has resolved.",
        "Anonymous broadcast:",
        "Turn 2 has resolved.",
        "Turn 3 has resolved.",
        "Turn 4 has resolved. Effect: MOBILIZE.",
    ]
    for name in ("Ann", "Cy", "Di"):
        assert [_notice(m.text) for m in sink.direct(name)] == [
            "turn 1 resolves at 08:15 local time (08:15 UTC)",
            "turn 1 resolved.",
            "turn 1 resolved.",
            "turn 2 resolves at 08:47 local time (08:47 UTC)",
            "turn 2 resolved.",
            "turn 3 resolves at 09:02 local time (09:02 UTC)",
            "turn 3 resolved.",
            "turn 4 resolves at 09:17 local time (09:17 UTC)",
            "turn 4 resolved.",
        ]
    assert sink.direct("Bob") == []
    assert len({m.nonce for m in sink.sent}) == len(sink.sent)


class FailingOnce(RecordingSink):
    """Sends, then fails once as if the herald had died before it could note the message:
    a passing failure, after which the herald sends it again."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self._fail_at = fail_at

    async def send(self, message: Outgoing) -> None:
        await super().send(message)
        if len(self.sent) == self._fail_at:
            raise ConnectionResetError("lost on the way back")


async def test_a_message_sent_again_after_a_failure_carries_the_same_nonce(
    server: Server, tmp_path: Path
) -> None:
    """At least once, and a second time only with the nonce of the first, which Discord
    recognises (`enforce_nonce`): effectively once."""
    game = DiscordGame(server)
    await game.create()
    sink = FailingOnce(fail_at=1)
    async with game.herald(tmp_path, sink):
        await game.join_and_start()
        await game.submit(1)
        await game.play_out(1)
        await until(lambda: len(sink.posts) == 3, what="turn 1's post, sent again")
    first, again, resolved = sink.posts
    assert first.text.startswith("**Friday game** has started!")
    assert (again.nonce, again.text) == (first.nonce, first.text)
    assert again.image is not None
    assert again.image == first.image
    assert resolved.text.startswith("Turn 1 has resolved.")


async def test_a_killed_game_gets_its_farewell_and_is_followed_no_more(
    server: Server, tmp_path: Path
) -> None:
    game = DiscordGame(server)
    await game.create()
    sink = RecordingSink()
    records = Records(tmp_path)
    async with game.heralds(tmp_path, sink) as heralds:
        heralds.follow(game.game_id, CHANNEL)
        await game.join_and_start()
        await until(lambda: len(sink.posts) == 1, what="the start's post")
        await game.as_("Ann").kill(game.game_id)

        def stopped() -> bool:
            record = records.load(game.game_id)
            return record is not None and record.done

        await until(stopped, what="the herald to let the game go")
    assert _first_lines(sink.posts) == [
        STARTED,
        "Friday game is gone: the room was killed. Use /setup for a new game.",
    ]
    assert records.load_all() == []
