"""What the house around the game room asks of Skor (rules/house.py's optional parts): its
what-if, its sandbox page and its demo."""

from collections.abc import Mapping
from typing import Any

from rules.house import DemoFlag, Sandbox
from rules.skor.contract import SkorRequest, SkorResponse, adjudicate_json
from rules.skor.state import MAX_ROUND_LIMIT


class SkorHouse:
    what_if_types = (SkorRequest, SkorResponse)
    sandbox = Sandbox("Skor's sandbox", "lets you play both sides of a game of Skor")
    # A Skor action, not a turn of several.
    demo_seconds = 0.5
    demo_flags = (
        DemoFlag(
            "round_limit",
            20,
            "Skor's round limit: drawn when it ends",
            bounds=(1, MAX_ROUND_LIMIT),
        ),
    )

    def what_if(self, data: bytes | str) -> bytes:
        return adjudicate_json(data)

    def demo_options(self, flags: Mapping[str, Any], seed: int) -> dict[str, Any]:
        return {"round_limit": flags["round_limit"]}
