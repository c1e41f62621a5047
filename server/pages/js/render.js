// The map as SVG, drawn the way the rulebook's pictures are: territories in their
// controller's colour and pattern, barracks and farm icons, overseas connections as dotted
// lines, armies, and a turn's orders: successful moves as arrows, failed moves faded,
// supports as hashed lines (cut support faded grey), dead armies under their killer,
// reinforcements saluting, +1 VP under farmers, a little X by a barracks for a failed
// reinforcement. Invalid orders are not drawn (the order lists strike them through).

// The server draws the same map as a PNG (server/pictures/), from the same palette.json.

import {
  PALETTE,
  UNCLAIMED,
  iconSymbols,
  lookPatterns,
  shades,
  unclaimedPatterns,
} from "./palette.js";
import { el, svgEl, svgPoints } from "./util.js";

const { sea: SEA, border: BORDER, dark: DARK } = PALETTE.map;
const ARMY_DROP = PALETTE.layout.army_drop; // the army stands this far below the territory's centre
const LABEL_RISE = PALETTE.layout.label_rise; // the label sits this far above it

// Where a territory's barracks or farm icon goes: right of its label.
const iconX = (t) => t.x + 5.5 * t.id.length + 6;

const geometryCache = new WeakMap();

// Lookups for one map, computed once.
export function geometry(map) {
  let found = geometryCache.get(map);
  if (found) return found;
  const territories = new Map(map.territories.map((t) => [t.id, t]));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const t of map.territories) {
    const points = t.outline && t.outline.length ? t.outline : [[t.x, t.y]];
    for (const [x, y] of points) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  const pad = PALETTE.layout.pad;
  const box = { x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad };
  const key = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const land = new Set((map.edges || []).map(([a, b]) => key(a, b)));
  const overseas = new Set((map.overseas || []).map(([a, b]) => key(a, b)));
  found = {
    territories,
    box,
    pad,
    // Over the sea only: drawn around the edge of the map, not across it.
    isOverseas: (a, b) => overseas.has(key(a, b)) && !land.has(key(a, b)),
  };
  geometryCache.set(map, found);
  return found;
}

function anchor(territory) {
  return [territory.x, territory.y + ARMY_DROP];
}

// Where a line from `a` to `b` over an overseas link leaves and re-enters the map: the
// link wraps around the edge of the map, as the rulebook's dotted lines do.
function wrapEnds(geo, a, b) {
  const [ax, ay] = anchor(a);
  const [bx, by] = anchor(b);
  const { box } = geo;
  const inset = geo.pad / 3;
  if (Math.abs(ax - bx) >= Math.abs(ay - by)) {
    const left = box.x + inset;
    const right = box.x + box.width - inset;
    return ax <= bx ? [[left, ay], [right, by]] : [[right, ay], [left, by]];
  }
  const top = box.y + inset;
  const bottom = box.y + box.height - inset;
  return ay <= by ? [[ax, top], [bx, bottom]] : [[ax, bottom], [bx, top]];
}

// The path of a line from territory a to territory b: one or two segments.
function route(geo, fromId, toId) {
  const a = geo.territories.get(fromId);
  const b = geo.territories.get(toId);
  if (!a || !b) return null;
  if (geo.isOverseas(fromId, toId)) {
    const [out, back] = wrapEnds(geo, a, b);
    return [
      [anchor(a), out],
      [back, anchor(b)],
    ];
  }
  return [[anchor(a), anchor(b)]];
}

function shorten([p, q], start, end) {
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  return [
    [p[0] + ux * start, p[1] + uy * start],
    [q[0] - ux * end, q[1] - uy * end],
  ];
}

