"""The order parser (rules.skirmish.parse) and the instant check of a submission
(rules.skirmish.validate).

Every form of the order table in rules.md, on the rulebook map: ids and full names, any
letter case, several orders per submission, arrows with or without spaces, and a precise
error for whatever is not an order. The parser never raises.
"""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.skirmish.board import Board
from rules.skirmish.effects import Effect
from rules.skirmish.maps import builtin_map
from rules.skirmish.orders import Build, Farm, Hold, Move, Order, Reinforce, Support
from rules.skirmish.parse import (
    MAX_ORDER_LENGTH,
    ParsedOrder,
    clipped,
    parse_order,
    split_orders,
)
from rules.skirmish.position import REF, Position, Situation
from rules.skirmish.validate import CheckedOrder, check_submission

BOARD: Board = builtin_map("rulebook").board
IDS = sorted(BOARD.ids)
NAMES = {t.id: t.name for t in BOARD.map.territories}


def parse_orders(text: str, board: Board) -> list[ParsedOrder]:
    """Each order of a submission parsed apart, as the validator reads them."""
    return [parse_order(piece, board) for piece in split_orders(text)]


def orders_of(text: str) -> list[Order | None]:
    return [parsed.order for parsed in parse_orders(text, BOARD)]


def error_of(text: str) -> str | None:
    parsed = parse_orders(text, BOARD)
    assert len(parsed) == 1, parsed
    assert parsed[0].order is None, parsed
    return parsed[0].error


# Every form of the table in rules.md, Orders.
FORMS: list[tuple[str, Order]] = [
    ("SI H", Hold("SI")),
    ("SI hold", Hold("SI")),
    ("EH to AE", Move("EH", "AE")),
    ("EH -> AE", Move("EH", "AE")),
    ("EH > AE", Move("EH", "AE")),
    ("FI S SI", Support("FI", "SI")),
    ("FI S SI H", Support("FI", "SI")),
    ("FI S SI hold", Support("FI", "SI")),
    ("FI support SI", Support("FI", "SI")),
    ("FI support SI H", Support("FI", "SI")),
    ("OG S RG to SI", Support("OG", "RG", "SI")),
    ("OG S RG -> SI", Support("OG", "RG", "SI")),
    ("OG S RG > SI", Support("OG", "RG", "SI")),
    ("OG support RG to SI", Support("OG", "RG", "SI")),
    ("OG support RG -> SI", Support("OG", "RG", "SI")),
    ("OG support RG > SI", Support("OG", "RG", "SI")),
    ("AE S REF to MA", Support("AE", REF, "MA")),
    ("AE S REF -> MA", Support("AE", REF, "MA")),
    ("AE S REF > MA", Support("AE", REF, "MA")),
    ("AE S REF MA", Support("AE", REF, "MA")),
    ("AE support REF to MA", Support("AE", REF, "MA")),
    ("EH B", Build("EH")),
    ("EH build", Build("EH")),
    ("EH F", Farm("EH")),
    ("EH farm", Farm("EH")),
    ("REF to MA", Reinforce("MA")),
    ("REF -> MA", Reinforce("MA")),
    ("REF > MA", Reinforce("MA")),
    ("REF MA", Reinforce("MA")),
]


@pytest.mark.parametrize(("text", "order"), FORMS, ids=[text for text, _ in FORMS])
def test_every_form_of_the_order_table(text: str, order: Order) -> None:
    assert parse_orders(text, BOARD) == [ParsedOrder(text, order=order)]
    assert parse_order(text, BOARD) == ParsedOrder(text, order=order)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("si h", Hold("SI")),
        ("Si HOLD", Hold("SI")),
        ("eh TO ae", Move("EH", "AE")),
        ("Eh To Ae", Move("EH", "AE")),
        ("fi s si h", Support("FI", "SI")),
        ("OG SUPPORT rg TO si", Support("OG", "RG", "SI")),
        ("ae s rEf mA", Support("AE", REF, "MA")),
        ("eh BUILD", Build("EH")),
        ("eh b", Build("EH")),
        ("EH FARM", Farm("EH")),
        ("ref to ma", Reinforce("MA")),
        ("Ref Ma", Reinforce("MA")),
        ("SIMM HOLD", Hold("SI")),
        ("betts frond TO JILCH NAR", Move("BF", "JN")),
    ],
)
def test_orders_are_case_insensitive(text: str, order: Order) -> None:
    assert orders_of(text) == [order]


