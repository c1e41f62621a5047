"""Order text: `parse` reads a plain move (`US 3 to AK`) at once and every other line word by
word (`read`); on every line, of every map, both readings agree."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.artofwar.maps import builtin_board
from rules.artofwar.orders import MAX_LINE, Move, parse, read

BOARD = builtin_board("world")
NAMES = sorted({label for t in BOARD.territories.values() for label in (t.id, t.name)})
WORDS = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES).map(str.lower),
    st.sampled_from(NAMES).map(str.upper),
    st.sampled_from(["to", "TO", "To", "->", ">", "-->", "->>", "hold", "h", "H", "place"]),
    st.sampled_from(["3", "03", "+3", "-1", "2.5", "0", "٣", "12x", "x"]),
    st.integers(min_value=0, max_value=10**6).map(str),
    st.text(min_size=1, max_size=6),
)
SPACES = st.sampled_from([" ", "  ", "\t", "\u00a0", "\u2003", "", ">", "->"])


@st.composite
def lines(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, min_size=0, max_size=7))
    text = ""
    for word in words:
        text += word + draw(SPACES)
    return text if draw(st.booleans()) else text.strip()


@settings(max_examples=3000)
@given(line=lines())
def test_parse_and_read_agree(line: str) -> None:
    if len(line) <= MAX_LINE:
        assert parse(line, BOARD) == read(line, BOARD)


@given(
    source=st.sampled_from(NAMES),
    count=st.integers(min_value=0, max_value=999),
    arrow=st.sampled_from(["to", "TO", "->", ">"]),
    target=st.sampled_from(NAMES),
)
def test_plain_moves_between_any_names_agree(
    source: str, count: int, arrow: str, target: str
) -> None:
    line = f"{source} {count} {arrow} {target}"
    parsed = parse(line, BOARD)
    assert parsed == read(line, BOARD)
    assert isinstance(parsed, Move)
