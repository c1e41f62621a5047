"""Skirmish Society as the room runs it: its state and fold (`state`), its orders and
join-forces requests (`orders`), votes (`votes`), a turn's resolution (`resolution`), its
results and reminders (`notices`) and hints (`hints`), each a function of its state (which
holds the room's facts it reads: projections.owned) and plain values, which the room's commands
(server/game/decide) call after their own checks. It lives in projections/, not
rules/skirmish/ (the engine), because its events are the room's stored ones, with dates;
and it imports nothing of server/ nor projections.game. Importing it registers Skirmish
Society's definition (`definition`), built in: projections.game imports it, so that every
process that folds a game has it.
"""

from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from rules.registry import register

register(SKIRMISH_SOCIETY_GAME, built_in=True)
