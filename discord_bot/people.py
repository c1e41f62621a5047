"""Who the bot acts for: a Discord member or user as the trusted client's user
(docs/api.md, "Identity"), with their server nickname and whether they are an admin."""

import discord

from client import ActingUser

# The rulebook's role: whoever holds it may run the game without being a server moderator.
ADMIN_ROLE = "skirmish society admin"
# X-Acting-User-Name: one line of printable text, at most 32 characters.
MAX_NAME = 32


def is_admin(member: discord.Member) -> bool:
    """A server moderator (Manage Server), or a holder of the "skirmish society admin" role
    (its name in any case: Discord shows role names as typed)."""
    if member.guild_permissions.manage_guild:
        return True
    return any(role.name.strip().lower() == ADMIN_ROLE for role in member.roles)


def shown_name(user: discord.Member | discord.User) -> str | None:
    """The name to play under: the server nickname in a guild (a member's display name),
    the user's own display name in a DM; None if nothing printable is left of it."""
    name = "".join(c for c in user.display_name if c.isprintable()).strip()[:MAX_NAME].strip()
    return name or None


def acting_user(user: discord.Member | discord.User) -> ActingUser:
    """The member acting in a guild (an admin there if Discord says so), or a user in a DM,
    where the bot sees no roles: never an admin there."""
    admin = isinstance(user, discord.Member) and is_admin(user)
    return ActingUser(str(user.id), shown_name(user), admin)


def guild_account(guild: discord.Guild) -> ActingUser:
    """The guild's own account at the server: it sets up the guild's game and is its listed
    admin, so that the server, asked who it is (`GET /v1/me`), says which game is the guild's.
    Its id cannot be a Discord user's, whose ids are numbers."""
    name = "".join(c for c in guild.name if c.isprintable()).strip()[:MAX_NAME].strip()
    return ActingUser(f"guild:{guild.id}", name or None, admin=True)
