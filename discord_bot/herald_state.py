"""Where the herald stands in each game, kept on disk so that a restart goes on exactly
where it stopped (docs/discord.md, "The herald"): one small JSON file a game in the data
directory, replaced atomically (written aside, flushed to disk, renamed over the old one).

A stream's `Cursor` is the position it has handled every message up to (`after`, what the
next subscription starts after), and the keys of the messages already sent for positions
beyond it: a message whose key is there is not sent again."""

import contextlib
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path

import msgspec
import platformdirs

_log = logging.getLogger(__name__)
# Where the bot keeps what it must not forget (the herald's positions).
DATA_VARIABLE = "SKIRMISH_BOT_DATA"
_FILE = re.compile(r"^herald-(?P<game>[A-Za-z0-9_-]{1,64})\.json$")


def data_directory(environ: Mapping[str, str]) -> Path:
    """SKIRMISH_BOT_DATA, or the user's data directory for the bot."""
    given = environ.get(DATA_VARIABLE, "").strip()
    return Path(given) if given else Path(platformdirs.user_data_dir("skirmish-bot"))


class Cursor(msgspec.Struct):
    after: int = 0
    # Keys of the messages sent for positions past `after` ("<position>:..."), oldest first.
    sent: list[str] = msgspec.field(default_factory=list)

    def note(self, key: str) -> None:
        self.sent.append(key)

    def advance(self, after: int) -> None:
        """Every message up to `after` is handled: the keys at or before it are no longer
        needed (positions only grow)."""
        self.after = max(self.after, after)
        self.sent = [key for key in self.sent if int(key.split(":", 1)[0]) > self.after]


class Member(msgspec.Struct):
    """A Discord user who plays a seat of the game: their results and reminders are read
    as them, on a subscription of their own, and sent to them."""

    player: str
    cursor: Cursor


class GameRecord(msgspec.Struct):
    game: str
    # The Discord channel the game's posts go to.
    channel: str
    public: Cursor
    # By Discord user id.
    members: dict[str, Member] = msgspec.field(default_factory=dict)
    # No longer followed: killed, or let go by the bot.
    done: bool = False


class Records:
    """The records of every game in one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def _path(self, game: str) -> Path:
        path = self.directory / f"herald-{game}.json"
        if not _FILE.match(path.name):
            raise ValueError(f"not a game id: {game!r}")
        return path

    def load_all(self) -> list[GameRecord]:
        """Every game still followed."""
        records = []
        for path in sorted(self.directory.iterdir()):
            if not _FILE.match(path.name):
                continue
            try:
                record = msgspec.json.decode(path.read_bytes(), type=GameRecord)
            except msgspec.DecodeError:
                # Never written so (a file is replaced whole): edited by hand. The other
                # games go on; this one waits for its file to be mended.
                _log.exception("%s is not a herald's record: that game is not followed", path)
                continue
            if not record.done:
                records.append(record)
        return records

    def load(self, game: str) -> GameRecord | None:
        with contextlib.suppress(FileNotFoundError):
            return msgspec.json.decode(self._path(game).read_bytes(), type=GameRecord)
        return None

    def save(self, record: GameRecord) -> None:
        """Replace the game's file at once: a crash leaves the old one or the new one,
        never a part of either."""
        path = self._path(record.game)
        aside = path.with_suffix(".json.new")
        with aside.open("wb") as file:
            file.write(msgspec.json.encode(record))
            file.flush()
            os.fsync(file.fileno())
        os.replace(aside, path)
        directory = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
