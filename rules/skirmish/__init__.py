"""The Skirmish Society rules engine: pure, with no I/O, no clock and no randomness."""

from rules.skirmish.contract import RequestError, adjudicate, adjudicate_json

__all__ = ["RequestError", "adjudicate", "adjudicate_json"]
