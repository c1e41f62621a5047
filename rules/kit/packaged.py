"""The games' files shipped as package data (built-in maps): the one place in `rules` that
reads a file."""

from importlib import resources


def packaged_names(package: str) -> tuple[str, ...]:
    """The names of the JSON files of `package`, without their suffix, sorted."""
    folder = resources.files(package)
    return tuple(
        sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))
    )


def packaged_json(package: str, name: str) -> bytes:
    """The bytes of `package`'s file `name`.json (one of `packaged_names`)."""
    return (resources.files(package) / f"{name}.json").read_bytes()
