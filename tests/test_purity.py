"""The pure modules are pure: no I/O, no clock, no randomness, and nothing impure under them.

The rules engine, the decider with the game's state and evolve, the views, and the wire
types are functions of their arguments: that is what lets a game replay bit for bit. Each
such module is read with `ast` (not imported) and checked for imports of modules that do
I/O, tell the time, draw random numbers or run concurrently, for calls of open() and
friends, and for asking a clock the time; and each module of the project that a pure module
imports must itself be in the pure set, so impurity cannot come in through a neighbour.
The engine (rules/) is stricter still: it knows nothing of dates or of the rest of the
project.
"""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PROJECT = frozenset(
    {"rules", "schema", "server", "projections", "eventstore", "client", "bots", "discord_bot"}
)

# The pure set, as paths relative to the repository (a directory: every module under it).
PURE = (
    "rules",
    "schema",
    "server/game/decide",
    "server/game/words.py",
    "server/game/times.py",
    "server/game/outcome.py",
    "server/game/deciding.py",
    "server/commands/announcements.py",
    "server/commands/lookup.py",
    "server/commands/parse.py",
    "server/commands/replies.py",
    "server/commands/status.py",
    "server/commands/text.py",
    "server/pictures/outlines.py",
    "server/http/lru.py",
    "discord_bot/herald_story.py",
    "discord_bot/herald_posts.py",
    "projections/game.py",
    "projections/evolve.py",
    "projections/owned.py",
    "projections/own_play.py",
    "projections/playing.py",
    "projections/schedule.py",
    "projections/seat_view.py",
    "projections/skirmish",
    "projections/states.py",
    "projections/views.py",
    "projections/visibility.py",
    "server/ops/replay.py",
    "server/ops/replay_steps.py",
    "eventstore/records.py",
    "eventstore/chain.py",
    "eventstore/errors.py",
    "eventstore/postgres_sql.py",
    "client/errors.py",
    "client/heads.py",
    "client/receipts.py",
    "bots/artofwar.py",
    "bots/skor.py",
    "bots/skor_greedy.py",
    "bots/games.py",
    "bots/selfplay.py",
    "bots/strategies.py",
)


def _modules() -> list[Path]:
    found: set[Path] = set()
    for entry in PURE:
        path = ROOT / entry
        found.update(path.rglob("*.py") if path.is_dir() else [path])
    return sorted(found)


MODULES = _modules()

