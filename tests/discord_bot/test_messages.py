"""Discord's limits: 2,000 characters a message, and an answer within 3 seconds."""

from typing import Any

import pytest

from client import SkirmishClient
from discord_bot.messages import LIMIT, reply_parts, split
from schema.api import CommandReply
from tests.discord_bot.harness import FakeDiscord
from tests.discord_bot.webhook import DEFERRED


def test_a_long_reply_is_split_between_lines() -> None:
    lines = [f"{n}. Player {n}: {n % 7} VP, {n % 11} terr., {n % 5} armies" for n in range(200)]
    text = "\n".join(lines)
    messages = split(text)
    assert len(messages) > 1
    assert all(len(m) <= LIMIT for m in messages)
    assert "\n".join(messages) == text


def test_a_line_longer_than_a_message_is_cut() -> None:
    messages = split("short\n" + "x" * (LIMIT + 10) + "\nend")
    assert messages == ["short", "x" * LIMIT, "x" * 10 + "\nend"]
    assert reply_parts("") == ["(no reply)"]


async def test_a_long_reply_arrives_in_several_messages(
    discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def long_reply(self: SkirmishClient, text: str, **_: Any) -> CommandReply:
        return CommandReply("\n".join(f"line {n} " + "." * 40 for n in range(100)), ok=True)

    monkeypatch.setattr(SkirmishClient, "command", long_reply)
    guild = discord.guild("G")
    answer = await discord.run(discord.member(guild, "ann"), "hint")
    assert len(answer.messages) == 3
    assert all(len(m.content) <= LIMIT for m in answer.messages)


async def test_the_bot_defers_before_calling_the_server(
    discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the server may take longer than Discord's 3 s to answer is acknowledged first."""
    acknowledged: list[list[int]] = []
    command = SkirmishClient.command

    async def watched(self: SkirmishClient, text: str, **options: Any) -> CommandReply:
        acknowledged.extend(a.callbacks for a in discord.adapter.answers.values())
        return await command(self, text, **options)

    monkeypatch.setattr(SkirmishClient, "command", watched)
    guild = discord.guild("G")
    ann = discord.member(guild, "ann", moderator=True)
    for name in ("advanced_setup", "join", "help", "cheat_sheet"):
        answer = await discord.run(ann, name)
        assert answer.callbacks == [DEFERRED]
        assert answer.messages
    assert acknowledged
    assert all(callbacks == [DEFERRED] for callbacks in acknowledged)
