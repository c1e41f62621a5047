"""Maps: territories, adjacency (overseas links included), barracks, and their JSON form."""

from functools import lru_cache
from typing import Any

import msgspec

# The words of orders, as typed (lower-cased) -> the keyword they are (rules.skirmish.parse).
KEYWORD_KINDS = {
    "h": "H",
    "hold": "H",
    "to": "TO",
    "->": "TO",
    ">": "TO",
    "s": "S",
    "support": "S",
    "supports": "S",
    "b": "B",
    "build": "B",
    "f": "F",
    "farm": "F",
    "ref": "REF",
}
ORDER_KEYWORDS = frozenset(word.upper() for word in KEYWORD_KINDS)


class MapError(ValueError):
    """A map that is not well formed; the message says what is wrong."""


class Territory(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    barracks: bool = False
    x: float = 0.0
    y: float = 0.0
    # Polygon outline for drawing, in the same coordinates as x/y; not part of the rules.
    outline: tuple[tuple[float, float], ...] = ()


class GameMap(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, dict=True
):
    """The JSON form of a map, as in `rules/skirmish/maps/rulebook.json`.

    `homes` lists, for generated maps, each starting player's home territories; an army
    starts on every barracks of a home.
    """

    name: str
    territories: tuple[Territory, ...]
    edges: tuple[tuple[str, str], ...]
    description: str = ""
    overseas: tuple[tuple[str, str], ...] = ()
    homes: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        # Kept on the map, so that its board needs no second look-up: each look-up hashes
        # and compares the whole map, as long as decoding it takes.
        self.__dict__["known"] = _known(self)

    @property
    def board(self) -> "Board":
        known: _Known = self.__dict__["known"]
        return known.board()


class _Known:
    """A map checked already, and its board once asked for."""

    __slots__ = ("_board", "_map")

    def __init__(self, game_map: GameMap) -> None:
        _check(game_map)
        self._map = game_map
        self._board: Board | None = None

    def board(self) -> "Board":
        # Threads may build it twice at once; either board is as good.
        if self._board is None:
            self._board = Board(self._map)
        return self._board


# Every load of a game decodes its map again (from its start event or a snapshot), and
# checking a map costs some five times what hashing and comparing it does, building its
# board ten times: a map equal to one checked already is as good, and so is its board.
# Kept by content, the latest few (generated maps are many), in an lru_cache, which threads
# may share.
@lru_cache(maxsize=64)
def _known(game_map: GameMap) -> _Known:
    return _Known(game_map)


def _check(game_map: GameMap) -> None:
    ids: set[str] = set()
    names: dict[str, str] = {}
    for territory in game_map.territories:
        tid = territory.id
        if not tid or tid != tid.strip() or " " in tid or tid.upper() != tid:
            raise MapError(f"territory id must be an upper-case word: {tid!r}")
        if tid in ORDER_KEYWORDS:
            raise MapError(f"territory id is an order keyword: {tid}")
        if tid in ids:
            raise MapError(f"duplicate territory id: {tid}")
        ids.add(tid)
        for label in (tid, territory.name):
            key = " ".join(label.lower().split())
            if not key:
                raise MapError(f"territory {tid} has an empty name")
            # Names never contain an order word, so that the parser can split an order at
            # its keywords without guessing where a name ends.
            clash = next((w for w in key.split() if w.upper() in ORDER_KEYWORDS), None)
            if clash is not None or ">" in key:
                raise MapError(f"territory name {label!r} contains an order word: {clash or '>'}")
            if names.get(key, tid) != tid:
                raise MapError(f"name {label!r} is used by both {names[key]} and {tid}")
            names[key] = tid
    seen_links: set[frozenset[str]] = set()
    for kind, links in (("edge", game_map.edges), ("overseas link", game_map.overseas)):
        for a, b in links:
            for end in (a, b):
                if end not in ids:
                    raise MapError(f"{kind} {a}-{b} names an unknown territory: {end}")
            if a == b:
                raise MapError(f"{kind} joins {a} to itself")
            link = frozenset((a, b))
            if link in seen_links:
                raise MapError(f"{kind} {a}-{b} is listed twice")
            seen_links.add(link)
    for home in game_map.homes:
        for tid in home:
            if tid not in ids:
                raise MapError(f"home names an unknown territory: {tid}")


class Board:
    """Lookups derived from a map, built once per map."""

    __slots__ = (
        "barracks",
        "ids",
        "longest_name",
        "map",
        "name_to_id",
        "neighbours",
        "overseas",
        "territories",
        "word_ids",
        "word_kinds",
    )

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.territories = {t.id: t for t in game_map.territories}
        self.ids = frozenset(self.territories)
        self.barracks = frozenset(t.id for t in game_map.territories if t.barracks)
        neighbours: dict[str, set[str]] = {tid: set() for tid in self.territories}
        for a, b in (*game_map.edges, *game_map.overseas):
            neighbours[a].add(b)
            neighbours[b].add(a)
        self.neighbours = {tid: frozenset(n) for tid, n in neighbours.items()}
        self.overseas = frozenset(frozenset(link) for link in game_map.overseas)
        # Ids and full names, lower-cased with single spaces, so that the parser can look
        # up whatever a player typed.
        self.name_to_id: dict[str, str] = {}
        for t in game_map.territories:
            self.name_to_id[t.id.lower()] = t.id
            self.name_to_id[" ".join(t.name.lower().split())] = t.id
        self.longest_name = max((len(name.split()) for name in self.name_to_id), default=1)
        # The parser's tables for orders whose names are one word each, the common case:
        # every keyword and one-word name or id, as typed in the usual cases -> its keyword
        # kind (None for a name), and -> its territory (None for a keyword). Names never
        # are keywords (checked above), so no spelling is both (rules.skirmish.parse).
        self.word_kinds: dict[str, str | None] = {}
        self.word_ids: dict[str, str | None] = {}
        for word, kind in KEYWORD_KINDS.items():
            for spelling in _spellings(word, word):
                self.word_kinds[spelling], self.word_ids[spelling] = kind, None
        for t in game_map.territories:
            for label in (t.id, t.name):
                key = " ".join(label.lower().split())
                for spelling in _spellings(key, label.strip()) if " " not in key else ():
                    self.word_kinds[spelling], self.word_ids[spelling] = None, t.id

    def is_overseas(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.overseas


def _spellings(key: str, written: str) -> set[str]:
    """The usual ways to type a word whose lower case is `key`: lower case, upper case,
    capitalised, and as `written` on the map. Only those that lower-case to `key` again, so
    that whatever the parser finds by them means what it would find by lower-casing."""
    return {s for s in (key, key.upper(), key.capitalize(), written) if s.lower() == key}


_map_decoder = msgspec.json.Decoder(GameMap)


def decode_map(data: bytes | str) -> GameMap:
    try:
        return _map_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise MapError(f"invalid map: {error}") from error


def map_from_object(obj: Any) -> GameMap:
    """A map from an already-decoded JSON object (an inline map in a request)."""
    try:
        return msgspec.convert(obj, GameMap)
    except msgspec.ValidationError as error:
        raise MapError(f"invalid map: {error}") from error


def encode_map(game_map: GameMap) -> bytes:
    return msgspec.json.encode(game_map)
