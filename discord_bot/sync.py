"""When the bot tells Discord its commands. Syncing the command tree on every start gets a
bot rate-limited (discord.py's own advice, PR #10082), and a sync is only needed when the
commands change: the bot keeps a hash of the commands it last synced in its data directory
and syncs on start only when the tree differs from it, or when told to (`skirmish discord
--sync`, for commands removed or changed by hand in the developer portal)."""

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord import app_commands

log = logging.getLogger("skirmish.discord")

# The file, in the bot's data directory, holding the hash of the commands last synced.
RECORD = "commands.sha256"


def fingerprint(tree: app_commands.CommandTree[Any]) -> str:
    """A hash of the global commands exactly as a sync would send them to Discord, and of
    the application they go to (another bot's token on the same data directory syncs)."""
    declared = [command.to_dict(tree) for command in tree.get_commands()]
    declared.sort(key=lambda command: str(command["name"]))
    sent = {"application": tree.client.application_id, "commands": declared}
    text = json.dumps(sent, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class CommandSync:
    """Where the hash of the commands last synced is kept; `force`: sync whatever it says."""

    record: Path
    force: bool = False

    async def run(self, tree: app_commands.CommandTree[Any]) -> bool:
        """Sync the tree if it is not what was synced last; whether it did."""
        digest = fingerprint(tree)
        if not self.force and self._last() == digest:
            log.info("commands unchanged since the last sync: not syncing")
            return False
        synced = await tree.sync()
        log.info("synced %d commands with Discord", len(synced))
        self._keep(digest)
        return True

    def _last(self) -> str | None:
        try:
            return self.record.read_text().strip()
        except FileNotFoundError:
            return None

    def _keep(self, digest: str) -> None:
        # Written aside and renamed: a torn file would read as another hash, which costs
        # only one more sync, but a rename is as cheap.
        self.record.parent.mkdir(parents=True, exist_ok=True)
        aside = self.record.with_name(f"{self.record.name}.new")
        aside.write_text(f"{digest}\n")
        os.replace(aside, self.record)
