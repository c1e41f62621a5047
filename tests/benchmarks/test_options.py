"""The benchmarks' command line: declared options reach their module, anything else stops the
run before a benchmark starts."""

import re

import pytest

from benchmarks import scheduler
from benchmarks.__main__ import run
from benchmarks._options import BadOptions, Option, split, values

DECLARED = {
    "games": Option(100, "games"),
    "seconds": Option(5.0, "seconds"),
    "servers": Option("1,3", "servers"),
    "verbose": Option(False, "verbose"),
}


def test_given_values_take_their_defaults_types_and_the_rest_keep_their_defaults() -> None:
    names, given = split(["domain", "--games=7", "--seconds=0.5", "--verbose"])
    assert names == ["domain"]
    assert values(DECLARED, given) == {
        "games": 7,
        "seconds": 0.5,
        "servers": "1,3",
        "verbose": True,
    }


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("--games=many", "--games=many: not int"),
        ("--games", "--games needs a value, as in --games=100"),
        ("--verbose=yes", "--verbose is a flag and takes no value (got 'yes')"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_with_what_it_should_be(
    argument: str, message: str
) -> None:
    with pytest.raises(BadOptions) as refused:
        values(DECLARED, split([argument])[1])
    assert str(refused.value) == message


def test_an_option_that_no_chosen_benchmark_declares_stops_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Singular: before, the scheduler ran its defaults (one and three servers) for it.
    assert run(["scheduler", "--server=2"]) == 2
    refusal = capsys.readouterr()
    assert refusal.out == ""
    assert "no benchmark of scheduler takes --server" in refusal.err
    assert "python -m benchmarks scheduler --help" in refusal.err


def test_an_option_of_another_benchmark_is_refused_for_this_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["rules", "--workers=2"]) == 2
    assert "no benchmark of rules takes --workers" in capsys.readouterr().err


def test_help_lists_every_option_with_its_default_and_runs_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["scheduler", "--help"]) == 0
    out = capsys.readouterr().out
    for name, option in scheduler.OPTIONS.items():
        # The usages are padded to the longest one's width.
        assert re.search(rf"{re.escape(option.usage(name))} +{re.escape(option.help)}\n", out)
    assert "--profile" in out
    assert "## scheduler" not in out


def test_an_unknown_benchmark_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["schedule"]) == 2
    assert "unknown benchmark: schedule (have: api, domain" in capsys.readouterr().out
