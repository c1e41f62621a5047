"""Screenshots of the rulebook's examples, as the sandbox draws them
(`/sandbox?example=<name>`), compared with the reference images committed in
tests/browser/references/.

Two pixels differ when one of their channels differs by more than CHANNEL_TOLERANCE. An
image matches its reference when at most OVERALL_TOLERANCE of all its pixels differ, and at
most TILE_TOLERANCE of the pixels of any TILE x TILE square (so that a missing arrow or army,
small beside the whole map, is still caught, while anti-aliasing noise is not).

To write the references again, after a deliberate change of the drawing:

    SKIRMISH_UPDATE_REFERENCES=1 DATABASE_URL=... .venv/bin/pytest tests/browser/test_references.py

then look at the new images before committing them.
"""

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image, ImageChops

from tests.browser.support import Server

if TYPE_CHECKING:
    from playwright.async_api import Page

REFERENCES = Path(__file__).parent / "references"
EXAMPLES = (
    "support_example_1",
    "move_example_3",
    "cut_support_example_1",
    "reinforcement_example_4",
    "reinforcement_example_3",
    "cut_support_example_3",
    "farm_example_1",
    "overseas",
)
CHANNEL_TOLERANCE = 48
OVERALL_TOLERANCE = 0.01
TILE = 16
TILE_TOLERANCE = 0.2
UPDATE = os.environ.get("SKIRMISH_UPDATE_REFERENCES") == "1"


def differing(actual: Image.Image, expected: Image.Image) -> Image.Image:
    """A mask: 255 where the pixels differ, 0 where they match."""
    red, green, blue = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB")).split()
    most = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return most.point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0)


def share(mask: Image.Image) -> float:
    histogram = mask.histogram()
    return histogram[255] / max(1, sum(histogram))


def compare(actual: Image.Image, expected: Image.Image) -> str | None:
    """Why the images do not match, or None."""
    if actual.size != expected.size:
        return f"size {actual.size} instead of {expected.size}"
    mask = differing(actual, expected)
    overall = share(mask)
    if overall > OVERALL_TOLERANCE:
        return f"{overall:.2%} of the pixels differ (at most {OVERALL_TOLERANCE:.0%})"
    width, height = mask.size
    for top in range(0, height, TILE):
        for left in range(0, width, TILE):
            tile = mask.crop((left, top, min(left + TILE, width), min(top + TILE, height)))
            if share(tile) > TILE_TOLERANCE:
                return (
                    f"{share(tile):.0%} of the {TILE}x{TILE} square at ({left}, {top}) differ "
                    f"(at most {TILE_TOLERANCE:.0%})"
                )
    return None


def test_the_comparison_catches_a_small_change() -> None:
    picture = Image.new("RGB", (400, 300), "#a8d0dc")
    changed = picture.copy()
    changed.paste((200, 30, 40), (100, 100, 110, 110))  # a third of an army
    assert compare(picture, picture.copy()) is None
    reason = compare(changed, picture)
    assert reason is not None
    assert "square" in reason
    noisy = picture.copy()
    for x in range(0, 400, 37):
        noisy.putpixel((x, 150), (0, 0, 0))  # scattered noise
    assert compare(noisy, picture) is None
    assert compare(picture.resize((401, 300)), picture) == "size (401, 300) instead of (400, 300)"


async def test_the_rulebook_examples_look_like_the_references(
    server: Server, page: "Page", tmp_path: Path
) -> None:
    from playwright.async_api import expect

    await page.set_viewport_size({"width": 1000, "height": 800})
    mismatches: list[str] = []
    for name in EXAMPLES:
        await page.goto(f"{server.base}/sandbox?example={name}")
        await expect(page.locator("#map")).to_have_attribute("data-view", "preview")
        await expect(page.locator("#check-status")).not_to_have_text("Checking…")
        shot = Image.open(io.BytesIO(await page.locator("#map").screenshot(animations="disabled")))
        reference = REFERENCES / f"{name}.png"
        if UPDATE:
            REFERENCES.mkdir(exist_ok=True)
            shot.save(reference, optimize=True)
            continue
        if not reference.exists():
            mismatches.append(f"{name}: no reference image {reference}")
            continue
        reason = compare(shot, Image.open(reference))
        if reason is not None:
            shot.save(tmp_path / f"{name}.png")
            mismatches.append(f"{name}: {reason}; this run's image: {tmp_path / name}.png")
    if UPDATE:
        pytest.skip(f"wrote {len(EXAMPLES)} reference images in {REFERENCES}")
    assert not mismatches, "\n".join(mismatches)