FORBIDDEN = frozenset(
    {
        # concurrency and the server's stack
        "asyncio",
        "asyncpg",
        "fastapi",
        "starlette",
        "uvicorn",
        "websockets",
        "threading",
        "multiprocessing",
        "concurrent",
        # the clock and randomness
        "time",
        "random",
        "secrets",
        # I/O
        "os",
        "io",
        "socket",
        "subprocess",
        "pathlib",
        "shutil",
        "tempfile",
        "sys",
        "importlib",
        "logging",
    }
)
# The engine's rules go further: no dates (a turn is a number) and none of the project.
ENGINE_FORBIDDEN = FORBIDDEN | {"datetime", "server", "eventstore", "projections", "schema"}
FORBIDDEN_CALLS = frozenset({"open", "__import__", "exec", "eval", "input", "print", "breakpoint"})
# Calls that ask a clock (datetime.now(), date.today() ...) or draw (uuid.uuid4()), however
# their module came in.
CLOCK_AND_DRAW_CALLS = frozenset(
    {"now", "utcnow", "today", "monotonic", "perf_counter", "uuid1", "uuid4", "urandom"}
)
# Module path -> the imports that module may make despite FORBIDDEN, and why.
EXCEPTIONS = {
    # The built-in maps are package data, read once.
    "rules/kit/packaged.py": frozenset({"importlib.resources"}),
    # The store's envelope gets a fresh event id: an identity, never a game's draw.
    "schema/events.py": frozenset({"uuid4()"}),
    # `python -m schema.errors` writes docs/errors.md.
    "schema/errors.py": frozenset({"sys"}),
    # A strategy is given its seeded `random.Random` and only names the type.
    "bots/strategies.py": frozenset({"random.Random"}),
}


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of everything imported, `from a import b` giving `a.b`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def violations(
    source: str, allowed: frozenset[str] = frozenset(), forbidden: frozenset[str] = FORBIDDEN
) -> list[str]:
    """What in `source` breaks purity; `allowed` lists dotted imports and calls
    ("uuid4()") let through."""
    tree = ast.parse(source)
    found = []
    for line, name in _imports(tree):
        parts = name.split(".")
        if parts[0] not in forbidden:
            continue
        # `from importlib import resources` is allowed by "importlib.resources", and so
        # is `import importlib.resources`; `import importlib` alone is not.
        if any(name == a or name.startswith(f"{a}.") for a in allowed):
            continue
        found.append(f"line {line}: imports {name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            called, builtin = func.id, True
        elif isinstance(func, ast.Attribute):
            called, builtin = func.attr, func.attr == "open"
        else:
            continue
        if (builtin and called in FORBIDDEN_CALLS) or (
            called in CLOCK_AND_DRAW_CALLS and f"{called}()" not in allowed
        ):
            found.append(f"line {node.lineno}: calls {called}()")
    return found


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _module_file(dotted: str) -> Path | None:
    """The project's file that defines `dotted` or its longest importable prefix
    (`schema.refusals.WrongTurn` -> schema/refusals.py)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def impure_neighbours(source: str) -> list[str]:
    """The project's modules that `source` imports but that are not in the pure set."""
    pure = set(MODULES)
    found = []
    for line, name in _imports(ast.parse(source)):
        if name.split(".")[0] not in PROJECT:
            continue
        target = _module_file(name)
        if target is None or target not in pure:
            found.append(f"line {line}: imports {name}, which is not in the pure set")
    return found


# A module's docstring calling the module pure: "Pure.", "Pure: no I/O", "..., pure:".
_CALLS_ITSELF_PURE = re.compile(r"\b[Pp]ure\b[:.,]")


def test_every_module_that_says_it_is_pure_is_checked() -> None:
    """A module that tells its reader it is pure is held to it."""
    checked = set(MODULES)
    claiming = [
        _relative(path)
        for top in sorted(PROJECT)
        for path in sorted((ROOT / top).rglob("*.py"))
        if _CALLS_ITSELF_PURE.search(ast.get_docstring(ast.parse(path.read_bytes())) or "")
        and path not in checked
    ]
    assert claiming == []


def test_every_pure_module_is_checked() -> None:
    names = {_relative(p) for p in MODULES}
    assert {
        "rules/skirmish/resolve.py",
        "rules/skirmish/orders/move.py",
        "rules/skirmish/maps/__init__.py",
        "rules/skor/engine.py",
        "rules/skor/contract.py",
        "rules/skor/dice.py",
        "rules/skor/definition.py",
        "rules/skor/moves.py",
        "rules/skor/picture.py",
        "rules/artofwar/resolve.py",
        "rules/artofwar/contract.py",
        "rules/artofwar/maps/__init__.py",
        "rules/artofwar/picture.py",
        "rules/kit/picture.py",
    } <= names
    assert {"server/game/decide/play.py", "projections/evolve.py", "schema/game_events.py"} <= names
    assert set(EXCEPTIONS) <= names


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_module_is_pure(path: Path) -> None:
    name = _relative(path)
    forbidden = ENGINE_FORBIDDEN if name.startswith("rules/") else FORBIDDEN
    allowed = EXCEPTIONS.get(name, frozenset())
    assert violations(path.read_text(encoding="utf-8"), allowed, forbidden) == []


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_module_imports_only_pure_modules_of_the_project(path: Path) -> None:
    assert impure_neighbours(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "from server.game.handlers import GameService",
        "import server.game.application",
        "from projections.runner import run",
        "from eventstore.postgres import PostgresStore",
        "from server import handlers",
        "from client.games import x",
    ],
)
def test_importing_an_impure_module_of_the_project_is_found(source: str) -> None:
    assert impure_neighbours(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "from schema.refusals import WrongTurn",
        "from server.game.decide import decide",
        "from schema import errors",
        "import projections.evolve",
        "from rules.skirmish.board import Board",
        "import re",
    ],
)
def test_importing_a_pure_module_is_let_through(source: str) -> None:
    assert impure_neighbours(source) == []


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_each_exception_is_used(name: str) -> None:
    # An exception that no longer lets anything through should go.
    forbidden = ENGINE_FORBIDDEN if name.startswith("rules/") else FORBIDDEN
    source = (ROOT / name).read_text(encoding="utf-8")
    assert violations(source, frozenset(), forbidden) != []
    assert violations(source, EXCEPTIONS[name], forbidden) == []


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "import random as rnd",
        "from random import Random",
        "import os.path",
        "from os import path",
        "from time import monotonic",
        "import datetime",
        "from datetime import datetime",
        "import secrets",
        "import asyncio",
        "from asyncio import sleep",
        "import asyncpg",
        "from fastapi import FastAPI",
        "from starlette.requests import Request",
        "import uvicorn",
        "import websockets",
        "import io",
        "import socket",
        "import subprocess",
        "import threading",
        "from pathlib import Path",
        "import importlib",
        "from importlib import import_module",
        "from server.ops.cli import main",
        "import server",
        "from eventstore import memory",
        "import projections.base",
        "def f():\n    import random\n    return random.random()",
        "if True:\n    from time import time",
        "data = open('map.json').read()",
        "with open('map.json') as f:\n    pass",
        "text = Path('x').open().read()",
        "os = __import__('os')",
        "print('hello')",
    ],
)
def test_the_checker_flags_impure_sources(source: str) -> None:
    assert violations(source, forbidden=ENGINE_FORBIDDEN) != []


@pytest.mark.parametrize(
    "source",
    [
        "at = datetime.now(UTC)",
        "at = datetime.utcnow()",
        "day = date.today()",
        "import time",
        "started = monotonic_clock.monotonic()",
        "event_id = uuid.uuid4()",
        "seed = os_like.urandom(32)",
        "import logging",
    ],
)
def test_outside_the_engine_dates_pass_but_clocks_do_not(source: str) -> None:
    assert violations(source) != []
    assert violations("from datetime import datetime, timedelta") == []


@pytest.mark.parametrize(
    "source",
    [
        "import re",
        "import msgspec",
        "from collections.abc import Mapping",
        "from rules.skirmish.board import Board",
        "from . import board",
        "from .orders import Move",
        "import timeit_like_name_but_not_time",
        "from servers import x",
        "opened = reopen(1)",
        "x = {'open': 1}['open']",
    ],
)
def test_the_checker_lets_pure_sources_through(source: str) -> None:
    assert violations(source, forbidden=ENGINE_FORBIDDEN) == []


def test_the_exception_allows_only_what_it_names() -> None:
    allowed = EXCEPTIONS["rules/kit/packaged.py"]
    assert violations("from importlib import resources", allowed) == []
    assert violations("import importlib.resources", allowed) == []
    assert violations("import importlib", allowed) != []
    assert violations("from importlib import import_module", allowed) != []
    assert violations("import os", allowed) != []
