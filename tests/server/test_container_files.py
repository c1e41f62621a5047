"""The Dockerfile and docker-compose.yml, read (there is no Docker engine to build them here):
the image holds every package the project installs, and compose gives the server its
operator's token and a volume to keep its own."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Top-level packages of the repository that are not installed: they run from a checkout.
NOT_INSTALLED = {"tests", "benchmarks"}


def _installed() -> set[str]:
    """The packages pyproject.toml installs (tool.setuptools.packages.find)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    return {pattern.removesuffix("*") for pattern in patterns}


def _copied() -> set[str]:
    """What the Dockerfile's COPY lines take from the build context."""
    copied: set[str] = set()
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["COPY"]:
            copied.update(source.rstrip("/") for source in words[1:-1])
    return copied


def _service(name: str) -> str:
    """The block of one service in docker-compose.yml, as text."""
    compose = (ROOT / "docker-compose.yml").read_text()
    found = re.search(rf"^  {name}:\n((?:    .*\n|\s*\n)*)", compose, re.MULTILINE)
    assert found is not None, name
    return found[1]


def test_every_package_of_the_repository_is_installed_and_in_the_image() -> None:
    packages = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_INSTALLED
    }
    assert _installed() == packages
    assert packages - _copied() == set()
    assert {"pyproject.toml", "README.md"} <= _copied()


def test_compose_passes_the_operators_token_and_keeps_the_servers_data() -> None:
    server = _service("server")
    assert "SKIRMISH_OPERATOR_TOKEN: ${SKIRMISH_OPERATOR_TOKEN:-}" in server
    dockerfile = (ROOT / "Dockerfile").read_text()
    data_dir = re.search(r"^ENV SKIRMISH_DATA_DIR=(\S+)$", dockerfile, re.MULTILINE)
    assert data_dir is not None
    # The image makes it the user's, for the user only, so that a new volume there is too.
    assert f"install -d -m 700 -o skirmish -g skirmish {data_dir[1]}\n" in dockerfile
    assert f"- server-data:{data_dir[1]}\n" in server
    assert re.search(r"^  server-data:$", (ROOT / "docker-compose.yml").read_text(), re.M)
