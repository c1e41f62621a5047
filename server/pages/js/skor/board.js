// Skor's board as SVG (docs/skor.md, "The page"): the 40 flat-topped hexes placed from their
// axial coordinates (x = 1.5q, y = √3(r + q/2), spec §2.1), each territory tinted in its
// player's colour, the structures with their builders, stacks of up to two pieces and the
// selection the click-to-move input is making. Pure drawing: it reads a state, never the
// network.

import { svgEl, svgPoints } from "../util.js";

// dir(k) for the sides k = 1…6, clockwise from the top (rules/skor/board.py).
const DIRECTIONS = [
  [0, -1],
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
];
const dir = (k) => DIRECTIONS[(((k - 1) % 6) + 6) % 6];
const add = (a, b) => [a[0] + b[0], a[1] + b[1]];

// Where Ti lies from its territory's centre (spec §2.2).
function offset(i) {
  if (i === 0) return [0, 0];
  if (i <= 6) return dir(i);
  const k = Math.floor((i - 7) / 2);
  const d = dir(k + 1);
  return (i - 7) % 2 ? add(d, dir(k + 2)) : [2 * d[0], 2 * d[1]];
}

const CENTRES = { A: [0, 0], B: [6, -3] };

// Every hex, in the canonical order A0…A18, X1, X2, B0…B18, with its axial coordinates.
const HEXES = new Map([
  ...Array.from({ length: 19 }, (_, i) => [`A${i}`, add(CENTRES.A, offset(i))]),
  ["X1", [3, -2]],
  ["X2", [3, -1]],
  ...Array.from({ length: 19 }, (_, i) => [`B${i}`, add(CENTRES.B, offset(i))]),
]);

const SIZE = 40; // centre to corner, in SVG units
const SQRT3 = Math.sqrt(3);

