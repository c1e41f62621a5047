"""The map as render.js's renderMap() draws it, step for step, into a PNG: territories in
their controller's colour and pattern (farms in the farm version), labels, barracks and farm
icons, overseas connections, then a turn's orders (supports under moves under armies), the
armies (saluting reinforcements, dead armies under their killer), +VP under farmers, and an
X by a barracks for a failed reinforcement. A change to render.js belongs here too: the
browser tests compare the two pictures."""

import io
import math

from PIL import Image

from rules.skirmish.board import Territory
from rules.skirmish.turn import OrderReport
from server.pictures.canvas import Canvas
from server.pictures.geometry import Affine, Point, Subpath, path, rotate, scale, translate
from server.pictures.palette import RGB, Shades, layout, map_color, palette, rgb
from server.pictures.scene import Plan, Scene, Segment, icon_x, shorten

LONGEST_SIDE = 1024  # pixels: the picture's longest side, at most
LARGEST_SCALE = 2.0  # pixels per drawing unit, at most (for small maps)
SUPERSAMPLE = 3  # drawn this many times larger, then scaled down: smooth edges
_WHITE: RGB = (255, 255, 255)


def _line(*points: Point) -> list[Subpath]:
    return [Subpath(list(points), False)]


def _use(x: float, y: float, width: float, height: float, view_box: list[float]) -> Affine:
    """Where an SVG <use> of a <symbol> with this viewBox puts it."""
    left, top, box_width, box_height = view_box
    fitted = scale(width / box_width, height / box_height).then(translate(-left, -top))
    return translate(x, y).then(fitted)


def _tile(pixels: int, shades: Shades | None, pattern: int, farm: bool) -> Image.Image:
    """One tile of a look's land or farm pattern (None: unclaimed), as palette.js's."""
    data = palette()
    background = shades.light if shades else rgb(data["unclaimed"]["fill"])
    image = Image.new("RGBA", (pixels, pixels), (*background, 255))
    canvas = Canvas(image, scale(pixels / data["tile"]))
    if shades is None:
        canvas.shapes(data["unclaimed"]["farm_furrows"])
        return image
    paint = {"ink": shades.ink}
    shapes = data["patterns"][pattern] if 0 <= pattern < len(data["patterns"]) else []
    if farm:
        canvas.shapes(shapes, data["farm"]["pattern_transform"], paint)
        canvas.shapes(data["farm"]["furrows"], paint=paint)
    else:
        canvas.shapes(shapes, paint=paint)
    return image


