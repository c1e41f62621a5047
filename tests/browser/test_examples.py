"""The sandbox's rulebook examples (server/pages/examples.json) are the rulebook's golden cases
(tests/rules/cases/rulebook), with the orders typed the way the sandbox takes them: one text
in which every order goes to the owner of its army (of its barracks, for REF).

After changing a golden case, write the file again with
`.venv/bin/python -m tests.browser.test_examples`.
"""

import json
import re
from pathlib import Path
from typing import Any

from rules.skirmish.contract import adjudicate

ROOT = Path(__file__).parents[2]
CASES = ROOT / "tests" / "rules" / "cases" / "rulebook"
EXAMPLES_FILE = ROOT / "server" / "pages" / "examples.json"
# The rulebook's examples that show a position (variants and forms of orders are left out).
EXAMPLES = (
    "combat",
    "orders_example",
    "hold_example",
    "move_example_1",
    "move_example_2",
    "move_example_3",
    "move_example_4",
    "double_move",
    "overseas",
    "support_example_1",
    "support_example_2",
    "support_example_3",
    "support_example_4",
    "support_example_5",
    "cut_support_example_1",
    "cut_support_example_2",
    "cut_support_example_3",
    "build_example_1",
    "build_example_2",
    "farm_example_1",
    "farm_example_2",
    "dead_army",
    "reinforcement_example_2",
    "reinforcement_example_3",
    "reinforcement_example_4",
    "reinforcement_example_5",
)


def derive_examples() -> dict[str, Any]:
    examples: dict[str, Any] = {}
    for name in EXAMPLES:
        case = json.loads((CASES / f"{name}.json").read_text())
        request = case["request"]
        examples[name] = {
            "title": case["source"].removeprefix("rulebook: "),
            "description": case["description"],
            "players": list(request["players"]),
            "armies": request.get("armies", {}),
            "control": request.get("control", {}),
            "farms": request.get("farms", []),
            "orders": "\n".join(text for texts in request["orders"].values() for text in texts),
        }
    return examples


def examples_json() -> str:
    return json.dumps(derive_examples(), indent=1) + "\n"


def owner(example: dict[str, Any], text: str) -> str:
    """Whose order `text` is, as the sandbox decides (server/pages/js/sandbox.js)."""
    words = re.split(r"[\s>-]+", text.strip())
    if words[0].upper() == "REF":
        return str(example["control"][words[-1].upper()])
    return str(example["armies"][words[0].upper()])


def test_the_examples_file_is_derived_from_the_golden_cases() -> None:
    assert EXAMPLES_FILE.read_text() == examples_json(), (
        "write it again: .venv/bin/python -m tests.browser.test_examples"
    )


def test_each_order_goes_to_the_player_of_the_golden_case() -> None:
    for name in EXAMPLES:
        case = json.loads((CASES / f"{name}.json").read_text())
        example = derive_examples()[name]
        regrouped: dict[str, list[str]] = {player: [] for player in example["players"]}
        for text in example["orders"].split("\n"):
            regrouped[owner(example, text)].append(text)
        assert regrouped == {p: case["request"]["orders"].get(p, []) for p in regrouped}, name
        # And so the sandbox's request is adjudicated exactly as the golden case.
        answer = adjudicate({**case["request"], "orders": regrouped})
        results = [[o["player"], o["text"], o["result"]] for o in answer["orders"]]
        assert sorted(results) == sorted(e[:3] for e in case["expect"]["orders"]), name


if __name__ == "__main__":
    EXAMPLES_FILE.write_text(examples_json())
