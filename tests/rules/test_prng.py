"""SeededRandom.units: a block of draws computed at once is exactly the draws one at a time,
and leaves the stream where they would."""

from hypothesis import given
from hypothesis import strategies as st

from rules.kit.prng import SeededRandom

SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


@given(seed=SEEDS, sizes=st.lists(st.integers(min_value=0, max_value=600), max_size=4))
def test_a_block_is_the_draws_one_at_a_time(seed: int, sizes: list[int]) -> None:
    blocks, single = SeededRandom(seed), SeededRandom(seed)
    for n in sizes:
        assert blocks.units(n) == [single.unit() for _ in range(n)]
    assert blocks.next_u64() == single.next_u64()


def test_a_known_stream_still_gives_the_same_draws() -> None:
    # Pinned, so that a change to the lanes' arithmetic cannot pass by agreeing with itself.
    drawn = SeededRandom(0x0123456789ABCDEF).units(40)
    assert drawn[:3] == [0.08389616190521443, 0.8337909344596774, 0.18580193412474622]
    assert drawn[-1] == 0.6933081117082219
