"""The rules engine is pure: no I/O, no clock, no randomness, no server code.

Every module under rules/ is read with `ast` (not imported) and checked for imports of
modules that do I/O, tell the time, draw random numbers or run concurrently, for imports
of the server side (server, eventstore, projections), and for calls of open() and friends.
The one exception: rules/maps/__init__.py reads the built-in maps through
importlib.resources.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules

RULES = Path(rules.__file__).parent
MODULES = sorted(RULES.rglob("*.py"))

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
        "datetime",
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
        # the rest of the project
        "server",
        "eventstore",
        "projections",
    }
)
FORBIDDEN_CALLS = frozenset({"open", "__import__", "exec", "eval", "input", "print", "breakpoint"})
# Module path relative to rules/ -> the imports that module may make despite FORBIDDEN.
EXCEPTIONS = {"maps/__init__.py": frozenset({"importlib.resources"})}


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of everything imported, `from a import b` giving `a.b`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def violations(source: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """What in `source` breaks purity; `allowed` lists dotted imports let through."""
    tree = ast.parse(source)
    found = []
    for line, name in _imports(tree):
        parts = name.split(".")
        if parts[0] not in FORBIDDEN:
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
        called = func.id if isinstance(func, ast.Name) else None
        if isinstance(func, ast.Attribute) and func.attr == "open":
            called = "open"
        if called in FORBIDDEN_CALLS:
            found.append(f"line {node.lineno}: calls {called}()")
    return found


def _relative(path: Path) -> str:
    return path.relative_to(RULES).as_posix()


def test_every_module_of_the_package_is_checked() -> None:
    names = {_relative(p) for p in MODULES}
    assert {"__init__.py", "contract.py", "resolve.py", "parse.py", "turn.py"} <= names
    assert {"orders/move.py", "orders/support.py", "maps/__init__.py"} <= names
    assert set(EXCEPTIONS) <= names


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_module_is_pure(path: Path) -> None:
    allowed = EXCEPTIONS.get(_relative(path), frozenset())
    assert violations(path.read_text(encoding="utf-8"), allowed) == []


def test_the_exception_is_used() -> None:
    # If the maps module stopped needing importlib.resources, the exception should go.
    source = (RULES / "maps" / "__init__.py").read_text(encoding="utf-8")
    assert violations(source) != []
    assert violations(source, EXCEPTIONS["maps/__init__.py"]) == []


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
        "from server.cli import main",
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
    assert violations(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "import re",
        "import msgspec",
        "from collections.abc import Mapping",
        "from rules.board import Board",
        "from . import board",
        "from .orders import Move",
        "import timeit_like_name_but_not_time",
        "from servers import x",
        "opened = reopen(1)",
        "x = {'open': 1}['open']",
    ],
)
def test_the_checker_lets_pure_sources_through(source: str) -> None:
    assert violations(source) == []


def test_the_exception_allows_only_what_it_names() -> None:
    allowed = EXCEPTIONS["maps/__init__.py"]
    assert violations("from importlib import resources", allowed) == []
    assert violations("import importlib.resources", allowed) == []
    assert violations("import importlib", allowed) != []
    assert violations("from importlib import import_module", allowed) != []
    assert violations("import os", allowed) != []
