"""The room names no game: outside projections/skirmish/, the server and the projections name
Skirmish Society, the default game, or whether a definition's events are the room's own
(`OwnEvents`, by name or by isinstance) only on the lines the plan keeps
(docs/design/games.md, "Skirmish Society as a definition: the plan", commit 6). A new
branch on Skirmish Society fails here: serve it through the seam, or add it below with why
it stays."""

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = re.compile(
    r"DEFAULT_GAME|SkirmishSociety|SKIRMISH_SOCIETY|require_skirmish|own_events"
    r"|isinstance\([^)]*OwnEvents\)"
)
IMPORT = re.compile(r"^\s*(from\s+\S+\s+)?import\b")

# The lines (imports aside) that name a game or ask `own_events`, by file.
KEPT = Counter(
    {
        # The default game: the game of old streams, which name none (GameState.game).
        # And a docstring naming `own_events`.
        "projections/game.py": 1 + 1,
        # /new's default game and its default name, the demo's default game and its pace.
        "server/commands/parse.py": 4,
        "server/commands/admin.py": 1,
        "server/ops/demo_tools.py": 2,
        # GET /v1/maps lists the default game's maps first, as clients show them.
        "server/http/routes/maps.py": 1,
        # The OwnEvents key itself.
        "projections/owned.py": 1,
        # Replay re-resolves Skirmish Society's recorded resolutions, the only game whose
        # resolutions are recorded bare (a definition's steps are checked by their own fold).
        "server/ops/replay.py": 1,
        # By design, the OwnEvents part asked where the room treats a game whose events are
        # its own apart from one whose steps it wraps (`play_recorded`):
        # its page, its views and standings, its map image, its hidden events;
        "server/http/routes/web.py": 1,
        "server/http/routes/map_image.py": 1,
        "projections/views.py": 3,
        "projections/visibility.py": 1,
        "server/commands/players.py": 1,
        # its turns read as orders rather than steps, and its fork's own fields;
        "server/game/application.py": 3,
        # its seats at joining, by its map's homes (the words `game_full` says), its map
        # setting (no other game is played on a Skirmish Society map), and its options,
        # which are its settings;
        "server/game/decide/lifecycle.py": 3,
        # its moves, start, resolution (and the words of a turn named that is over, "already
        # resolved") and leave, whose events the room appends bare and stamps;
        "server/game/decide/playing.py": 4,
        # its reminder's words, each seat's own;
        "server/game/decide/notices.py": 1,
        # its draws, which no rewind changes;
        "server/game/decide/resolution.py": 1,
        # the fold: its state from the creation on and its fork's fields, and (own_play.py)
        # its resolution's seats.
        "projections/evolve.py": 2,
        "projections/own_play.py": 1,
    }
)


def _named() -> Counter[str]:
    found: Counter[str] = Counter()
    for top in ("server", "projections"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("projections/skirmish/"):
                continue
            for line in path.read_text().splitlines():
                if NAMES.search(line) and not IMPORT.match(line):
                    found[relative] += 1
    return found


def test_the_room_names_no_game_but_on_the_lines_the_plan_keeps() -> None:
    assert _named() == KEPT
