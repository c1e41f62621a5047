"""What the resolver decided, as the order kinds ask it in order to report their results,
and how a report shows an order."""

from typing import Literal, Protocol

Result = Literal["succeeded", "failed", "cut", "invalid", "replaced"]
# The kinds of order (rules/skirmish/orders/), as reports name them.
OrderKind = Literal["hold", "move", "support", "build", "farm", "reinforce"]

# An order as the contract shows it: its army (or REF), kind, where it points (the
# territory a move or a support goes into) and, for a support, the supported army's
# territory (or REF). A plain tuple: every order of every turn is shown once.
Shown = tuple[str, OrderKind, str | None, str | None]


class Verdicts(Protocol):
    def dislodged(self, territory: str) -> bool:
        """The army that stood here was beaten and died."""
        ...

    def moved(self, source: str) -> bool:
        """The army ordered to move from `source` arrived."""
        ...

    def reinforced(self, target: str) -> bool:
        """A reinforcement entered `target`."""
        ...

    def support_result(self, supporter: str) -> Result:
        """`succeeded` if the support counted, `cut` if it was cut, `failed` if it had
        nothing to support."""
        ...

    def disturbed(self, territory: str) -> bool:
        """Another player's move came into the territory, cutting a build or a farm."""
        ...
