// The players' looks: 20 colours (/color 1-20) and 16 patterns (/pattern 1-16; 9-16 are the
// High Society ones), as SVG paint, plus the icons of the map.

import { svgEl } from "./util.js";

// Index = the colour's number; /color 16 is purple, as in the rulebook.
export const COLORS = [
  null,
  { name: "red", hex: "#d7263d" },
  { name: "blue", hex: "#1f5fbf" },
  { name: "green", hex: "#2e9a3e" },
  { name: "yellow", hex: "#e8b511" },
  { name: "orange", hex: "#ee7b1a" },
  { name: "teal", hex: "#14a0a0" },
  { name: "pink", hex: "#e36aa8" },
  { name: "brown", hex: "#8b5a2b" },
  { name: "lime", hex: "#8cc63e" },
  { name: "navy", hex: "#24346f" },
  { name: "maroon", hex: "#7f1d3f" },
  { name: "olive", hex: "#7d7f2a" },
  { name: "sky", hex: "#43b0e8" },
  { name: "magenta", hex: "#c0187a" },
  { name: "gold", hex: "#c79a1e" },
  { name: "purple", hex: "#7b3fb5" },
  { name: "grey", hex: "#7c8587" },
  { name: "black", hex: "#2a2a2a" },
  { name: "white", hex: "#f2f2f2" },
  { name: "coral", hex: "#f2826b" },
];

export const PATTERN_NAMES = [
  null,
  "plain",
  "stripes",
  "back stripes",
  "bands",
  "columns",
  "dots",
  "grid",
  "checks",
  "zigzag",
  "waves",
  "triangles",
  "diamonds",
  "rings",
  "crosses",
  "bricks",
  "stars",
];

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
  const base = colorOf(number).hex;
  const light = number === 19 ? "#ffffff" : mix(base, "#ffffff", 0.5);
  const ink = number === 19 ? "#9a9a9a" : base;
  return { base, light, ink };
}

const TILE = 16;

// The shapes of pattern `n` on one 16 x 16 tile, in colour `ink`.
function tileShapes(n, ink) {
  const line = { stroke: ink, "stroke-width": 3, fill: "none", "stroke-linecap": "square" };
  const thin = { ...line, "stroke-width": 1.6 };
  const solid = { fill: ink };
  switch (n) {
    case 2:
      return [svgEl("path", { d: "M-4,4 l8,-8 M0,16 l16,-16 M12,20 l8,-8", ...line })];
    case 3:
      return [svgEl("path", { d: "M-4,12 l8,8 M0,0 l16,16 M12,-4 l8,8", ...line })];
    case 4:
      return [svgEl("rect", { x: 0, y: 2, width: 16, height: 4, ...solid })];
    case 5:
      return [svgEl("rect", { x: 2, y: 0, width: 4, height: 16, ...solid })];
    case 6:
      return [
        svgEl("circle", { cx: 4, cy: 4, r: 2.4, ...solid }),
        svgEl("circle", { cx: 12, cy: 12, r: 2.4, ...solid }),
      ];
    case 7:
      return [svgEl("path", { d: "M0,4 h16 M0,12 h16 M4,0 v16 M12,0 v16", ...thin })];
    case 8:
      return [
        svgEl("rect", { x: 0, y: 0, width: 8, height: 8, ...solid, opacity: 0.6 }),
        svgEl("rect", { x: 8, y: 8, width: 8, height: 8, ...solid, opacity: 0.6 }),
      ];
    case 9:
      return [svgEl("polyline", { points: "0,12 4,4 8,12 12,4 16,12", ...thin, "stroke-width": 2 })];
    case 10:
      return [svgEl("path", { d: "M0,8 q4,-6 8,0 t8,0", ...thin, "stroke-width": 2 })];
    case 11:
      return [svgEl("polygon", { points: "8,3 13.5,13 2.5,13", ...solid, opacity: 0.8 })];
    case 12:
      return [svgEl("polygon", { points: "8,2 14,8 8,14 2,8", ...solid, opacity: 0.6 })];
    case 13:
      return [svgEl("circle", { cx: 8, cy: 8, r: 4.5, ...thin, "stroke-width": 2 })];
    case 14:
      return [svgEl("path", { d: "M8,3 v10 M3,8 h10", ...line, "stroke-width": 2.5 })];
    case 15:
      return [svgEl("path", { d: "M0,1 h16 M0,9 h16 M4,1 v8 M12,9 v7", ...thin })];
    case 16:
      return [
        svgEl("polygon", {
          points: "8,2 9.6,6.4 14,6.4 10.4,9.2 11.8,13.6 8,10.9 4.2,13.6 5.6,9.2 2,6.4 6.4,6.4",
          ...solid,
          opacity: 0.85,
        }),
      ];
    default:
      return [];
  }
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
    svgEl("g", { transform: "translate(4 4) scale(0.5)" }, tileShapes(pattern, ink)),
    svgEl("path", {
      d: "M0,13 h16",
      stroke: ink,
      "stroke-width": 1.8,
      "stroke-dasharray": "3 1",
      fill: "none",
    }),
  );
  return [land, farm];
}

