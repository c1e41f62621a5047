"""What the benchmarks read of the processes they start, from /proc."""

import os
from pathlib import Path


def rss(pids: list[int]) -> int:
    """The processes' resident memory in bytes, together."""
    return sum(_rss(pid) for pid in pids)


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time the processes have used, user and system, together. Less at the mercy
    of whatever else the machine runs than a rate or a latency."""
    return sum(_cpu_seconds(pid) for pid in pids)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float | None:
    """The CPU time of every PostgreSQL process of this machine (whatever else they serve),
    or None when there is none: the database is elsewhere."""
    pids = [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and _comm(entry) == "postgres"
    ]
    return sum(_cpu_seconds_if_running(pid) for pid in pids) if pids else None


def _comm(entry: Path) -> str:
    try:
        return (entry / "comm").read_text().strip()
    except OSError:  # gone meanwhile
        return ""


def _cpu_seconds_if_running(pid: int) -> float:
    try:
        return _cpu_seconds(pid)
    except OSError:  # ended since it was listed
        return 0.0
