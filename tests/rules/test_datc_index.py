"""docs/datc.md lists every DATC case of sections 6.A to 6.E, and agrees with the golden
files: each translated case has its file (named after its number, with a matching
`source`), and each file is listed."""

import json
import re
from pathlib import Path

HERE = Path(__file__).parent
INDEX = HERE.parent.parent / "docs" / "datc.md"
FOLDERS = (HERE / "cases" / "datc",)
ROW = re.compile(r"^\| (6\.[A-E]\.\d+) \| [^|]+ \| (translated|skipped)\b(.*)\|$")
SECTION_SIZES = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15}


def _rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in INDEX.read_text().splitlines():
        match = ROW.match(line)
        if match:
            number, status, rest = match.groups()
            assert number not in rows, number
            rows[number] = (status, rest)
    return rows


def test_every_case_of_sections_a_to_e_is_listed() -> None:
    rows = _rows()
    expected = {
        f"6.{section}.{n}" for section, size in SECTION_SIZES.items() for n in range(1, size + 1)
    }
    assert set(rows) == expected


def test_translated_cases_and_files_agree() -> None:
    files = {p.stem: p for folder in FOLDERS for p in folder.glob("*.json")}
    translated = set()
    for number, (status, rest) in _rows().items():
        stem = number.replace(".", "_")
        if status == "translated":
            translated.add(stem)
            assert f"{stem}.json" in rest, number
            assert stem in files, number
        else:
            assert rest.strip(" :"), f"{number}: a skipped case needs a reason"
    assert set(files) == translated
    for stem, path in files.items():
        assert json.loads(path.read_text())["source"] == "DATC " + stem.replace("_", "."), path
    assert len(translated) >= 50
