"""The benchmarks' command line: each module declares its options, `python -m benchmarks`
checks what it is given against them.

A benchmark that quietly ran its defaults for a mistyped option (`--server=2`) would print a
table that looks right and measures something else; so an option that no chosen benchmark
declares, or a value of the wrong kind, stops the run before anything starts.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

Value: TypeAlias = int | float | str | bool


@dataclass(frozen=True)
class Option:
    """A benchmark's `--name=value` (or, with a bool default, a bare `--name` flag)."""

    default: Value
    help: str

    def usage(self, name: str) -> str:
        if isinstance(self.default, bool):
            return f"--{name}"
        return f"--{name}={self.default if self.default != '' else 'VALUE'}"


class BadOptions(ValueError):
    """What was given cannot run: the message says why."""


def split(argv: Sequence[str]) -> tuple[list[str], dict[str, str | None]]:
    """Benchmark names, and options by name (None for a flag without `=`)."""
    names: list[str] = []
    given: dict[str, str | None] = {}
    for argument in argv:
        if not argument.startswith("-"):
            names.append(argument)
            continue
        name, has_value, value = argument.lstrip("-").partition("=")
        given[name] = value if has_value else None
    return names, given


def unknown(given: Mapping[str, object], declared: Sequence[Mapping[str, Option]]) -> list[str]:
    known = {name for options in declared for name in options}
    return sorted(set(given) - known)


def values(declared: Mapping[str, Option], given: Mapping[str, str | None]) -> dict[str, Value]:
    """Every declared option's value: given, converted to its default's type, or the default."""
    result: dict[str, Value] = {}
    for name, option in declared.items():
        if name not in given:
            result[name] = option.default
            continue
        raw = given[name]
        if isinstance(option.default, bool):
            if raw is not None:
                raise BadOptions(f"--{name} is a flag and takes no value (got {raw!r})")
            result[name] = True
        elif raw is None:
            raise BadOptions(f"--{name} needs a value, as in {option.usage(name)}")
        else:
            kind = type(option.default)
            try:
                result[name] = kind(raw)
            except ValueError:
                raise BadOptions(f"--{name}={raw}: not {kind.__name__}") from None
    return result


def describe(declared: Mapping[str, Option]) -> list[str]:
    usages = {name: option.usage(name) for name, option in declared.items()}
    width = max(map(len, usages.values()), default=0)
    return [f"  {usages[name]:<{width}}  {option.help}" for name, option in declared.items()]