function arrow(geo, order, color) {
  const segments = route(geo, order.unit, order.target);
  if (!segments) return null;
  const last = segments.length - 1;
  const parts = segments.map((segment, k) =>
    shorten(segment, k === 0 ? 14 : 0, k === last ? 19 : 0),
  );
  const [p, q] = parts[last];
  const length = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
  const ux = (q[0] - p[0]) / length;
  const uy = (q[1] - p[1]) / length;
  const head = 13;
  const half = 7.5;
  const base = [q[0] - ux * head, q[1] - uy * head];
  parts[last] = [p, base];
  const left = [base[0] - uy * half, base[1] + ux * half];
  const right = [base[0] + uy * half, base[1] - ux * half];
  const failed = order.result !== "succeeded";
  return svgEl(
    "g",
    {
      class: `order move result-${order.result}`,
      "data-unit": order.unit,
      "data-target": order.target,
      "data-result": order.result,
      opacity: failed ? 0.35 : null,
    },
    parts.map((segment) =>
      svgEl("polyline", {
        points: svgPoints(segment),
        stroke: DARK,
        "stroke-width": 8,
        "stroke-linecap": "round",
        fill: "none",
      }),
    ),
    parts.map((segment) =>
      svgEl("polyline", {
        points: svgPoints(segment),
        stroke: color,
        "stroke-width": 4.6,
        "stroke-linecap": "round",
        fill: "none",
      }),
    ),
    svgEl("polygon", {
      points: svgPoints([q, left, right]),
      fill: color,
      stroke: DARK,
      "stroke-width": 1.6,
      "stroke-linejoin": "round",
    }),
  );
}

// A support: a hashed line from the supporter to the order it supports (the middle of the
// supported move's arrow, or the supported army for a hold).
function hashLine(geo, order, color, orders) {
  const supporter = geo.territories.get(order.unit);
  const target = geo.territories.get(order.target);
  if (!supporter || !target) return null;
  let segments = route(geo, order.unit, order.target);
  const from = order.supported_from;
  const moving = from && from !== order.target && from !== "REF" && geo.territories.has(from);
  const drawn = orders.some(
    (o) => o.kind === "move" && o.unit === from && o.target === order.target,
  );
  if (moving && drawn && !geo.isOverseas(order.unit, order.target)) {
    const supported = route(geo, from, order.target);
    const [p, q] = supported[supported.length - 1];
    segments = [[anchor(supporter), [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]]];
  }
  if (!segments) return null;
  const last = segments.length - 1;
  const parts = segments.map((segment, k) => shorten(segment, k === 0 ? 14 : 0, k === last ? 9 : 0));
  const cut = order.result === "cut";
  const failed = order.result !== "succeeded";
  const ink = cut ? PALETTE.map.cut : color;
  const lines = [];
  for (const segment of parts) {
    if (!cut) {
      lines.push(
        svgEl("polyline", {
          points: svgPoints(segment),
          stroke: DARK,
          "stroke-width": 12,
          "stroke-dasharray": "3.6 2.4",
          "stroke-dashoffset": 0.8,
          fill: "none",
        }),
      );
    }
    lines.push(
      svgEl("polyline", {
        points: svgPoints(segment),
        stroke: ink,
        "stroke-width": 10,
        "stroke-dasharray": "2 4",
        fill: "none",
      }),
      svgEl("polyline", { points: svgPoints(segment), stroke: ink, "stroke-width": 1.4, fill: "none" }),
    );
  }
  return svgEl(
    "g",
    {
      class: `order support result-${order.result}`,
      "data-unit": order.unit,
      "data-target": order.target,
      "data-result": order.result,
      opacity: cut ? 0.55 : failed ? 0.35 : null,
    },
    lines,
  );
}

function armyIcon(x, y, color, { saluting = false, player = "", territory = "", dead = false } = {}) {
  const use = svgEl("use", {
    href: saluting ? "#icon-army-saluting" : "#icon-army",
    x: -14,
    y: -15,
    width: 28,
    height: 30,
    color,
  });
  if (dead) {
    return svgEl(
      "g",
      {
        class: "army dead",
        "data-territory": territory,
        "data-player": player,
        transform: `translate(${(x + 15).toFixed(1)} ${(y + 10).toFixed(1)}) rotate(90)`,
      },
      use,
      svgEl("path", {
        d: "M-10,-10.5 l5,5 m0,-5 l-5,5",
        stroke: "#ffffff",
        "stroke-width": 1.8,
        "stroke-linecap": "round",
      }),
    );
  }
  return svgEl(
    "g",
    {
      class: saluting ? "army saluting" : "army",
      "data-territory": territory,
      "data-player": player,
      transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
    },
    use,
  );
}

