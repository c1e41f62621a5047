// The players' looks: 20 colours (/color 1-20) and 16 patterns (/pattern 1-16; 9-16 are the
// High Society ones), as SVG paint, plus the icons of the map. All of it is data in
// palette.json, which the server's PNG maps (server/pictures/) draw from too.

import PALETTE from "./palette.json" with { type: "json" };
import { svgEl } from "./util.js";

export { PALETTE };

// Index = the colour's number; /color 16 is purple, as in the rulebook.
export const COLORS = PALETTE.colors;

export const PATTERN_NAMES = PALETTE.pattern_names;

export function colorOf(number) {
  return COLORS[number] || COLORS[17];
}

// The number of a colour by its name ("red" is 1), for the sandbox's players.
export function colorNumberNamed(name) {
  const found = COLORS.findIndex((c) => c && c.name === String(name).toLowerCase());
  return found > 0 ? found : null;
}

function mix(hex, other, share) {
  const parse = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const a = parse(hex);
  const b = parse(other);
  const c = a.map((v, i) => Math.round(v * (1 - share) + b[i] * share));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

// The fill under a territory's pattern, and the pattern's own colour.
export function shades(number) {
  const color = colorOf(number);
  const base = color.hex;
  const light = color.light ?? mix(base, "#ffffff", PALETTE.light_share);
  const ink = color.ink ?? base;
  return { base, light, ink };
}

const TILE = PALETTE.tile;

// An SVG element from its description in palette.json; `paint` gives the colours that stand
// for names there ("ink", "light").
function shape({ tag, ...attributes }, paint = {}) {
  const painted = Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, paint[value] ?? value]),
  );
  return svgEl(tag, painted);
}

// The shapes of pattern `n` on one 16 x 16 tile, in colour `ink`.
function tileShapes(n, ink) {
  return (PALETTE.patterns[n] || []).map((s) => shape(s, { ink }));
}

// <pattern> elements for one look: the territory fill and, for farms, the "more ordered"
// version (the pattern in tidy rows, with furrows).
export function lookPatterns(id, color, pattern) {
  const { light, ink } = shades(color);
  const land = svgEl(
    "pattern",
    { id: `land-${id}`, width: TILE, height: TILE, patternUnits: "userSpaceOnUse" },
    svgEl("rect", { width: TILE, height: TILE, fill: light }),
    tileShapes(pattern, ink),
  );
  const farm = svgEl(
    "pattern",
    { id: `farm-${id}`, width: TILE, height: TILE, patternUnits: "userSpaceOnUse" },
    svgEl("rect", { width: TILE, height: TILE, fill: light }),
    svgEl("g", { transform: PALETTE.farm.pattern_transform }, tileShapes(pattern, ink)),
    PALETTE.farm.furrows.map((s) => shape(s, { ink })),
  );
  return [land, farm];
}

// Unclaimed land, and unclaimed farms.
export const UNCLAIMED = PALETTE.unclaimed.fill;

export function unclaimedPatterns() {
  return [
    svgEl(
      "pattern",
      { id: "farm-none", width: TILE, height: TILE, patternUnits: "userSpaceOnUse" },
      svgEl("rect", { width: TILE, height: TILE, fill: UNCLAIMED }),
      PALETTE.unclaimed.farm_furrows.map((s) => shape(s)),
    ),
  ];
}

// The map's icons, as <symbol>s: barracks, farm, and the army (coloured by the <use>'s
// `color`); a saluting army is the army with its hand raised to its brow.
export function iconSymbols() {
  const symbol = (id, { viewBox }, ...children) =>
    svgEl("symbol", { id, viewBox: viewBox.join(" "), overflow: "visible" }, ...children);
  const drawn = (icon) => icon.shapes.map((s) => shape(s));
  const { barracks, farm, army, salute } = PALETTE.icons;
  return [
    symbol("icon-barracks", barracks, drawn(barracks)),
    symbol("icon-farm", farm, drawn(farm)),
    symbol("icon-army", army, drawn(army)),
    symbol(
      "icon-army-saluting",
      salute,
      svgEl("use", { href: "#icon-army", x: -14, y: -15, width: 28, height: 30 }),
      drawn(salute),
    ),
  ];
}
