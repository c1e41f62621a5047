"""A map is checked when it is made, however it is made; one equal to a map checked
already is taken as it is, with the board of that one."""

import msgspec
import pytest

from rules.skirmish.board import MapError, decode_map, encode_map
from rules.skirmish.maps import builtin_map


def test_a_map_decoded_again_shares_the_board_of_the_first() -> None:
    data = encode_map(builtin_map("rulebook"))

    first, again = decode_map(data), decode_map(data)

    assert first is not again
    assert first == again
    assert again.board is first.board


def test_a_map_that_fails_its_check_fails_it_every_time() -> None:
    good = builtin_map("rulebook")
    twice = msgspec.to_builtins(good)
    twice["territories"] = [*twice["territories"], twice["territories"][0]]
    data = msgspec.json.encode(twice)

    for _ in range(2):
        with pytest.raises(MapError, match="duplicate territory id"):
            decode_map(data)
    with pytest.raises(MapError, match="duplicate territory id"):
        msgspec.structs.replace(good, territories=(*good.territories, good.territories[0]))
