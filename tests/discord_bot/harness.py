"""A fake Discord around the real bot, with no connection to Discord.

dpytest gives the guilds, channels, members, roles and the DM channels (its fake HTTP
client), but no application commands. This adds them: a command is an INTERACTION_CREATE
payload fed to the bot's ConnectionState, as the gateway would deliver it, and the bot's
answers (the interaction's response, follow-ups and edits, which discord.py sends through its
webhook adapter rather than its HTTP client) are captured by a fake adapter (webhook.py).
What the bot sends on its own (the herald's posts with their files, every DM) goes through its HTTP
client's `send_message`, which the harness records instead of dpytest (which writes files to
the working directory); a member may refuse DMs (`closed_dms`), as Discord's 403 does."""

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.ext.test as dpytest
from discord.ext.test import backend, factories
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

from discord_bot import SkirmishBot
from discord_bot.setup_form import NAME, NOW, RESOLVES
from tests.discord_bot.webhook import EPHEMERAL, Answer, FakeAdapter, Json, ids, message_json

MANAGE_GUILD = 32
_discriminators = itertools.count(1)


@dataclass
class Sent:
    """One message the bot sent by itself: in a channel, or by DM to `user`."""

    channel: int
    user: int | None
    content: str
    nonce: str | None
    # The attached files' bytes, by file name.
    files: dict[str, bytes] = field(repr=False)


