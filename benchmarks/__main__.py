"""`python -m benchmarks [NAME ...]`: run benchmark modules and print their tables.

Each module `benchmarks/<name>.py` defines `main(argv: list[str]) -> None`, which prints
one or more tables. Without names, every module runs. With `--profile`, the run goes under
py-spy and ends with where its time went (benchmarks._profile).
"""

import importlib
import pkgutil
import sys

import benchmarks
from benchmarks._profile import profiled


def available() -> list[str]:
    return sorted(
        info.name
        for info in pkgutil.iter_modules(benchmarks.__path__)
        if not info.name.startswith("_")
    )


def run(argv: list[str]) -> int:
    if "--profile" in argv:
        return profiled(argv)
    names = [a for a in argv if not a.startswith("-")] or available()
    options = [a for a in argv if a.startswith("-")]
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark: {', '.join(unknown)} (have: {', '.join(available())})")
        return 2
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"\n## {name}\n")
        module.main(options)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
