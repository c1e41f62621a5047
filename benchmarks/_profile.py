"""`python -m benchmarks NAME --profile`: the benchmark under py-spy, then where its time went.

py-spy (the optional `profile` extra) samples the benchmark's process and every process it
starts (the scheduler benchmark's `skirmish serve`), 50 times a second, leaving out threads
that wait (on the database, a socket or a sleep). The samples are summed per role (the
benchmark's own process, the servers), by phase (what the code was doing: loading a game,
deciding, appending, the read models...), by kind (where the CPU went: the rules engine,
msgspec, asyncpg...), and the top frames by self and by cumulative samples.
"""

import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchmarks._table import print_table

RATE = 50
TOP = 15
ROOT = str(Path(__file__).resolve().parent.parent) + "/"
OWN = ("server/", "eventstore/", "projections/", "schema/", "rules/", "client/", "benchmarks/")

# What the code was doing: the first rule (in this order) whose function is on the stack.
PHASES: Sequence[tuple[str, str]] = (
    ("start-up (imports)", "_find_and_load ("),
    ("benchmark: build games (the decider)", "BuiltGame."),
    ("clock: wait for the read models", "read_models_caught_up ("),
    ("read models: catch up and write", "ReadModelRunner."),
    ("load a game (snapshot, read, fold)", "GameService.load ("),
    ("decide (the rules engine)", "decide (server/game/decide"),
    ("append the events", "PostgresEventStore.append ("),
    ("save the snapshot", "GameService._snapshot ("),
    ("fold the new events", "fold (projections/evolve.py"),
    ("encode the new events", "EventCodec.new_event ("),
    ("scheduler: claims, due games", "Scheduler."),
    ("HTTP (uvicorn, FastAPI)", "RequestResponseCycle.run_asgi ("),
    # Callbacks run by the loop's C code (uvloop's, asyncpg's protocol) have no Python frame.
    ("event loop, no Python frame above it", "Runner.run ("),
)
# Where the CPU went: the rule matching the frame nearest the leaf that any rule matches.
KINDS: Sequence[tuple[str, tuple[str, ...]]] = (
    ("msgspec encode/decode, event ids (schema/, uuid4)", ("msgspec/", "schema/", "uuid.py")),
    ("rules engine (rules/, server/game/decide/)", ("rules/", "server/game/decide/")),
    ("folding (projections/evolve.py, game.py)", ("projections/evolve.py", "projections/game.py")),
    ("read-model rows (projections/)", ("projections/",)),
    ("asyncpg (the call: encoding, socket writes)", ("asyncpg/",)),
    ("event store, Python side (eventstore/)", ("eventstore/",)),
    ("start-up (imports)", ("<frozen importlib",)),
    ("HTTP (uvicorn, starlette, FastAPI, httpx)", ("uvicorn/", "starlette/", "fastapi/", "httpx/")),
    # asyncpg's protocol (Cython) writes and reads its socket from C: no Python frame between.
    ("socket writes and reads (asyncio's transports)", ("asyncio/selector_events.py",)),
    ("event loop (asyncio; uvloop's and asyncpg's protocol's C code)", ("asyncio/", "selectors")),
)


def profiled(argv: list[str]) -> int:
    """Run `python -m benchmarks` with `argv` (less --profile) under py-spy; print the summary."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("--profile needs py-spy: pip install -e '.[profile]'")
        return 2
    with tempfile.TemporaryDirectory(prefix="skirmish-profile-") as directory:
        raw = Path(directory) / "profile.txt"
        command = [spy, "record", "--subprocesses", "--rate", str(RATE), "--format", "raw"]
        benchmark = [sys.executable, "-m", "benchmarks", *(a for a in argv if a != "--profile")]
        code = subprocess.call([*command, "--output", str(raw), "--", *benchmark])
        if code != 0:
            return code
        print_summary(raw.read_text().splitlines())
    return 0


def print_summary(lines: Iterable[str]) -> None:
    """Print the summary of py-spy's raw (collapsed) stacks, a role at a time."""
    roles: dict[str, list[tuple[list[str], int]]] = {}
    for line in lines:
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")
        server = any(f.startswith("process ") and "skirmish serve" in f for f in frames)
        own = [_frame(f) for f in frames if not f.startswith("process ")]
        if own:
            role = "servers (skirmish serve)" if server else "the benchmark's process"
            roles.setdefault(role, []).append((own, int(count)))
    for role, samples in sorted(roles.items()):
        total = sum(n for _, n in samples)
        print(f"\n### {role}: {total:,} samples ({total / RATE:,.1f} s of a thread not waiting)\n")
        phases: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        pairs: Counter[str] = Counter()
        selves: Counter[str] = Counter()
        cumulative: Counter[str] = Counter()
        for frames, n in samples:
            phases[_phase(frames)] += n
            kinds[_kind(frames)] += n
            pairs[f"{_phase(frames)} / {_kind(frames)}"] += n
            selves[frames[-1]] += n
            for frame in set(frames):
                if frame.split(" (", 1)[-1].startswith(OWN):
                    cumulative[frame] += n
        _print_shares("phase", phases, total)
        print()
        _print_shares("kind", kinds, total)
        print()
        _print_shares("phase / kind (top pairs)", pairs, total, TOP)
        print()
        _print_shares("self (top frames)", selves, total, TOP)
        print()
        # Entry points (on nearly every stack) say nothing.
        cumulative = Counter({f: n for f, n in cumulative.items() if n < 0.9 * total})
        _print_shares("cumulative (project code)", cumulative, total, TOP)


def _frame(frame: str) -> str:
    """`function (path:line)` as `function (path)`, the path from the project or site-packages."""
    frame = re.sub(r":\d+\)$", ")", frame).replace(ROOT, "")
    return re.sub(r"\(\S*/site-packages/", "(", frame)


def _phase(frames: list[str]) -> str:
    for label, needle in PHASES:
        if any(needle in frame for frame in frames):
            return label
    return "other"


def _kind(frames: list[str]) -> str:
    for frame in reversed(frames):
        where = frame.split(" (", 1)[-1]
        for label, prefixes in KINDS:
            if where.startswith(prefixes):
                return label
    return "other"


def _print_shares(what: str, counts: Counter[str], total: int, top: int | None = None) -> None:
    rows = [(name, n, f"{100 * n / total:.1f}%") for name, n in counts.most_common(top)]
    print_table((what, "samples", "share"), rows)
