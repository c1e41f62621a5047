"""Interaction answers in a fake Discord: where discord.py sends an interaction's response,
follow-ups and edits (its webhook adapter, not its HTTP client), recorded per interaction
token (tests/discord_bot/harness.py)."""

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

Json = dict[str, Any]
EPHEMERAL = 64
# Interaction callback types: a message, a deferred message ("thinking"), a message edited
# (a component's), a form shown (a modal), as Discord numbers them.
MESSAGE, DEFERRED, UPDATE, MODAL = 4, 5, 7, 9
ids = itertools.count(9_000_000_000_000_000)


@dataclass
class Posted:
    """One message the bot posted in answer to an interaction."""

    id: int
    content: str
    ephemeral: bool
    # The buttons under it, by label.
    buttons: dict[str, str] = field(default_factory=dict)


@dataclass
class Answer:
    """Everything the bot answered to one interaction, in order."""

    callbacks: list[int] = field(default_factory=list)
    messages: list[Posted] = field(default_factory=list)
    # The deferred response's flag, which its first follow-up takes.
    deferred_ephemeral: bool | None = None
    # The form shown (a MODAL callback's data), which `FakeDiscord.submit` answers.
    modal: Json | None = None

    @property
    def text(self) -> str:
        return "\n".join(message.content for message in self.messages)

    @property
    def ephemeral(self) -> bool:
        return all(message.ephemeral for message in self.messages)


def message_json(id_: int, channel_id: int, content: str, flags: int, author: Json) -> Json:
    return {
        "id": str(id_), "channel_id": str(channel_id), "type": 0, "content": content,
        "author": author, "attachments": [], "embeds": [], "mentions": [], "mention_roles": [],
        "pinned": False, "tts": False, "mention_everyone": False, "flags": flags,
        "timestamp": "2030-03-04T08:00:00+00:00", "edited_timestamp": None, "components": [],
    }  # fmt: skip


def buttons(payload: Json) -> dict[str, str]:
    rows = payload.get("components") or []
    return {b["label"]: b["custom_id"] for row in rows for b in row.get("components", [])}


class FakeAdapter(AsyncWebhookAdapter):
    """Where discord.py sends interaction responses and follow-ups: recorded per token."""

    def __init__(self, author: Json) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.author = author
        self.answers: dict[str, Answer] = {}
        self.channels: dict[str, int] = {}

    async def request(
        self,
        route: Route,
        session: Any,
        *,
        payload: Json | None = None,
        multipart: list[Json] | None = None,
        **rest: Any,
    ) -> Any:
        if multipart:
            payload = json.loads(multipart[0]["value"])
        assert payload is not None or route.method == "GET", route.path
        token = str(route.webhook_token)
        answer, channel = self.answers[token], self.channels[token]
        if route.path.endswith("/callback"):
            return self._callback(answer, channel, payload or {})
        data = payload or {}
        flags = int(data.get("flags") or 0)
        if route.method == "POST":  # a follow-up; the first after a deferral takes its flag
            ephemeral = bool(flags & EPHEMERAL)
            if answer.deferred_ephemeral is not None:
                ephemeral, answer.deferred_ephemeral = answer.deferred_ephemeral, None
            return self._post(answer, channel, data, ephemeral)
        if route.method == "PATCH":  # the original response edited
            original = answer.messages[0]
            original.content = data.get("content", original.content)
            original.buttons = buttons(data)
            return message_json(original.id, channel, original.content, flags, self.author)
        raise NotImplementedError(f"{route.method} {route.path}")

    def _post(self, answer: Answer, channel: int, data: Json, ephemeral: bool) -> Json:
        posted = Posted(next(ids), data.get("content") or "", ephemeral, buttons(data))
        answer.messages.append(posted)
        flags = EPHEMERAL if ephemeral else 0
        return message_json(posted.id, channel, posted.content, flags, self.author)

    def _callback(self, answer: Answer, channel: int, payload: Json) -> Json:
        kind, data = payload["type"], payload.get("data") or {}
        answer.callbacks.append(kind)
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message_id = None
        if kind == MESSAGE:
            message_id = self._post(answer, channel, data, ephemeral)["id"]
        elif kind == DEFERRED:
            answer.deferred_ephemeral = ephemeral
        elif kind == UPDATE:
            answer.messages.append(Posted(next(ids), data.get("content") or "", ephemeral))
        elif kind == MODAL:
            answer.modal = data
        interaction = {
            "id": str(next(ids)), "type": kind, "response_message_id": message_id,
            "response_message_loading": kind == DEFERRED,
            "response_message_ephemeral": ephemeral,
        }  # fmt: skip
        return {"interaction": interaction}
