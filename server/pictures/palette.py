"""palette.json, the web page's palette, as the server reads it: the players' colours and
patterns, the icons, the map's paint and layout."""

import json
from functools import cache
from importlib import resources
from typing import Any

Shape = dict[str, Any]  # an SVG element: {"tag": ..., attribute: value, ...}
RGB = tuple[int, int, int]
WHITE: RGB = (255, 255, 255)
_UNKNOWN_COLOR = 17  # grey, as colorOf() gives for a colour it does not know


@cache
def palette() -> dict[str, Any]:
    text = (resources.files("server") / "pages" / "js" / "palette.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def rgb(hex_color: str) -> RGB:
    """#rgb or #rrggbb."""
    digits = hex_color.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    # As palette.js's mix(): Math.round, which rounds halves up.
    return (
        int(a[0] * (1 - share) + b[0] * share + 0.5),
        int(a[1] * (1 - share) + b[1] * share + 0.5),
        int(a[2] * (1 - share) + b[2] * share + 0.5),
    )


class Shades:
    """A colour's three uses, as palette.js's shades(): the army's colour (base), the fill
    under the pattern (light), and the pattern's own colour (ink)."""

    __slots__ = ("base", "ink", "light")

    def __init__(self, number: int) -> None:
        colors: list[dict[str, str] | None] = palette()["colors"]
        found = colors[number] if 0 < number < len(colors) else None
        color = found or colors[_UNKNOWN_COLOR]
        assert color is not None
        self.base = rgb(color["hex"])
        self.light = (
            rgb(color["light"])
            if "light" in color
            else _mix(self.base, WHITE, palette()["light_share"])
        )
        self.ink = rgb(color["ink"]) if "ink" in color else self.base


def map_color(name: str) -> RGB:
    """One of the map's own colours: sea, border, dark, label, overseas, cut, vp, failed."""
    return rgb(palette()["map"][name])


def layout(name: str) -> float:
    """pad, army_drop or label_rise, in drawing units."""
    value: float = palette()["layout"][name]
    return value