class FakeDiscord:
    """Guilds with a #skirmish-society channel, their members, and the bot among them."""

    def __init__(self, bot: SkirmishBot) -> None:
        self.bot = bot
        dpytest.configure(bot, guilds=[], text_channels=[], members=[])
        self.sent: list[Sent] = []
        # The ids of the users who take no DMs from the bot.
        self.closed_dms: set[int] = set()
        bot.http.send_message = self._send_message  # type: ignore[method-assign,assignment]
        self.state = bot._connection
        # dpytest's state replaced the bot's, which the command tree had registered with.
        self.state._command_tree = bot.tree
        # The bot asks for no privileged intent; the fake guilds keep their members anyway.
        self.state.member_cache_flags = discord.MemberCacheFlags.all()
        self.state.application_id = next(ids)
        assert self.state.user is not None
        self.me = self.state.user
        self.adapter = FakeAdapter(factories.dict_from_user(self.me))  # type: ignore[arg-type]
        self.guilds: list[discord.Guild] = []

    def guild(self, name: str, id_: int = -1) -> discord.Guild:
        """A guild (with `id_`: the same guild for a bot started anew)."""
        guild = backend.make_guild(name, id_num=id_)
        # With `id_`, its channel too is the same for a bot started anew.
        backend.make_text_channel("skirmish-society", guild, id_num=id_ + 1 if id_ > 0 else -1)
        backend.make_member(self.me, guild)
        self.guilds.append(guild)
        return guild

    def channel(self, guild: discord.Guild) -> discord.TextChannel:
        channel = discord.utils.get(guild.text_channels, name="skirmish-society")
        assert channel is not None
        return channel

    def member(
        self, guild: discord.Guild, name: str, *, nick: str | None = None, role: str | None = None,
        moderator: bool = False, id_: int = -1,
    ) -> discord.Member:  # fmt: skip
        """A member; `moderator`: Manage Server; `role`: a role of that name; `id_`: the
        same person for a bot started anew."""
        roles = []
        if role is not None:
            roles.append(backend.make_role(role, guild, permissions=0))
        if moderator:
            roles.append(backend.make_role("mods", guild, permissions=MANAGE_GUILD))
        person = backend.make_user(name, next(_discriminators), id_num=id_)
        return backend.make_member(person, guild, nick=nick, roles=roles)

    async def run(
        self,
        who: discord.Member | discord.User,
        command: str,
        *,
        dm: bool = False,
        **options: Any,
    ) -> Answer:
        """`who` runs /command with `options` in their guild's channel (a Member), or by DM
        (`dm`, or a User); what the bot answered, once it has finished answering."""
        data: Json = {"id": str(next(ids)), "name": command, "type": 1, "options": []}
        found = self.bot.tree.get_command(command)
        assert isinstance(found, discord.app_commands.Command), command
        types = {parameter.name: parameter.type.value for parameter in found.parameters}
        resolved: Json = {"users": {}, "members": {}}
        for name, value in options.items():
            if isinstance(value, discord.Member):
                resolved["users"][str(value.id)] = factories.dict_from_user(value._user)
                resolved["members"][str(value.id)] = self._member(value)
                value = str(value.id)
            data["options"].append({"name": name, "type": types[name], "value": value})
        data["resolved"] = resolved
        return await self._interact(who, 2, data, dm=dm)

    async def click(self, who: discord.Member, answer: Answer, label: str) -> Answer:
        """`who` presses the button `label` under the bot's answer."""
        posted = next(m for m in answer.messages if label in m.buttons)
        data = {"custom_id": posted.buttons[label], "component_type": 2}
        message = message_json(posted.id, self.channel(who.guild).id, posted.content, EPHEMERAL, {})
        message["author"] = self.adapter.author
        return await self._interact(who, 3, data, message=message)

    async def submit(self, who: discord.Member, answer: Answer, fields: dict[str, str]) -> Answer:
        """`who` submits the form shown in `answer`: `fields` by label; the others as the
        form filled them in (empty if it did not), as Discord sends them."""
        assert answer.modal is not None, "no form was shown"
        fields, rows = dict(fields), []
        for row in answer.modal["components"]:
            inputs = [
                {"type": 4, "custom_id": field["custom_id"],
                 "value": fields.pop(field["label"], field.get("value") or "")}
                for field in row["components"]
            ]  # fmt: skip
            rows.append({"type": 1, "components": inputs})
        assert not fields, f"the form has no field {', '.join(fields)}"
        data = {"custom_id": answer.modal["custom_id"], "components": rows}
        return await self._interact(who, 5, data)

    async def set_up(
        self, who: discord.Member, name: str = "", now: str = "8", resolves: str = "12PM"
    ) -> Answer:
        """`who` sends /setup and answers its questions (discord_bot/setup_form.py): the
        game's name, the hour it is now where they are, the hour turns resolve."""
        shown = await self.run(who, "setup")
        fields = {NAME: name, NOW: now, RESOLVES: resolves}
        return await self.submit(who, shown, fields) if shown.modal else shown

    async def ready(self) -> None:
        """Discord's READY, once the guilds are there: the bot's own start-up."""
        before = asyncio.all_tasks()
        self.bot.dispatch("ready")
        started = [t for t in asyncio.all_tasks() - before if t.get_name().startswith("discord")]
        await asyncio.gather(*started)

    async def close(self) -> None:
        """The bot's own close, as when it is stopped (dpytest's gateway is no socket)."""
        self.bot.ws = None  # type: ignore[assignment]
        await self.bot.close()

    def dms(self, user: discord.abc.User) -> list[str]:
        """What the bot has sent `user` by DM (through its own HTTP client, as in Discord)."""
        return [m.content for m in self.sent if m.user == user.id]

    def posts(self, channel: discord.TextChannel) -> list[Sent]:
        """What the bot has posted in `channel` by itself (not an interaction's answer)."""
        return [m for m in self.sent if m.channel == channel.id]

    async def _send_message(self, channel_id: int, *, params: MultipartParameters) -> Json:
        """discord.py's `HTTPClient.send_message`, for everything the bot sends by itself."""
        channel = self.bot.get_channel(channel_id)
        assert channel is not None, channel_id
        user = channel.recipient if isinstance(channel, discord.DMChannel) else None
        if user is not None and user.id in self.closed_dms:
            refusal = {"code": 50007, "message": "Cannot send messages to this user"}
            raise discord.Forbidden(backend.FakeRequest(403, "Forbidden"), refusal)  # type: ignore[arg-type]
        payload = params.payload
        if payload is None:  # with files, the message's JSON is the multipart body's first part
            assert params.multipart is not None
            payload = json.loads(params.multipart[0]["value"])
        files = {}
        for file in params.files or ():
            file.fp.seek(0)
            files[file.filename] = file.fp.read()
        content, nonce = payload.get("content") or "", payload.get("nonce")
        self.sent.append(Sent(channel_id, None if user is None else user.id, content, nonce, files))
        return message_json(next(ids), channel_id, content, 0, self.adapter.author)

    @staticmethod
    def _member(member: discord.Member) -> Json:
        roles = [str(role.id) for role in member.roles if role != member.guild.default_role]
        return {
            "user": factories.dict_from_user(member._user), "roles": roles, "nick": member.nick,
            "joined_at": None, "flags": 0, "deaf": False, "mute": False,
            "permissions": str(member.guild_permissions.value),
        }  # fmt: skip

    async def _interact(
        self,
        who: discord.Member | discord.User,
        kind: int,
        data: Json,
        *,
        dm: bool = False,
        message: Json | None = None,
    ) -> Answer:
        token = f"token-{next(ids)}"
        payload: Json = {
            "id": str(next(ids)), "application_id": str(self.state.application_id),
            "type": kind, "token": token, "version": 1, "data": data,
            "attachment_size_limit": 8 << 20, "locale": "en-US", "entitlements": [],
        }  # fmt: skip
        if isinstance(who, discord.Member) and not dm:
            channel = self.channel(who.guild)
            payload |= {"guild_id": str(who.guild.id), "member": self._member(who), "context": 0}
            payload["channel"] = {"id": str(channel.id), "type": 0, "guild_id": str(who.guild.id)}
        else:
            channel_id = next(ids)
            user = factories.dict_from_user(who._user if isinstance(who, discord.Member) else who)
            payload |= {"user": user, "context": 1}
            payload["channel"] = {"id": str(channel_id), "type": 1, "recipients": [user]}
        if message is not None:
            payload["message"] = message
        answer = self.adapter.answers[token] = Answer()
        self.adapter.channels[token] = int(payload["channel"]["id"])
        context = async_context.set(self.adapter)
        try:
            before = asyncio.all_tasks()
            self.state.parse_interaction_create(payload)  # type: ignore[arg-type]
            # The tasks the interaction started; not a view's timeout, which waits minutes.
            started = [t for t in asyncio.all_tasks() - before if "timeout" not in t.get_name()]
            await asyncio.gather(*started)
        finally:
            async_context.reset(context)
        return answer