@pytest.mark.parametrize(
    ("text", "order"),
    [
        # Two territories that are not adjacent: parsing does not judge adjacency.
        ("Betts Frond to Jilch Nar", Move("BF", "JN")),
        ("Betts   Frond   ->   Jilch  Nar", Move("BF", "JN")),
        ("BF to Jilch Nar", Move("BF", "JN")),
        ("Betts Frond > JN", Move("BF", "JN")),
        ("Simm H", Hold("SI")),
        ("Filp S Simm", Support("FI", "SI")),
        ("Filp supports Simm hold", Support("FI", "SI")),
        ("Obgob S Regelix to Simm", Support("OG", "RG", "SI")),
        ("Aevora S REF to Margalb", Support("AE", REF, "MA")),
        ("Erenhaz build", Build("EH")),
        ("Erenhaz farm", Farm("EH")),
        ("REF to Margalb", Reinforce("MA")),
        ("REF Jilch Nar", Reinforce("JN")),
    ],
)
def test_full_names_are_accepted_wherever_an_id_is(text: str, order: Order) -> None:
    assert orders_of(text) == [order]


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("EH->AE", Move("EH", "AE")),
        ("EH>AE", Move("EH", "AE")),
        ("EH ->AE", Move("EH", "AE")),
        ("EH-> AE", Move("EH", "AE")),
        ("Betts Frond->Jilch Nar", Move("BF", "JN")),
        ("OG S RG->SI", Support("OG", "RG", "SI")),
        ("OG S RG>SI", Support("OG", "RG", "SI")),
        ("AE S REF->MA", Support("AE", REF, "MA")),
        ("REF->MA", Reinforce("MA")),
        ("REF>MA", Reinforce("MA")),
    ],
)
def test_arrows_need_no_spaces(text: str, order: Order) -> None:
    assert orders_of(text) == [order]


def test_several_orders_separated_by_commas_and_new_lines() -> None:
    parsed = parse_orders("SI H, FI S SI\nRG to SI\r\nOG S RG to SI,REF to MA", BOARD)
    assert [p.text for p in parsed] == [
        "SI H",
        "FI S SI",
        "RG to SI",
        "OG S RG to SI",
        "REF to MA",
    ]
    assert [p.order for p in parsed] == [
        Hold("SI"),
        Support("FI", "SI"),
        Move("RG", "SI"),
        Support("OG", "RG", "SI"),
        Reinforce("MA"),
    ]


def test_empty_pieces_between_separators_are_not_orders() -> None:
    assert split_orders(" ,, SI H ,\n\n, ,\r\nEH B,  ") == ["SI H", "EH B"]
    assert orders_of(",\n SI H ,,\n") == [Hold("SI")]
    assert parse_orders(" , \n\r\n ,, ", BOARD) == []
    assert parse_orders("", BOARD) == []


