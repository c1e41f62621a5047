"""Pronounceable territory names and two-letter ids for generated maps.

Names are built from syllables. Every word of every name is used once on a map and is at
least three letters long, so no word can be read as another territory's name or id, and
none is an order keyword: "Land To Sea" or "Hold" can never come out.
"""

from collections.abc import Iterator
from string import ascii_uppercase

from rules.kit.prng import SeededRandom
from rules.skirmish.board import ORDER_KEYWORDS

_FIRST_ONSETS = (
    *("b", "br", "bl", "c", "d", "dr", "f", "fr", "g", "gl", "gr", "h", "j", "k", "kh"),
    *("l", "m", "n", "p", "pr", "r", "s", "sh", "sk", "st", "t", "th", "tr", "v", "w", "z"),
)
# Inside a word, a lone consonant (or th/sh) between vowels keeps the word easy to say.
_INNER_ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "th")
_VOWELS = ("a", "a", "e", "e", "i", "i", "o", "o", "u")
# At most one two-letter vowel per word: "Haihaisk" is hard to say.
_DIPHTHONGS = ("ai", "ea", "ou", "ei")
_DIPHTHONG_SHARE = 0.15
_INNER_CODAS = ("", "", "", "", "n", "r", "l", "s", "m")
_FINAL_CODAS = (
    *("n", "r", "l", "s", "m", "th", "nd", "rk", "st", "x", "sh", "ck"),
    *("lt", "rn", "g", "z", "tz", "ld", "sk", "ff", "mb"),
)
# Syllable soup can spell words that nobody wants on a game map.
_UNWANTED_PARTS = (
    *("ass", "cum", "cock", "cunt", "dick", "fag", "fuck", "fuk", "nazi", "nig", "piss"),
    *("porn", "rape", "sex", "shit", "slut", "tit", "twat", "whor", "kkk", "nob"),
)
_MIN_WORD, _MAX_WORD = 3, 9
_TWO_WORD_SHARE = 0.2


def _word(rng: SeededRandom, syllables: int) -> str:
    parts = ["" if rng.unit() < 0.15 else rng.choice(_FIRST_ONSETS)]
    diphthong_at = rng.below(syllables) if rng.unit() < _DIPHTHONG_SHARE * syllables else -1
    for syllable in range(syllables):
        parts.append(rng.choice(_DIPHTHONGS if syllable == diphthong_at else _VOWELS))
        if syllable < syllables - 1:
            parts.append(rng.choice(_INNER_CODAS))
            parts.append(rng.choice(_INNER_ONSETS))
        elif syllables == 1 or rng.unit() < 0.7:
            parts.append(rng.choice(_FINAL_CODAS))
    return "".join(parts).capitalize()


def _acceptable(word: str, used: set[str]) -> bool:
    lowered = word.lower()
    return (
        _MIN_WORD <= len(word) <= _MAX_WORD
        and lowered not in used
        and word.upper() not in ORDER_KEYWORDS
        and not any(part in lowered for part in _UNWANTED_PARTS)
    )


def _fresh_word(rng: SeededRandom, used: set[str], syllables: int) -> str:
    while True:
        word = _word(rng, syllables)
        if _acceptable(word, used):
            used.add(word.lower())
            return word


def territory_names(count: int, rng: SeededRandom) -> list[str]:
    """`count` distinct names of one or two words, no word used twice."""
    used: set[str] = set()
    names: list[str] = []
    for _ in range(count):
        if rng.unit() < _TWO_WORD_SHARE:
            first = _fresh_word(rng, used, syllables=rng.between(1, 2))
            names.append(f"{first} {_fresh_word(rng, used, syllables=1)}")
        else:
            names.append(_fresh_word(rng, used, syllables=rng.choice((1, 2, 2, 2, 2, 3))))
    return names


def _id_candidates(name: str) -> Iterator[str]:
    words = name.upper().split()
    letters = "".join(words)
    first = letters[0]
    if len(words) > 1:
        yield first + words[1][0]
    for letter in letters[1:]:
        yield first + letter
    for letter in ascii_uppercase:
        yield first + letter
    for a in ascii_uppercase:
        for b in ascii_uppercase:
            yield a + b


def territory_ids(names: list[str]) -> list[str]:
    """Two-letter ids, in the order of the names: initials ("Betts Frond" -> "BF"), else the
    first two letters ("Simm" -> "SI"), else the first letter and a later one, else any."""
    taken: set[str] = set()
    ids: list[str] = []
    for name in names:
        tid = next(c for c in _id_candidates(name) if c not in taken and c not in ORDER_KEYWORDS)
        taken.add(tid)
        ids.append(tid)
    return ids
