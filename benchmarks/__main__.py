"""`python -m benchmarks [NAME ...] [--OPTION=VALUE ...] [--profile]`: run benchmark
modules and print their tables.

Each module `benchmarks/<name>.py` declares its options (`OPTIONS`, benchmarks._options)
and defines `main(options) -> None`, which prints one or more tables. Without names, every
module runs; an option goes to each chosen module that declares it, and one that none of
them declares stops the run. With `--profile`, the run goes under py-spy and ends with where
its time went (benchmarks._profile). `--help` lists each module's options and runs nothing.
"""

import importlib
import pkgutil
import sys
from types import ModuleType

import benchmarks
from benchmarks._options import BadOptions, Option, Value, describe, split, unknown, values
from benchmarks._profile import profiled

COMMON = {
    "profile": Option(False, "run under py-spy and print where the time went"),
    "help": Option(False, "print this and run nothing"),
}


def available() -> list[str]:
    return sorted(
        info.name
        for info in pkgutil.iter_modules(benchmarks.__path__)
        if not info.name.startswith("_")
    )


def run(argv: list[str]) -> int:
    names, given = split(argv)
    missing = sorted(set(names) - set(available()))
    if missing:
        print(f"unknown benchmark: {', '.join(missing)} (have: {', '.join(available())})")
        return 2
    modules = {name: importlib.import_module(f"benchmarks.{name}") for name in names or available()}
    if "help" in given or "h" in given:
        print(_help(modules))
        return 0
    try:
        chosen = _options(modules, given)
    except BadOptions as bad:
        print(bad, file=sys.stderr)
        return 2
    if "profile" in given:
        return profiled(argv)
    for name, module in modules.items():
        print(f"\n## {name}\n")
        module.main(chosen[name])
    return 0


def _options(
    modules: dict[str, ModuleType], given: dict[str, str | None]
) -> dict[str, dict[str, Value]]:
    strangers = unknown(given, [COMMON, *(module.OPTIONS for module in modules.values())])
    if strangers:
        listed = ", ".join(f"--{name}" for name in strangers)
        raise BadOptions(
            f"no benchmark of {', '.join(modules)} takes {listed}: "
            f"`python -m benchmarks {' '.join(modules)} --help` lists their options"
        )
    values(COMMON, given)  # for its refusal of `--profile=yes`: flags take no value
    return {name: values(module.OPTIONS, given) for name, module in modules.items()}


def _help(modules: dict[str, ModuleType]) -> str:
    lines = [__doc__.strip() if __doc__ else "", "", "options of every benchmark:"]
    lines += describe(COMMON)
    for name, module in modules.items():
        summary = (module.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        lines += ["", f"{name}: {summary}", *describe(module.OPTIONS)]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
