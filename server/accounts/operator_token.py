"""The operator's token when SKIRMISH_OPERATOR_TOKEN is unset: made on the first start of
`skirmish serve`, kept in the data directory for its owner only and reused after, so that a
new server has an operator from its first start, and the token itself never reaches a log
(the log says where to read it)."""

import contextlib
import os
import secrets
import shlex
import stat
import tempfile
from pathlib import Path

TOKEN_FILE = "operator-token"
# Settings' own minimum for SKIRMISH_OPERATOR_TOKEN, and a bound on what is read.
_SHORTEST = 16
_LONGEST = 1024


class TokenFileError(Exception):
    """The kept token cannot be made or read, or others may read it."""


def kept_token(data_dir: Path) -> str:
    """The token kept in `data_dir`, made first if there is none."""
    path = data_dir / TOKEN_FILE
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            _make(path)
        return _read(path)
    except OSError as error:
        raise TokenFileError(
            f"cannot keep the operator's token in {path}: {error.strerror}"
        ) from error


def where_to_read(data_dir: Path) -> str:
    """The line that says where the token is, and how to read it."""
    path = str(data_dir / TOKEN_FILE)
    return (
        f"the operator's token (set SKIRMISH_OPERATOR_TOKEN for one of your own) is in "
        f"{path}: cat {shlex.quote(path)}"
    )


def _make(path: Path) -> None:
    # Written whole under another name, then linked into place, which fails if the name is
    # taken: two servers starting at once on a fresh directory keep one token, and neither
    # reads half of one. mkstemp makes the file for its owner only.
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{TOKEN_FILE}-")
    try:
        with os.fdopen(descriptor, "w") as written:
            written.write(secrets.token_urlsafe(32) + "\n")
        # If another server's came first, both use that one.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def _read(path: Path) -> str:
    with path.open() as kept:
        found = os.fstat(kept.fileno())
        if found.st_uid != os.geteuid() or found.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            # A token others may read is everyone's: refuse it, as ssh refuses such a key.
            raise TokenFileError(
                f"{path} may be read by others than its owner (mode "
                f"{stat.filemode(found.st_mode)}, owner {found.st_uid}): chmod 600 "
                f"{shlex.quote(str(path))} as its owner, or remove it for a new token"
            )
        token = kept.read(_LONGEST + 1).strip()
    if not _SHORTEST <= len(token) <= _LONGEST:
        raise TokenFileError(
            f"{path} holds no token of {_SHORTEST} to {_LONGEST} characters: remove it for "
            "a new one"
        )
    return token