def test_a_bad_order_does_not_spoil_its_neighbours() -> None:
    parsed = parse_orders("SI H, XX to YY, EH->AE", BOARD)
    assert [(p.order, p.error) for p in parsed] == [
        (Hold("SI"), None),
        (None, "no such territory: XX"),
        (Move("EH", "AE"), None),
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("XX to SI", "no such territory: XX"),
        ("SI to XX", "no such territory: XX"),
        ("Betts Frondx to SI", "no such territory: Betts Frondx"),
        ("FI S XX", "no such territory: XX"),
        ("FI S RG to Nowhere Land", "no such territory: Nowhere Land"),
        ("REF to XX", "no such territory: XX"),
        ("SI-RG", "no such territory: SI-RG"),
        ("jump SI", "no such territory: jump"),
        ("SI", "incomplete order, expected H, to, S, B or F after SI: SI"),
        ("Jilch Nar", "incomplete order, expected H, to, S, B or F after Jilch Nar: Jilch Nar"),
        ("SI to", "a move is written <army> to <territory>: SI to"),
        ("SI to RG to FI", "a move is written <army> to <territory>: SI to RG to FI"),
        (
            "SI S",
            "a support is written <army> S <army> [H] or <army> S <army> to <territory>: SI S",
        ),
        (
            "SI S RG to",
            "a support is written <army> S <army> [H] or <army> S <army> to <territory>: "
            "SI S RG to",
        ),
        ("REF", "a reinforcement is written REF to <barracks>: REF"),
        ("REF to", "a reinforcement is written REF to <barracks>: REF to"),
        ("REF H", "a reinforcement is written REF to <barracks>: REF H"),
        (
            "SI jump RG",
            "unknown order word after SI, expected H, to, S, B or F: SI jump RG",
        ),
        (
            "Simm attacks Regelix",
            "unknown order word after Simm, expected H, to, S, B or F: Simm attacks Regelix",
        ),
        ("SI H H", "unexpected 'H' after SI H: SI H H"),
        ("Simm hold to", "unexpected 'to' after Simm hold: Simm hold to"),
        ("EH B B", "unexpected 'B' after EH B: EH B B"),
        ("to SI", "an order starts with a territory or REF, not 'to': to SI"),
        ("H", "an order starts with a territory or REF, not 'H': H"),
        ("->", "an order starts with a territory or REF, not '->': ->"),
    ],
)
def test_precise_errors(text: str, error: str) -> None:
    assert error_of(text) == error


# Never raises, on anything.

VOCABULARY = [
    *IDS,
    *NAMES.values(),
    "REF",
    "H",
    "hold",
    "to",
    "->",
    ">",
    "-",
    ">>",
    "S",
    "supports",
    "B",
    "build",
    "F",
    "farm",
    "xx",
    "Betts",
    "Nar",
    "é",
    "日本",
    "\u200b",
    "\x00",
    ",",
    "\n",
    "\r",
]


def check_never_raises(text: str) -> None:
    parsed = parse_orders(text, BOARD)
    pieces = split_orders(text)
    # A piece is reported as typed, cut after MAX_ORDER_LENGTH.
    assert [p.text for p in parsed] == [clipped(piece) for piece in pieces]
    for piece in parsed:
        assert piece.text
        assert (piece.order is None) != (piece.error is None), piece
        if piece.error is not None:
            assert piece.error.strip()
            assert "\n" not in piece.error


@settings(max_examples=300)
@given(st.text())
def test_parser_never_raises_on_arbitrary_text(text: str) -> None:
    check_never_raises(text)


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(VOCABULARY), max_size=12),
    st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=12, max_size=12),
)
def test_parser_never_raises_on_order_like_text(words: list[str], gaps: list[str]) -> None:
    text = "".join(gap + word for gap, word in zip(gaps, words, strict=False))
    check_never_raises(text)


@given(st.text(alphabet=",\n\r \t", max_size=200))
def test_only_separators_give_no_orders(text: str) -> None:
    assert parse_orders(text, BOARD) == []


@pytest.mark.parametrize(
    "text",
    [
        "SI H, " * 5_000,
        "x" * 100_000,
        "Betts Frond" + "->" * 20_000 + "Jilch Nar",
        "SI" + " S" * 10_000,
        "REF " * 5_000,
        ",\n" * 50_000,
        "é日本\u200b" * 10_000,
    ],
    ids=[
        "many-orders",
        "one-long-word",
        "many-arrows",
        "many-keywords",
        "many-refs",
        "separators",
        "unicode",
    ],
)
def test_parser_never_raises_on_long_text(text: str) -> None:
    check_never_raises(text)


def test_many_orders_in_one_submission_are_all_parsed() -> None:
    assert orders_of("SI H, " * 5_000) == [Hold("SI")] * 5_000


# Written orders read back as the order that was written, however they are spelt.

KINDS = ["hold", "move", "support hold", "support move", "support ref", "build", "farm", "ref"]