// Unclaimed land, and unclaimed farms.
export const UNCLAIMED = "#f1ead6";

export function unclaimedPatterns() {
  return [
    svgEl(
      "pattern",
      { id: "farm-none", width: TILE, height: TILE, patternUnits: "userSpaceOnUse" },
      svgEl("rect", { width: TILE, height: TILE, fill: UNCLAIMED }),
      svgEl("path", {
        d: "M0,5 h16 M0,13 h16",
        stroke: "#a88a5a",
        "stroke-width": 1.8,
        "stroke-dasharray": "3 1",
      }),
    ),
  ];
}

// The map's icons, as <symbol>s: barracks, farm, and the army (coloured by `color`).
export function iconSymbols() {
  const dark = "#222";
  return [
    svgEl(
      "symbol",
      { id: "icon-barracks", viewBox: "0 0 20 20" },
      svgEl("rect", { x: 0.5, y: 0.5, width: 19, height: 19, rx: 4, fill: "#fff", stroke: dark }),
      svgEl("path", {
        d: "M4,16 V7 h2.5 v2 h2 V7 h3 v2 h2 V7 H16 V16 Z",
        fill: "#4a4a4a",
      }),
      svgEl("path", { d: "M8.7,16 v-3.4 a1.3,1.3 0 0 1 2.6,0 V16 Z", fill: "#fff" }),
    ),
    svgEl(
      "symbol",
      { id: "icon-farm", viewBox: "0 0 20 20" },
      svgEl("rect", { x: 0.5, y: 0.5, width: 19, height: 19, rx: 4, fill: "#fff", stroke: dark }),
      svgEl("path", { d: "M3.5,16.5 V9 L10,3.5 16.5,9 V16.5 Z", fill: "#a23b2a" }),
      svgEl("path", {
        d: "M7.5,16.5 V11 h5 V16.5 M7.5,11 l5,5.5 M12.5,11 l-5,5.5",
        stroke: "#fff",
        "stroke-width": 1.1,
        fill: "none",
      }),
    ),
    // An army: a pawn, 26 high, centred; its colour is the <use>'s `color`.
    svgEl(
      "symbol",
      { id: "icon-army", viewBox: "-14 -15 28 30", overflow: "visible" },
      svgEl("path", {
        d: "M-10,12 Q-10,-1 0,-2 Q10,-1 10,12 Z",
        fill: "currentColor",
        stroke: dark,
        "stroke-width": 1.8,
        "stroke-linejoin": "round",
      }),
      svgEl("circle", {
        cx: 0,
        cy: -7.5,
        r: 5.5,
        fill: "currentColor",
        stroke: dark,
        "stroke-width": 1.8,
      }),
    ),
    // A saluting army: the pawn with its hand raised to its brow.
    svgEl(
      "symbol",
      { id: "icon-army-saluting", viewBox: "-14 -15 28 30", overflow: "visible" },
      svgEl("use", { href: "#icon-army", x: -14, y: -15, width: 28, height: 30 }),
      svgEl("path", {
        d: "M6,3 L11,-6 L5,-9",
        fill: "none",
        stroke: dark,
        "stroke-width": 4.6,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      }),
      svgEl("path", {
        d: "M6,3 L11,-6 L5,-9",
        fill: "none",
        stroke: "currentColor",
        "stroke-width": 2.2,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      }),
    ),
  ];
}
