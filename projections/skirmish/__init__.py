"""Skirmish Society as the room runs it: its state and fold (`state`), and, as the plan in
docs/design/games.md goes on, its moves, resolution and notices. It lives in projections/,
not rules/skirmish/ (the engine), because its events are the room's stored ones, with dates.
"""