@st.composite
def written_orders(draw: st.DrawFn) -> tuple[str, Order]:
    def territory() -> tuple[str, str]:
        tid = draw(st.sampled_from(IDS))
        return tid, draw(st.sampled_from([tid, NAMES[tid]]))

    def spelt(word: str) -> str:
        return draw(st.sampled_from([word, word.lower(), word.upper(), word.title()]))

    def keyword(*forms: str) -> str:
        return spelt(draw(st.sampled_from(forms)))

    def move_word() -> str:
        return draw(st.sampled_from(["to", "TO", "To", "->", ">"]))

    kind = draw(st.sampled_from(KINDS))
    a, a_text = territory()
    b, b_text = territory()
    c, c_text = territory()
    words: list[str]
    order: Order
    if kind == "hold":
        words, order = [spelt(a_text), keyword("H", "hold")], Hold(a)
    elif kind == "move":
        words, order = [spelt(a_text), move_word(), spelt(b_text)], Move(a, b)
    elif kind == "support hold":
        words = [spelt(a_text), keyword("S", "support", "supports"), spelt(b_text)]
        if draw(st.booleans()):
            words.append(keyword("H", "hold"))
        order = Support(a, b)
    elif kind == "support move":
        words = [
            spelt(a_text),
            keyword("S", "support", "supports"),
            spelt(b_text),
            move_word(),
            spelt(c_text),
        ]
        order = Support(a, b, c)
    elif kind == "support ref":
        words = [spelt(a_text), keyword("S", "support"), keyword("REF")]
        if draw(st.booleans()):
            words.append(move_word())
        words.append(spelt(c_text))
        order = Support(a, REF, c)
    elif kind == "build":
        words, order = [spelt(a_text), keyword("B", "build")], Build(a)
    elif kind == "farm":
        words, order = [spelt(a_text), keyword("F", "farm")], Farm(a)
    else:
        words = [keyword("REF")]
        if draw(st.booleans()):
            words.append(move_word())
        words.append(spelt(c_text))
        order = Reinforce(c)
    text = words[0]
    for before, word in itertools.pairwise(words):
        if word in ("->", ">") or before in ("->", ">"):
            # An arrow may touch its neighbours.
            gap = draw(st.sampled_from(["", " ", "  "]))
        else:
            gap = draw(st.sampled_from([" ", "  ", "\t"]))
        text += gap + word
    return draw(st.sampled_from(["", " ", "\t"])) + text, order


@settings(max_examples=300)
@given(written_orders())
def test_every_written_order_reads_back(written: tuple[str, Order]) -> None:
    text, order = written
    assert parse_orders(text, BOARD) == [ParsedOrder(text.strip(), order=order)]


@settings(max_examples=50)
@given(
    st.lists(written_orders(), min_size=1, max_size=8),
    st.lists(st.sampled_from([",", "\n", "\r\n", " , ", ",\n", "\n\n"]), min_size=8, max_size=8),
)
def test_several_written_orders_read_back_in_order(
    written: list[tuple[str, Order]], separators: list[str]
) -> None:
    text = "".join(
        piece + separator for (piece, _), separator in zip(written, separators, strict=False)
    )
    assert orders_of(text) == [order for _, order in written]


# The instant check of one submission against a position.

POSITION = Position(
    armies={"SI": "red", "FI": "red", "EH": "red", "VJ": "red", "RG": "blue", "OG": "blue"},
    control={
        "SI": "red",
        "FI": "red",
        "EH": "red",
        "VJ": "red",
        "MA": "red",
        "AE": "red",
        "KU": "red",
        "RG": "blue",
        "OG": "blue",
        "MJ": "blue",
    },
    farms=frozenset({"KU"}),
)


def check(text: str, player: str = "red", effect: Effect | None = None) -> list[str | None]:
    checked = check_submission(player, text, BOARD, Situation(BOARD, POSITION, effect))
    return [c.reason for c in checked]


def test_check_submission_keeps_every_order_with_player_and_text() -> None:
    checked = check_submission(
        "red", "SI H, FI S SI\nEH to XX", BOARD, Situation(BOARD, POSITION, None)
    )
    assert checked == (
        CheckedOrder("red", "SI H", Hold("SI")),
        CheckedOrder("red", "FI S SI", Support("FI", "SI")),
        CheckedOrder("red", "EH to XX", None, "no such territory: XX"),
    )


