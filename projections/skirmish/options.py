"""Skirmish Society's options: what its setup reads, kept in `GameState.options` as the
definitions' games keep theirs (rules/game.py), but derived rather than given. Its games
are set up by their settings (the room's `Settings`: a built-in map, or the type of map
to generate), and record no options of their own (`GameCreated.options` is `{}`), so the
room's fold reads them from the settings of `game_created` and each `settings_changed`.
docs/design/games.md, S2.

Pure: no I/O, no clock.
"""

from typing import Any

from schema.game_events import Settings


def options_of(settings: Settings, seed: int) -> dict[str, Any]:
    """The options of a game with these settings and seed:
    - `map`: the built-in map it is played on, or None for one generated at the start; its
      seats are 3 to the map's starting homes, at most 20 (3 to 20 on a generated map,
      which has a home for each player);
    - `map_type`: the type of map generated when `map` is None;
    - `seed`: the game's seed, which a generated map grows from (the setup's draws are the
      game's secret's, which come only at the start). A fork plays its source's map, and
      its seed is 0;
    - `votes` and `vote_start_turn`: the vote's schedule, by which the setup draws the first
      turn's vote."""
    return {
        "map": settings.map,
        "map_type": settings.map_type,
        "seed": seed,
        "votes": settings.votes,
        "vote_start_turn": settings.vote_start_turn,
    }
