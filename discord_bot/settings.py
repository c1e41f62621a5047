"""The bot's settings, from the environment (docs/discord.md)."""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from discord_bot.herald_state import data_directory

NAMES = ("DISCORD_TOKEN", "SKIRMISH_API_URL", "SKIRMISH_CLIENT_TOKEN")


class SettingsError(Exception):
    """A setting is missing or unusable."""


@dataclass(frozen=True)
class Settings:
    # The bot's token, from Discord's developer portal.
    discord_token: str
    # Where the game server answers, e.g. http://server:8000.
    api_url: str
    # A trusted client's token (`POST /v1/clients`, by the operator): the bot acts for its
    # members through it.
    client_token: str
    # Where the heralds keep how far they have posted each game (SKIRMISH_BOT_DATA).
    data: Path

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> "Settings":
        missing = [name for name in NAMES if not environ.get(name, "").strip()]
        if missing:
            raise SettingsError(f"{', '.join(missing)} must be set (docs/discord.md)")
        url = environ["SKIRMISH_API_URL"].strip()
        if not url.startswith(("http://", "https://")):
            raise SettingsError(f"SKIRMISH_API_URL must be an http(s) URL, not {url!r}")
        token = environ["SKIRMISH_CLIENT_TOKEN"].strip()
        return cls(environ["DISCORD_TOKEN"].strip(), url, token, data_directory(environ))