@pytest.mark.parametrize(
    "text",
    [
        "SI H",
        "SI to RG",
        "Simm -> Regelix",
        "FI S SI",
        "FI S RG",
        "SI S FI to RG",
        "FI S SI to RG",
        "EH B",
        "VJ to RW",
        "FI S REF to MA",
        "EH S REF to AE",
    ],
)
def test_valid_orders_have_no_reason(text: str) -> None:
    assert check(text) == [None]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("RG H", "not your army: RG"),
        ("RG to SI", "not your army: RG"),
        ("MA H", "no army in MA"),
        ("SI to MA", "not adjacent: SI to MA"),
        ("SI to SI", "not adjacent: SI to SI"),
        ("FI S OG to RG", "not adjacent: OG to RG"),
        ("EH S RG to FI", "supporter not adjacent to the destination: EH to FI"),
        ("EH S SI", "supporter not adjacent to the destination: EH to SI"),
        ("SI S SI to RG", "an army cannot support its own move: SI"),
        ("SI B", "build outside a barracks: SI"),
        ("EH F", "farm outside a farm: EH"),
        ("XX H", "no such territory: XX"),
        ("SI", "incomplete order, expected H, to, S, B or F after SI: SI"),
    ],
)
def test_invalid_orders_say_why(text: str, reason: str) -> None:
    assert check(text) == [reason]


def test_reinforcement_needs_more_barracks_than_armies() -> None:
    # red controls three barracks (EH, AE, MA; KU is a farm) and has four armies.
    assert check("REF to MA") == ["no reinforcement allowed: 3 barracks and 4 armies"]
    # blue controls one barracks (MJ) and has two armies.
    assert check("REF to MJ", player="blue") == [
        "no reinforcement allowed: 1 barracks and 2 armies"
    ]
    assert check("REF to MA", effect=Effect.MOBILIZE) == [None]


@pytest.mark.parametrize(
    "target",
    [
        "SI",  # not a barracks
        "MJ",  # another player's barracks
        "KU",  # a farm, no longer a barracks
        "KH",  # nobody's territory
    ],
)
def test_reinforcement_target_must_be_a_barracks_of_the_player(target: str) -> None:
    assert check(f"REF to {target}", effect=Effect.MOBILIZE) == [
        f"reinforcement target not a barracks you control: {target}"
    ]


def test_effects_forbid_orders() -> None:
    assert check("VJ to RW", effect=Effect.STORM) == [
        "STORM closes the overseas connection: VJ to RW"
    ]
    assert check("SI to RG", effect=Effect.TRUCE) == [
        "TRUCE forbids moving into another player's army: RG"
    ]
    # TRUCE leaves moves into empty territories alone, STORM ordinary edges.
    assert check("FI to MA", effect=Effect.TRUCE) == [None]
    assert check("SI to RG", effect=Effect.STORM) == [None]


def test_later_orders_do_not_hide_earlier_ones() -> None:
    # The instant check reports every order; which one is carried out is the resolver's
    # business (newest valid order wins).
    assert check("SI H, SI to RG, SI to MA") == [None, None, "not adjacent: SI to MA"]


def test_a_line_longer_than_any_order_is_refused_unquoted_and_reported_cut() -> None:
    line = "SI to " + "x" * MAX_ORDER_LENGTH
    parsed = parse_order(line, BOARD)
    assert parsed.error == f"not an order: longer than {MAX_ORDER_LENGTH} characters"
    assert parsed.text == line[:MAX_ORDER_LENGTH] + "\u2026"


def test_a_reason_quotes_at_most_forty_characters() -> None:
    parsed = parse_order("Q" * MAX_ORDER_LENGTH, BOARD)
    assert parsed.error == f"no such territory: {'Q' * 40}\u2026"
    parsed = parse_order("SI jump " + "z" * 80, BOARD)
    assert parsed.error is not None
    assert "z" * 41 not in parsed.error
