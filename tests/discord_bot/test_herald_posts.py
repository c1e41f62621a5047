"""The herald's parts that need no server: long texts in parts, nonces, the kept records."""

from pathlib import Path

import pytest

from client import SkirmishClient
from discord_bot.herald import Herald
from discord_bot.herald_posts import NONCE_LENGTH, nonce
from discord_bot.herald_state import Cursor, GameRecord, Member, Records, data_directory
from discord_bot.messages import LIMIT, split
from tests.discord_bot.herald_game import RecordingSink


def test_a_text_within_the_limit_is_one_part() -> None:
    assert split("Turn 1 has resolved.\nAnn: ✓ EA B") == ["Turn 1 has resolved.\nAnn: ✓ EA B"]
    assert split("x" * LIMIT) == ["x" * LIMIT]


def test_a_long_text_is_cut_between_lines_and_loses_nothing() -> None:
    lines = [f"{i}. Player {i}: {i} VP, {i} terr., {i} armies" + "." * 30 for i in range(200)]
    parts = split("\n".join(lines))
    assert len(parts) > 1
    assert all(len(part) <= LIMIT for part in parts)
    # Every part ends and starts on a whole line, and together they are the text.
    assert [line for part in parts for line in part.split("\n")] == lines


def test_a_line_longer_than_a_message_is_cut_where_it_must() -> None:
    text = "short\n" + "y" * (LIMIT * 2 + 5) + "\nend"
    parts = split(text)
    assert parts == ["short", "y" * LIMIT, "y" * LIMIT, "yyyyy\nend"]


def test_blank_parts_are_left_out() -> None:
    assert split("") == []
    assert split("\n\n") == []


def test_a_nonce_is_short_and_names_one_message_of_one_game() -> None:
    first = nonce("game1", "channel:12:resolved:0:0")
    assert len(first) == NONCE_LENGTH
    assert first == nonce("game1", "channel:12:resolved:0:0")
    assert first != nonce("game2", "channel:12:resolved:0:0")
    assert first != nonce("game1", "channel:12:resolved:0:1")


def test_a_cursor_forgets_the_keys_it_has_moved_past() -> None:
    cursor = Cursor(after=10)
    for key in ("11:event:0:0", "12:resolved:0:0", "12:resolved:0:1", "13:event:0:0"):
        cursor.note(key)
    cursor.advance(12)
    assert cursor == Cursor(after=12, sent=["13:event:0:0"])
    # Positions only grow: an older position changes nothing.
    cursor.advance(5)
    assert cursor.after == 12


def test_records_are_kept_and_read_back(tmp_path: Path) -> None:
    records = Records(tmp_path / "data")
    record = GameRecord(game="5f2c9a01b3de", channel="42", public=Cursor(after=3))
    record.members["8001"] = Member("p2", Cursor(after=2, sent=["4:reminder:0"]))
    records.save(record)
    records.save(GameRecord(game="ended", channel="42", public=Cursor(), done=True))
    assert records.load("5f2c9a01b3de") == record
    assert records.load("unknown") is None
    # A game no longer followed is not resumed; nothing is left half written.
    assert records.load_all() == [record]
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [
        "herald-5f2c9a01b3de.json",
        "herald-ended.json",
    ]


def test_a_record_edited_into_nonsense_stops_that_game_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    records = Records(tmp_path)
    record = GameRecord(game="g2", channel="42", public=Cursor(after=3))
    records.save(record)
    (tmp_path / "herald-g1.json").write_text('{"game": "g1", "chan')
    assert records.load_all() == [record]
    assert "herald-g1.json is not a herald's record" in caplog.text


def test_a_game_id_never_names_a_file_elsewhere(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a game id"):
        Records(tmp_path).load("../../etc/passwd")


def test_the_data_directory_comes_from_the_environment(tmp_path: Path) -> None:
    assert data_directory({"SKIRMISH_BOT_DATA": str(tmp_path)}) == tmp_path
    assert data_directory({}).name == "skirmish-bot"


async def test_a_long_post_goes_in_parts_each_sent_once(tmp_path: Path) -> None:
    sink = RecordingSink()
    record = GameRecord(game="g1", channel="42", public=Cursor(after=4))
    # Nothing is asked of the server: the post is made from what is given.
    async with SkirmishClient("http://127.0.0.1:9") as nowhere:
        herald = Herald(nowhere, "client-token", record, Records(tmp_path), sink)
        lines = [f"{i}. a line of the standings, long enough to add up" for i in range(100)]
        post = "\n".join(lines)
        await herald.send_post(record.public, "5:resolved:0", post, image=b"png")
        parts = list(sink.sent)
        # The same post again (a restart before the position was recorded): nothing new.
        await herald.send_post(record.public, "5:resolved:0", post, image=b"png")
    assert len(parts) == 3
    assert sink.sent == parts
    assert "\n".join(m.text for m in parts) == post
    assert [m.image for m in parts] == [b"png", None, None]
    assert len({m.nonce for m in parts}) == 3
    assert Records(tmp_path).load("g1") == record
    assert record.public.sent == ["5:resolved:0:0", "5:resolved:0:1", "5:resolved:0:2"]