function haloText(x, y, text, attributes) {
  return svgEl(
    "text",
    {
      x: x.toFixed(1),
      y: y.toFixed(1),
      "text-anchor": "middle",
      "paint-order": "stroke",
      stroke: "#ffffff",
      "stroke-width": 3.5,
      "stroke-linejoin": "round",
      ...attributes,
    },
    text,
  );
}

// Draws `view` into `svg`, replacing what was there.
//   map: the map, with outlines; board: {armies, control, farms} to show;
//   looks: Map player id -> {color, pattern, name};
//   orders, dead: a turn's results to draw over the board (the board after that turn);
//   effect: the effect in force for those orders (FEAST doubles a farm's VP);
//   label: what the picture shows, for screen readers.
export function renderMap(svg, view) {
  const { map, board, looks } = view;
  const orders = view.orders || [];
  const dead = view.dead || [];
  const geo = geometry(map);
  const { box } = geo;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", view.label || "The map");
  const keys = new Map();
  const keyOf = (player) => {
    if (!keys.has(player)) keys.set(player, `k${keys.size}`);
    return keys.get(player);
  };
  const lookOf = (player) => looks.get(player) || { color: 17, pattern: 1, name: player };
  const colorHex = (player) => shades(lookOf(player).color).base;

  const defs = svgEl("defs", {}, iconSymbols(), unclaimedPatterns());
  const players = new Set([
    ...Object.values(board.control || {}),
    ...Object.values(board.armies || {}),
    ...dead.map((d) => d.player),
  ]);
  for (const player of players) {
    const look = lookOf(player);
    defs.append(...lookPatterns(keyOf(player), look.color, look.pattern));
  }
  svg.append(defs);
  svg.append(svgEl("rect", { class: "sea", ...box, fill: SEA }));

  const farms = new Set(board.farms || []);
  const land = svgEl("g", { class: "territories" });
  const labels = svgEl("g", { class: "labels" });
  for (const t of map.territories) {
    const owner = (board.control || {})[t.id] ?? (board.armies || {})[t.id];
    const farm = farms.has(t.id);
    let fill = UNCLAIMED;
    if (owner !== undefined) fill = `url(#${farm ? "farm" : "land"}-${keyOf(owner)})`;
    else if (farm) fill = "url(#farm-none)";
    const kind = farm ? "farm" : t.barracks ? "barracks" : null;
    const who = owner === undefined ? "unclaimed" : `controlled by ${lookOf(owner).name}`;
    land.append(
      svgEl(
        "polygon",
        {
          class: "territory",
          "data-territory": t.id,
          "data-controller": owner ?? "",
          "data-kind": kind ?? "",
          points: (t.outline || []).map(([x, y]) => `${x},${y}`).join(" "),
          fill,
          stroke: BORDER,
          "stroke-width": 1.6,
          "stroke-linejoin": "round",
        },
        svgEl("title", {}, `${t.name} (${t.id})${kind ? `, ${kind}` : ""}, ${who}`),
      ),
    );
    labels.append(
      haloText(t.x, t.y - LABEL_RISE + 5, t.id, {
        class: "label",
        "font-size": 15,
        "font-weight": 700,
        fill: PALETTE.map.label,
      }),
    );
    if (kind) {
      labels.append(
        svgEl("use", {
          class: `icon ${kind}`,
          "data-territory": t.id,
          href: `#icon-${kind}`,
          x: iconX(t),
          y: t.y - LABEL_RISE - 13,
          width: 17,
          height: 17,
        }),
      );
    }
  }
  svg.append(land);

  // Overseas connections: dotted lines to the edge of the map, named at the other end.
  const sea = svgEl("g", { class: "overseas" });
  for (const [a, b] of map.overseas || []) {
    const ta = geo.territories.get(a);
    const tb = geo.territories.get(b);
    if (!ta || !tb) continue;
    const [out, back] = wrapEnds(geo, ta, tb);
    for (const [from, edge, other] of [
      [ta, out, tb],
      [tb, back, ta],
    ]) {
      const start = [from.x, from.y];
      sea.append(
        svgEl(
          "g",
          { class: "link", "data-from": from.id, "data-to": other.id },
          svgEl("title", {}, `Overseas connection: ${from.name} and ${other.name} are adjacent`),
          svgEl("line", {
            x1: start[0],
            y1: start[1],
            x2: edge[0],
            y2: edge[1],
            stroke: PALETTE.map.overseas,
            "stroke-width": 2.4,
            "stroke-dasharray": "0.1 6",
            "stroke-linecap": "round",
          }),
          haloText(edge[0], edge[1] + (edge[1] < start[1] ? 14 : -7), `${other.id}`, {
            "font-size": 11,
            fill: PALETTE.map.overseas,
            "font-weight": 700,
          }),
        ),
      );
    }
  }
  svg.append(sea, labels);

  // Orders: supports under moves under armies.
  const shown = orders.filter((o) => o.result !== "invalid" && o.result !== "replaced");
  const supports = svgEl("g", { class: "supports" });
  const moves = svgEl("g", { class: "moves" });
  for (const order of shown) {
    const color = colorHex(order.player);
    if (order.kind === "support") {
      const line = hashLine(geo, order, color, shown);
      if (line) supports.append(line);
    } else if (order.kind === "move") {
      const drawn = arrow(geo, order, color);
      if (drawn) moves.append(drawn);
    }
  }
  svg.append(supports, moves);

  const armies = svgEl("g", { class: "armies" });
  const notes = svgEl("g", { class: "notes" });
  const saluting = new Set(
    shown.filter((o) => o.kind === "reinforce" && o.result === "succeeded").map((o) => o.target),
  );
  const placed = new Set();
  const armyAt = (tid, player, options = {}) => {
    const t = geo.territories.get(tid);
    if (!t) return;
    const [x, y] = anchor(t);
    armies.append(armyIcon(x, y, colorHex(player), { ...options, player, territory: tid }));
  };
  for (const d of dead) armyAt(d.territory, d.player, { dead: true });
  for (const [tid, player] of Object.entries(board.armies || {})) {
    armyAt(tid, player, { saluting: saluting.has(tid) });
    placed.add(tid);
  }
  const farmVp = view.effect === "FEAST" ? 2 : view.effect === "FAMINE" ? 0 : 1;
  for (const order of shown) {
    const t = geo.territories.get(order.kind === "reinforce" ? order.target : order.unit);
    if (!t) continue;
    if (order.kind === "farm" && order.result === "succeeded" && farmVp > 0) {
      notes.append(
        haloText(t.x, t.y + ARMY_DROP + 29, `+${farmVp} VP`, {
          class: "vp-gain",
          "data-territory": t.id,
          "font-size": 13,
          "font-weight": 800,
          fill: PALETTE.map.vp,
        }),
      );
    }
    if (order.kind === "reinforce" && order.result !== "succeeded") {
      const x = iconX(t) + 23;
      const y = t.y - LABEL_RISE - 4.5;
      notes.append(
        svgEl(
          "g",
          { class: "reinforcement-failed", "data-territory": t.id },
          svgEl("title", {}, `Reinforcement into ${t.name} failed`),
          svgEl("path", {
            d: `M${x - 4},${y - 4} l8,8 m0,-8 l-8,8`,
            stroke: "#ffffff",
            "stroke-width": 5,
            "stroke-linecap": "round",
          }),
          svgEl("path", {
            d: `M${x - 4},${y - 4} l8,8 m0,-8 l-8,8`,
            stroke: PALETTE.map.failed,
            "stroke-width": 2.6,
            "stroke-linecap": "round",
          }),
        ),
      );
    }
  }
  svg.append(armies, notes);
}

// The same picture in words, for screen readers and for anyone who prefers a list.
export function describeBoard(container, view) {
  const { map, board, looks } = view;
  const farms = new Set(board.farms || []);
  const name = (player) => (looks.get(player) || { name: player }).name;
  const rows = map.territories.map((t) => {
    const owner = (board.control || {})[t.id] ?? (board.armies || {})[t.id];
    const army = (board.armies || {})[t.id];
    const parts = [owner === undefined ? "unclaimed" : `controlled by ${name(owner)}`];
    if (army !== undefined) parts.push(`army of ${name(army)}`);
    if (farms.has(t.id)) parts.push("farm");
    else if (t.barracks) parts.push("barracks");
    return el("li", {}, el("b", {}, t.id), ` ${t.name}: ${parts.join(", ")}`);
  });
  container.replaceChildren(el("ul", { class: "board-list" }, rows));
}
