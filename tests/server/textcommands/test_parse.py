"""Command text -> request: every command, its arguments, and the problems with bad ones."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from schema.api import NewGame
from schema.bounds import MAX_SEED
from server.commands.parse import (
    COMMANDS,
    DEFAULT_GAME_NAME,
    Problem,
    Request,
    parse,
    parse_flag,
    parse_hour,
    parse_number,
    parse_options,
)

RULEBOOK_COMMANDS = {
    "submit", "list", "vote", "join_forces", "color", "pattern", "notifications",
    "refresh_name", "broadcast", "resign", "join", "help", "cheat_sheet", "hint",
    "call_of_duty_loading_screen", "setup", "advanced_setup", "start", "pause", "unpause",
    "broadcasting", "ban", "unban", "resolution_time", "local_time", "fast_mode", "kill_room",
    "rewind",
}  # fmt: skip
# This server's own: resolve now, the list of admins (the rulebook's admin role), forks and
# a real fork's invitations.
SERVER_COMMANDS = {"resolve", "add_admin", "remove_admin", "fork", "claim", "decline"}


def request(text: str) -> Request:
    parsed = parse(text)
    assert isinstance(parsed, Request), parsed
    return parsed


def problem(text: str) -> Problem:
    parsed = parse(text)
    assert isinstance(parsed, Problem), parsed
    return parsed


def test_every_command_of_the_rulebook_is_known() -> None:
    assert set(COMMANDS) == RULEBOOK_COMMANDS | SERVER_COMMANDS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/submit BL S CR to SL, TR H", Request("submit", text="BL S CR to SL, TR H")),
        ("/submit\nBL H\nTR H", Request("submit", text="BL H\nTR H")),
        ("/list", Request("list")),
        ("/vote FEAST", Request("vote", text="FEAST")),
        ("/vote land grab", Request("vote", text="land grab")),
        ("/join_forces @FictitiousFiona", Request("join_forces", text="@FictitiousFiona")),
        ("/join_forces p2", Request("join_forces", text="p2")),
        ("/color 16", Request("color", number=16)),
        ("/pattern 5", Request("pattern", number=5)),
        ("/notifications false", Request("notifications", flag=False)),
        ("/notifications TRUE", Request("notifications", flag=True)),
        ("/refresh_name", Request("refresh_name")),
        ("/refresh_name Fiona the Bold", Request("refresh_name", text="Fiona the Bold")),
        ("/broadcast Red is lying!", Request("broadcast", text="Red is lying!")),
        ("/resign", Request("resign")),
        ("/join", Request("join")),
        ("/join Fiona", Request("join", text="Fiona")),
        ("/claim", Request("claim")),
        ("/decline", Request("decline")),
        ("/help", Request("help")),
        ("/cheat_sheet", Request("cheat_sheet")),
        ("/hint", Request("hint")),
        ("/call_of_duty_loading_screen", Request("call_of_duty_loading_screen")),
        ("/setup", Request("setup")),
        ("/setup Friday Night", Request("setup", text="Friday Night")),
        ("/start", Request("start")),
        ("/pause", Request("pause")),
        ("/unpause", Request("unpause")),
        ("/broadcasting off", Request("broadcasting", flag=False)),
        ("/ban @JohnFakeName", Request("ban", text="@JohnFakeName")),
        ("/unban @JohnFakeName", Request("unban", text="@JohnFakeName")),
        ("/resolution_time 6AM", Request("resolution_time", number=6)),
        ("/resolution_time 14", Request("resolution_time", number=14)),
        ("/local_time 2PM", Request("local_time", number=14)),
        ("/fast_mode true", Request("fast_mode", flag=True)),
        ("/kill_room", Request("kill_room")),
        ("/rewind", Request("rewind")),
        ("/rewind players misread the rules", Request("rewind", text="players misread the rules")),
        ("/resolve", Request("resolve")),
    ],
)
def test_each_command_parses(text: str, expected: Request) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize("text", ["/HELP", "help", "  /Help  ", "HeLp"])
def test_names_are_case_insensitive_and_the_slash_optional(text: str) -> None:
    assert parse(text) == Request("help")


def test_a_dash_may_stand_for_an_underscore() -> None:
    assert parse("/join-forces @Ann") == Request("join_forces", text="@Ann")


def test_spaces_after_the_name_and_around_the_argument_are_dropped() -> None:
    assert parse("/color    7  ") == Request("color", number=7)


@pytest.mark.parametrize(
    ("text", "usage"),
    [
        ("/submit", "/submit <orders>"),
        ("/vote", "/vote <EFFECT>"),
        ("/join_forces", "/join_forces <@name or player id>"),
        ("/join_forces   ", "/join_forces <@name or player id>"),
        ("/color", "/color <1-20>"),
        ("/color purple", "/color <1-20>"),
        ("/color 1.5", "/color <1-20>"),
        ("/color 1234567890", "/color <1-20>"),
        ("/pattern five", "/pattern <1-16>"),
        ("/notifications maybe", "/notifications <true|false>"),
        ("/notifications", "/notifications <true|false>"),
        ("/broadcast", "/broadcast <message>"),
        ("/broadcasting sometimes", "/broadcasting <true|false>"),
        ("/fast_mode 15", "/fast_mode <true|false>"),
        ("/ban", "/ban <@name>"),
        ("/unban", "/unban <@name>"),
        ("/start now", "/start"),
        ("/list all", "/list"),
        ("/resign please", "/resign"),
        ("/hint me", "/hint"),
    ],
)
def test_bad_arguments_give_the_usage_line(text: str, usage: str) -> None:
    found = problem(text)
    assert found.usage is not None
    assert found.usage.startswith(usage)
    assert found.message


def test_a_missing_argument_says_what_is_needed() -> None:
    assert problem("/color").message == "/color needs a number."
    assert problem("/notifications").message == "/notifications needs true or false."
    assert problem("/ban").message == "/ban needs a player: @name or a player id."
    assert problem("/resolution_time").message == "/resolution_time needs an hour."


def test_an_unknown_command_is_named_and_a_close_one_suggested() -> None:
    found = problem("/sumbit BL H")
    assert found.message == "Unknown command: /sumbit."
    assert found.suggestion == "/submit"
    assert found.usage is None


def test_an_unknown_command_without_a_close_one_suggests_nothing() -> None:
    found = problem("BL H")
    assert found.message == "Unknown command: /BL."
    assert found.suggestion is None
    assert found.unknown
    assert not problem("/start now").unknown


def test_an_empty_text_is_a_problem() -> None:
    assert "/help" in problem("   \n ").message


def test_a_long_unknown_command_is_cut_short_in_the_message() -> None:
    assert len(problem("/" + "x" * 5000).message) < 80


@pytest.mark.parametrize(
    ("text", "hour"),
    [
        ("0", 0),
        ("00", 0),
        ("6", 6),
        ("06", 6),
        ("23", 23),
        ("12AM", 0),
        ("12am", 0),
        ("1AM", 1),
        ("6AM", 6),
        ("6 AM", 6),
        ("6 a.m.", 6),
        ("11PM", 23),
        ("12PM", 12),
        ("12 pm", 12),
        ("1PM", 13),
        ("2PM", 14),
        ("2p.m.", 14),
        ("noon", 12),
        ("Midnight", 0),
    ],
)
def test_hours(text: str, hour: int) -> None:
    assert parse_hour(text) == hour


@pytest.mark.parametrize(
    "text", ["24", "-1", "0AM", "0PM", "13AM", "13PM", "99", "6:30", "six", "", "PM", "6XM"]
)
def test_not_hours(text: str) -> None:
    with pytest.raises(ValueError, match="not an hour"):
        parse_hour(text)


def test_hour_commands_refuse_what_is_not_an_hour() -> None:
    assert problem("/resolution_time 13PM").message == (
        "13PM is not an hour: with AM or PM, use 1-12."
    )
    assert problem("/local_time 24").message == "24 is not an hour: use 0-23."


@pytest.mark.parametrize(
    ("text", "flag"),
    [("true", True), ("On", True), ("yes", True), ("false", False), ("OFF", False), ("no", False)],
)
def test_flags(text: str, flag: bool) -> None:
    assert parse_flag(text) is flag


def test_numbers() -> None:
    assert parse_number("16") == 16
    assert parse_number("+3") == 3
    assert parse_number("-2") == -2
    with pytest.raises(ValueError, match="whole number"):
        parse_number("2e3")


def test_advanced_setup_reads_every_option() -> None:
    parsed = request(
        "/advanced_setup vp=15 current_hour=6AM fast_mode_enabled=true resolution_hour=2PM "
        'votes=every_turn vote_start_turn=4 map_type=spacious voting_mode="same day" '
        'hints=false name="Friday Night"'
    )
    assert parsed.setup == NewGame(
        name="Friday Night",
        vp_target=15,
        current_hour=6,
        fast_mode=True,
        resolution_hour=14,
        votes="every_turn",
        vote_start_turn=4,
        map_type="spacious",
        voting_mode="same_day",
        hints=False,
    )


def test_advanced_setup_takes_discord_style_options_and_api_extras() -> None:
    parsed = request(
        "/advanced_setup vp:12 votes:every-other-turn seed=42 map=rulebook sandbox=yes "
        "broadcasting=off"
    )
    assert parsed.setup == NewGame(
        name=DEFAULT_GAME_NAME,
        vp_target=12,
        votes="every_other_turn",
        seed=42,
        map="rulebook",
        sandbox=True,
        broadcasting=False,
    )


def test_advanced_setup_without_options_is_the_default_game() -> None:
    assert request("/advanced_setup").setup == NewGame(name=DEFAULT_GAME_NAME)
    named = request("/advanced_setup game=skirmish_society vp=12").setup
    assert named == NewGame(name=DEFAULT_GAME_NAME, vp_target=12)


def test_another_game_takes_its_own_options_read_as_json_where_they_read() -> None:
    parsed = request(
        '/advanced_setup game="Art of War" map=world deadline=3600 intrigue=true '
        "draw=null sandbox=yes"
    )
    assert parsed.setup == NewGame(
        name="art-of-war",
        game="art-of-war",
        sandbox=True,
        options={"map": "world", "deadline": 3600, "intrigue": True, "draw": None},
    )
    named = request('/advanced_setup name="Long War" game=skor round_limit=40').setup
    assert named == NewGame(name="Long War", game="skor", options={"round_limit": 40})
    problem = parse("/advanced_setup game=skor turn_time=60 turn_time=90")
    assert isinstance(problem, Problem)
    assert problem.message == "turn_time is given twice."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("vp", "Options are written key=value, not 'vp'."),
        ("vp=", "vp needs a value."),
        ("colour=3", "Unknown option: colour."),
        ("vp=3 vp=4", "vp is given twice."),
        ("vp=ten", "'ten' is not a whole number."),
        ("current_hour=25", "25 is not an hour: use 0-23."),
        ("resolution_hour=0PM", "0PM is not an hour: with AM or PM, use 1-12."),
        ("fast_mode_enabled=perhaps", "'perhaps' is neither true nor false."),
        ("votes=sometimes", "votes is one of every_turn, every_other_turn, disabled."),
        ("map_type=huge", "map_type is one of normal, spacious."),
        ("voting_mode=secret", "voting_mode is one of normal, same_day."),
        ('name="unclosed', "The options do not read: No closing quotation."),
        ("seed=-1", f"seed is a whole number from 0 to {MAX_SEED}."),
        (f"seed={MAX_SEED + 1}", f"seed is a whole number from 0 to {MAX_SEED}."),
    ],
)
def test_advanced_setup_refuses_bad_options(options: str, message: str) -> None:
    found = problem(f"/advanced_setup {options}")
    assert found.message == message
    assert found.usage is not None
    assert found.usage.startswith("/advanced_setup [vp=N]")


def test_parse_options_keeps_a_name_with_spaces_and_colons() -> None:
    assert parse_options('name:"Round 2: the rematch"').name == "Round 2: the rematch"


@given(st.text(max_size=300))
def test_any_text_is_a_request_or_a_problem(text: str) -> None:
    assert isinstance(parse(text), Request | Problem)


@given(st.sampled_from(sorted(COMMANDS)), st.text(max_size=80))
def test_any_argument_to_any_command_is_a_request_or_a_problem(name: str, argument: str) -> None:
    parsed = parse(f"/{name} {argument}")
    assert isinstance(parsed, Request | Problem)
    if isinstance(parsed, Problem):
        assert parsed.usage == COMMANDS[name].usage