function centre(name) {
  const [q, r] = HEXES.get(name);
  return [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
}

const CORNERS = Array.from({ length: 6 }, (_, i) => {
  const angle = (Math.PI / 3) * i;
  return [SIZE * Math.cos(angle), SIZE * Math.sin(angle)];
});

function hexPoints([x, y], scale = 1) {
  return svgPoints(CORNERS.map(([dx, dy]) => [x + dx * scale, y + dy * scale]));
}

const territoryOf = (name) => (name.startsWith("X") ? null : name[0]);

const NEUTRAL = "#ece6d6";
const ROCK = "#6f6a60";
const NATURAL = "#4a4a4a";
const EDGE = "#8a8170";

const label = (className, x, y, text) =>
  svgEl("text", { class: className, x, y, "text-anchor": "middle" }, text);

// Glyphs of the structures, drawn about (0, 0) in `ink` (the builder's colour, or grey for
// what nobody built).
const GLYPHS = {
  city: (ink) => [
    svgEl("path", {
      d: "M-13 8 V-4 L-9 -8 L-5 -4 V-8 H-1 V-13 L3 -17 L7 -13 V-8 H11 V8 Z",
      fill: ink,
      stroke: "#fff",
      "stroke-width": 1.5,
    }),
    svgEl("rect", { x: -1, y: 1, width: 4, height: 7, fill: "#fff" }),
  ],
  resource: () => [
    svgEl("path", { d: "M0 -12 L9 -3 L0 8 L-9 -3 Z", fill: "#f0c419", stroke: "#7a5c00", "stroke-width": 1.5 }),
    svgEl("path", { d: "M-9 -3 H9 M0 -12 V8", stroke: "#7a5c00", "stroke-width": 0.8 }),
  ],
  farm: (ink) => [
    svgEl("path", { d: "M-11 -10 H11 M-11 -4 H11 M-11 2 H11", stroke: ink, "stroke-width": 2.5 }),
    svgEl("path", { d: "M-6 -13 V5 M6 -13 V5", stroke: ink, "stroke-width": 1, opacity: 0.6 }),
  ],
  base: (ink) => [
    svgEl("path", { d: "M-8 8 V-14", stroke: ink, "stroke-width": 2.5 }),
    svgEl("path", { d: "M-8 -14 L10 -9 L-8 -4 Z", fill: ink }),
  ],
  fortification: (ink) => [
    svgEl("path", {
      d: "M-12 6 V-8 H-7 V-4 H-2 V-8 H2 V-4 H7 V-8 H12 V6 Z",
      fill: "none",
      stroke: ink,
      "stroke-width": 2.5,
    }),
  ],
  debris: (ink) =>
    [
      [-8, -6, 3],
      [5, -9, 2.5],
      [9, 2, 3],
      [-3, 4, 2],
      [-11, 3, 2],
      [2, -2, 1.6],
    ].map(([cx, cy, r]) => svgEl("circle", { cx, cy, r, fill: ink })),
  turret: (ink) => [
    svgEl("circle", { cx: 0, cy: -2, r: 7, fill: ink }),
    svgEl("path", { d: "M3 -5 L14 -14", stroke: ink, "stroke-width": 3.5 }),
    svgEl("rect", { x: -10, y: 4, width: 20, height: 4, fill: ink }),
  ],
  road: (ink) => [
    svgEl("path", { d: "M-14 -2 H14", stroke: ink, "stroke-width": 6 }),
    svgEl("path", { d: "M-12 -2 H12", stroke: "#fff", "stroke-width": 1.2, "stroke-dasharray": "3 3" }),
  ],
};

// A piece: a civilian is a disc, a military piece a shield; a piece that has moved this
// turn is drawn hollow.
function piece(p, x, y, ink) {
  const common = { stroke: p.moved ? ink : "#fff", "stroke-width": p.moved ? 2.5 : 1.5 };
  const fill = p.moved ? "#fff" : ink;
  const shape =
    p.kind === "civilian"
      ? svgEl("circle", { cx: x, cy: y, r: 8, fill, ...common })
      : svgEl("path", {
          d: `M${x - 8} ${y - 8} H${x + 8} V${y} Q${x + 8} ${y + 7} ${x} ${y + 10} Q${x - 8} ${y + 7} ${x - 8} ${y} Z`,
          fill,
          ...common,
        });
  return svgEl(
    "g",
    {
      class: `piece ${p.kind}`,
      "data-hex": p.at,
      "data-player": p.player,
      "data-kind": p.kind,
      "data-moved": p.moved ? "true" : "false",
    },
    svgEl("title", {}, `${p.player}'s ${p.kind}${p.moved ? " (moved)" : ""} at ${p.at}`),
    shape,
  );
}

// The whole board. `game` is the engine's state (null before both players chose: then
// `local` gives each hex's structure from the territories as rolled, unturned, named Li); `inks` maps a
// player to its colour and `tints` to its territory's shade; `marks` maps a hex to a class
// ("selected", "target") that the input is showing; `interactive` makes each hex a button
// that the keyboard reaches.
export function drawBoard(
  svg,
  { game, local = {}, owners = {}, inks, tints, marks = new Map(), interactive = false },
) {
  const structures = game ? game.structures : local;
  const pieces = game ? game.pieces : [];
  const stacks = new Map();
  for (const p of pieces) stacks.set(p.at, [...(stacks.get(p.at) || []), p]);
  const groups = [];
  for (const name of HEXES.keys()) {
    const [x, y] = centre(name);
    const structure = structures[name];
    const owner = owners[territoryOf(name)];
    const blocked = structure && structure.kind === "obstruction";
    const fill = blocked ? ROCK : owner ? tints[owner] : NEUTRAL;
    const mark = marks.get(name);
    const children = [
      svgEl("polygon", { class: "hex-tile", points: hexPoints([x, y]), fill, stroke: EDGE, "stroke-width": 1.5 }),
      label("hex-name", x, y - 22, game ? name : localName(name)),
    ];
    const side = game ? null : sideOf(name);
    if (side) children.push(label("hex-side", x, y + 26, `side ${side}`));
    if (structure && !blocked) {
      const ink = structure.by ? inks[structure.by] : NATURAL;
      children.push(
        svgEl(
          "g",
          {
            class: `structure ${structure.kind}`,
            "data-kind": structure.kind,
            "data-by": structure.by || null,
            transform: `translate(${x.toFixed(1)} ${(y - 4).toFixed(1)})`,
          },
          svgEl("title", {}, structure.by ? `${structure.kind}, ${structure.by}'s` : structure.kind),
          GLYPHS[structure.kind](ink),
        ),
      );
    }
    const stack = stacks.get(name) || [];
    stack.forEach((p, i) => {
      const dx = stack.length === 1 ? 0 : i === 0 ? -11 : 11;
      children.push(piece(p, x + dx, y + 20, inks[p.player]));
    });
    if (mark) {
      children.push(svgEl("polygon", { class: `hex-mark ${mark}`, points: hexPoints([x, y], 0.93) }));
    }
    const described = describeHex(game ? name : localName(name), structure, stack);
    groups.push(
      svgEl(
        "g",
        {
          class: `hex${mark ? ` ${mark}` : ""}`,
          "data-hex": name,
          "data-structure": structure ? structure.kind : null,
          tabindex: interactive ? 0 : null,
          role: interactive ? "button" : null,
          "aria-label": interactive ? described : null,
          "aria-pressed": interactive ? String(mark === "selected") : null,
        },
        svgEl("title", {}, described),
        children,
      ),
    );
  }
  const xs = [...HEXES.keys()].map((n) => centre(n)[0]);
  const ys = [...HEXES.keys()].map((n) => centre(n)[1]);
  const pad = SIZE + 6;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) + pad - minX;
  const height = Math.max(...ys) + pad - minY;
  svg.setAttribute("viewBox", [minX, minY, width, height].map((v) => v.toFixed(0)).join(" "));
  svg.replaceChildren(...groups);
}

// Before the choices the territories are shown as rolled, in their local frame: Li, and the
// side of the big hexagon each edge hex is the middle of (T8 side 1, T10 side 2, …).
function localName(name) {
  return territoryOf(name) ? `L${name.slice(1)}` : name;
}

function sideOf(name) {
  const i = territoryOf(name) ? Number(name.slice(1)) : 0;
  return i >= 8 && i % 2 === 0 ? (i - 8) / 2 + 1 : null;
}

function describeHex(name, structure, stack) {
  const parts = [name];
  if (structure) parts.push(structure.by ? `${structure.kind} (${structure.by})` : structure.kind);
  for (const p of stack) parts.push(`${p.player}'s ${p.kind}${p.moved ? ", moved" : ""}`);
  return parts.join(", ");
}
