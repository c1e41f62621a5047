"""What the house around the game room asks of a game that has it, never naming the game:
the optional parts of a definition (rules/game.py) beyond play. Its built-in maps (`Mapped`,
GET /v1/maps), its stateless what-if (`WhatIf`, POST /v1/adjudicate), its sandbox page
(`Sandboxed`, /sandbox/<name>) and what `skirmish demo` plays it with (`Demoed`). Pure, like
every rule."""

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import msgspec


class MapListing(msgspec.Struct, frozen=True):
    """A built-in map as GET /v1/maps lists it."""

    name: str
    description: str
    territories: int
    # Its starting homes, and the fewest and most players a game on it can start with (None:
    # it hosts none), for a game that seats one player per home (Skirmish Society).
    homes: int = 0
    players: tuple[int, int] | None = None


@runtime_checkable
class Mapped(Protocol):
    """The optional part of a definition with built-in maps: GET /v1/maps lists them, the
    default game's first, GET /v1/maps/{name} answers one whole (Skirmish Society's with the
    outlines the server draws it by). No two games' maps share a name."""

    # A map whole as GET /v1/maps/{name} answers it (and /openapi.json documents it): a
    # msgspec Struct whose `game` field, a Literal, names the game (its drawing hints and all).
    map_type: Any

    def builtin_maps(self) -> tuple[MapListing, ...]: ...

    def builtin_map(self, name: str) -> Any:
        """The map `name` whole (a `map_type`), or None if it is none of the game's."""
        ...


@runtime_checkable
class WhatIf(Protocol):
    """The optional part of a definition with a stateless what-if (POST /v1/adjudicate and
    `skirmish adjudicate` with `"ruleset"` its name; docs/adjudicate.md). The command line
    knows the built-in games only: SKIRMISH_GAMES registers a game in the server."""

    # The request and its answer (msgspec Structs), for /openapi.json.
    what_if_types: tuple[Any, Any]

    def what_if(self, data: bytes | str) -> bytes:
        """The answer to a request as JSON; rules.kit.requests.RequestError if it is bad."""
        ...


class Sandbox(msgspec.Struct, frozen=True):
    """What the home page says of a game's sandbox: `link` (its words linked to the page),
    then what it `does`; and, for a game from outside the project, the `page` itself (HTML),
    which a built-in game keeps as server/pages/sandbox/<name>.html instead."""

    link: str
    does: str
    page: str | None = None


@runtime_checkable
class Sandboxed(Protocol):
    """The optional part of a definition with a sandbox page: /sandbox/<name> serves its
    `sandbox.page`, or server/pages/sandbox/<name>.html; the home page links to it."""

    sandbox: Sandbox


class DemoFlag(msgspec.Struct, frozen=True):
    """One of the game's options `skirmish demo` takes, as the flag `--<name>` (its
    underscores as dashes; no other game's flag, nor the demo's own, takes the name): an
    int one within `bounds`, or a str one of `choices`."""

    name: str
    default: int | str
    help: str
    bounds: tuple[int, int] | None = None
    choices: tuple[str, ...] = ()


@runtime_checkable
class Demoed(Protocol):
    """The optional part of a definition that `skirmish demo --game <name>` plays, its bots
    those of bots/games.py."""

    # Real seconds each bot waits before each of its steps, unless --turn-seconds.
    demo_seconds: float
    demo_flags: tuple[DemoFlag, ...]

    def demo_options(self, flags: Mapping[str, Any], seed: int) -> dict[str, Any]:
        """The game's options for a demo with these flags' values (by `name`, each given)
        and the demo's seed (its map's and its bots')."""
        ...