class _Drawing(Plan):
    def __init__(self, scene: Scene) -> None:
        super().__init__(scene)
        box = self.box
        wanted = min(LARGEST_SCALE, LONGEST_SIDE / max(box.width, box.height))
        # A tile's side in supersampled pixels is whole, so that the tiles meet exactly.
        self.tile = max(SUPERSAMPLE, math.floor(palette()["tile"] * wanted * SUPERSAMPLE))
        unit = self.tile / palette()["tile"]
        self.size = (
            max(1, math.ceil(box.width * unit / SUPERSAMPLE)),
            max(1, math.ceil(box.height * unit / SUPERSAMPLE)),
        )
        pixels = (self.size[0] * SUPERSAMPLE, self.size[1] * SUPERSAMPLE)
        image = Image.new("RGBA", pixels, (*map_color("sea"), 255))
        self.canvas = Canvas(image, scale(unit).then(translate(-box.left, -box.top)))
        self.tiles: dict[tuple[str | None, bool], Image.Image] = {}
        self.icons = palette()["icons"]
        self.dark = map_color("dark")

    def tile_of(self, owner: str | None, farm: bool) -> Image.Image:
        found = self.tiles.get((owner, farm))
        if found is None:
            look = self.look(owner) if owner is not None else None
            shades = Shades(look[0]) if look else None
            found = _tile(self.tile, shades, look[1] if look else 0, farm)
            self.tiles[(owner, farm)] = found
        return found

    def picture(self) -> Image.Image:
        canvas = self.canvas
        self.territories_and_labels()
        shown = [o for o in self.scene.orders if o.result not in ("invalid", "replaced")]
        for order in shown:
            if order.kind == "support":
                self.support(order, shown)
        for order in shown:
            if order.kind == "move":
                self.arrow(order)
        self.armies(shown)
        self.notes(shown)
        return canvas.image.reduce(SUPERSAMPLE).convert("RGB")

    def territories_and_labels(self) -> None:
        canvas, farms = self.canvas, set(self.scene.board.farms)
        border = map_color("border")
        origin = canvas.transform.apply((0.0, 0.0))  # patterns start at the plane's origin
        for t in self.scene.map.territories:
            outline = [Subpath(list(t.outline), True)]
            owner, farm = self.controller(t.id), t.id in farms
            if owner is None and not farm:
                canvas.fill(outline, rgb(palette()["unclaimed"]["fill"]))
            else:
                canvas.fill_tiled(outline, self.tile_of(owner, farm), origin)
            canvas.stroke(outline, border, 1.6)
        for a, b in self.scene.map.overseas:
            self.overseas_link(a, b)
        rise = layout("label_rise")
        for t in self.scene.map.territories:
            canvas.text((t.x, t.y - rise + 5), t.id, 15, map_color("label"))
            kind = "farm" if t.id in farms else "barracks" if t.barracks else None
            if kind:
                icon = self.icons[kind]
                where = _use(icon_x(t), t.y - rise - 13, 17, 17, icon["viewBox"])
                canvas.shapes(icon["shapes"], where)

    def overseas_link(self, a: str, b: str) -> None:
        ta, tb = self.territories.get(a), self.territories.get(b)
        if ta is None or tb is None:
            return
        out, back = self.wrap_ends(ta, tb)
        ink = map_color("overseas")
        for start, edge, other in ((ta, out, tb), (tb, back, ta)):
            centre = (start.x, start.y)
            self.canvas.stroke(_line(centre, edge), ink, 2.4, cap="round", dash=[0.1, 6])
            below = edge[1] < centre[1]
            self.canvas.text((edge[0], edge[1] + (14 if below else -7)), other.id, 11, ink)

    def arrow(self, order: OrderReport) -> None:
        segments = self.route(order.unit, order.target)
        if not segments:
            return
        color, last = self.color(order.player), len(segments) - 1
        parts = [
            shorten(s, 14 if k == 0 else 0, 19 if k == last else 0) for k, s in enumerate(segments)
        ]
        p, q = parts[last]
        length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        base = (q[0] - ux * 13, q[1] - uy * 13)
        parts[last] = (p, base)
        head = [
            q,
            (base[0] - uy * 7.5, base[1] + ux * 7.5),
            (base[0] + uy * 7.5, base[1] - ux * 7.5),
        ]
        with self.canvas.group(1.0 if order.result == "succeeded" else 0.35):
            for width, ink in ((8.0, self.dark), (4.6, color)):
                for part in parts:
                    self.canvas.stroke(_line(*part), ink, width, cap="round")
            self.canvas.fill([Subpath(head, True)], color)
            self.canvas.stroke([Subpath(head, True)], self.dark, 1.6)

    def support(self, order: OrderReport, shown: list[OrderReport]) -> None:
        supporter = self.territories.get(order.unit or "")
        if supporter is None or order.target not in self.territories:
            return
        segments = self.route(order.unit, order.target)
        source = order.supported_from
        moving = source not in (None, order.target, "REF") and source in self.territories
        drawn = any(
            o.kind == "move" and o.unit == source and o.target == order.target for o in shown
        )
        assert order.unit is not None
        assert order.target is not None
        if moving and drawn and not self.is_overseas(order.unit, order.target):
            supported = self.route(source, order.target)
            assert supported is not None
            p, q = supported[-1]
            segments = [(self.anchor(supporter), ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))]
        if not segments:
            return
        last = len(segments) - 1
        parts: list[Segment] = [
            shorten(s, 14 if k == 0 else 0, 9 if k == last else 0) for k, s in enumerate(segments)
        ]
        cut = order.result == "cut"
        ink = map_color("cut") if cut else self.color(order.player)
        opacity = 0.55 if cut else 1.0 if order.result == "succeeded" else 0.35
        with self.canvas.group(opacity):
            for part in parts:
                if not cut:
                    self.canvas.stroke(_line(*part), self.dark, 12, dash=[3.6, 2.4], offset=0.8)
                self.canvas.stroke(_line(*part), ink, 10, dash=[2, 4])
                self.canvas.stroke(_line(*part), ink, 1.4)

    def army(
        self, t: Territory, player: str, *, saluting: bool = False, dead: bool = False
    ) -> None:
        x, y = self.anchor(t)
        paint = {"currentColor": self.color(player)}
        icon = self.icons["army"]
        place = translate(x + 15, y + 10).then(rotate(90)) if dead else translate(x, y)
        where = place.then(_use(-14, -15, 28, 30, icon["viewBox"]))
        self.canvas.shapes(icon["shapes"], where, paint)
        if saluting:
            self.canvas.shapes(self.icons["salute"]["shapes"], where, paint)
        if dead:
            cross = path("M-10,-10.5 l5,5 m0,-5 l-5,5")
            self.canvas.stroke(cross, _WHITE, 1.8, cap="round", transform=place)

    def armies(self, shown: list[OrderReport]) -> None:
        saluting = {o.target for o in shown if o.kind == "reinforce" and o.result == "succeeded"}
        for death in self.scene.dead:
            if death.territory in self.territories:
                self.army(self.territories[death.territory], death.player, dead=True)
        for tid, player in self.scene.board.armies.items():
            if tid in self.territories:
                self.army(self.territories[tid], player, saluting=tid in saluting)

    def notes(self, shown: list[OrderReport]) -> None:
        effect = self.scene.effect
        farm_vp = 2 if effect == "FEAST" else 0 if effect == "FAMINE" else 1
        rise, drop = layout("label_rise"), layout("army_drop")
        for order in shown:
            t = self.territories.get(
                (order.target if order.kind == "reinforce" else order.unit) or ""
            )
            if t is None:
                continue
            if order.kind == "farm" and order.result == "succeeded" and farm_vp > 0:
                self.canvas.text((t.x, t.y + drop + 29), f"+{farm_vp} VP", 13, map_color("vp"))
            if order.kind == "reinforce" and order.result != "succeeded":
                x, y = icon_x(t) + 23, t.y - rise - 4.5
                cross = _line((x - 4, y - 4), (x + 4, y + 4)) + _line(
                    (x + 4, y - 4), (x - 4, y + 4)
                )
                self.canvas.stroke(cross, _WHITE, 5, cap="round")
                self.canvas.stroke(cross, map_color("failed"), 2.6, cap="round")


def render_png(scene: Scene) -> bytes:
    """The scene as a PNG, at most LONGEST_SIDE pixels on its longest side."""
    image = _Drawing(scene).picture()
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()
