// An Art of War board as SVG: its territories (at their outline, or as a disc at x/y), each
// in its owner's colour (independents grey) with its units, the borders between them,
// arrows for orders with their counts, and per territory what the last turn did there (its
// title, and a panel on hover). The game's page and the Art of War sandbox both draw with it.

import { shades } from "../palette.js";
import { el, svgEl, svgPoints } from "../util.js";

const INDEPENDENT = { fill: "#d4d4d4", ink: "#6b6b6b" };
const RADIUS = 24;
const DARK = "#1b1b1b";

// The look of a player by its colour number (the palette's; its grey for none), as the board
// paints it.
export function lookOf(colorNumber) {
  const { base, light } = shades(colorNumber);
  return { fill: light, ink: base };
}

function centre(territory) {
  if (territory.x !== null && territory.x !== undefined) return [territory.x, territory.y];
  const outline = territory.outline || [];
  const n = outline.length || 1;
  return [outline.reduce((s, p) => s + p[0], 0) / n, outline.reduce((s, p) => s + p[1], 0) / n];
}

function frame(board) {
  const xs = [];
  const ys = [];
  for (const t of board.territories) {
    for (const [x, y] of t.outline && t.outline.length ? t.outline : [centre(t)]) {
      xs.push(x);
      ys.push(y);
    }
  }
  const pad = RADIUS * 2;
  const left = Math.min(...xs) - pad;
  const top = Math.min(...ys) - pad;
  return [left, top, Math.max(...xs) + pad - left, Math.max(...ys) + pad - top];
}

// "3 units attacked Brazil": one event of TurnResult.events, in words.
export function eventText(event, nameOf) {
  const n = (count) => `${count} unit${count === 1 ? "" : "s"}`;
  const who = event.player ? `${nameOf(event.player)}'s ` : "";
  switch (event.kind) {
    case "placed":
      return `${n(event.units)} placed`;
    case "transferred_out":
      return `${n(event.units)} transferred to ${event.to}`;
    case "transferred_in":
      return `${n(event.units)} transferred from ${event.from}`;
    case "attacked":
      return `${n(event.units)} attacked ${event.to}`;
    case "skirmish":
      return `skirmish with ${event.with}: ${n(event.units)}, ${event.lost} lost`;
    case "retreated":
      return `${n(event.units)} retreated`;
    case "invaded":
      return `invaded by ${who}${n(event.units)} from ${event.from}`;
    case "defended":
      return `${n(event.defenders)} defended, ${event.lost} lost`;
    case "conquered":
      return `conquered by ${who}${n(event.units)} from ${event.from}`;
    case "returned":
      return `${n(event.units)} returned from ${event.from}`;
    case "disbanded":
      return `${n(event.units)} disbanded (${event.from} fell)`;
    case "built":
      return `${n(event.units)} built`;
    default:
      return event.kind;
  }
}

// An order of a turn that ran, with its result (and why, if it failed): a list's item.
export function orderItem(order, nameOf) {
  return el(
    "li",
    { "data-player": order.player },
    `${nameOf(order.player)}: ${order.text}, ${order.result}`,
    order.reason ? ` (${order.reason})` : "",
  );
}

function arrowShape(from, to, look, order, pending) {
  const [x1, y1] = from;
  const [x2, y2] = to;
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / length;
  const uy = (y2 - y1) / length;
  // Beside the straight line, so that two orders between the same territories both show.
  const side = pending ? -5 : 5;
  const p = [x1 + ux * RADIUS - uy * side, y1 + uy * RADIUS + ux * side];
  const q = [x2 - ux * (RADIUS + 2) - uy * side, y2 - uy * (RADIUS + 2) + ux * side];
  const head = 12;
  const half = 7;
  const base = [q[0] - ux * head, q[1] - uy * head];
  const middle = [(p[0] + base[0]) / 2 - uy * 11, (p[1] + base[1]) / 2 + ux * 11];
  const failed = ["bounced", "destroyed", "disbanded", "invalid", "not_run", "retreated"];
  return svgEl(
    "g",
    {
      class: `arrow ${pending ? "pending" : "last"}`,
      "data-from": order.from,
      "data-to": order.to,
      "data-units": order.sent,
      "data-player": order.player,
      "data-kind": order.kind,
      "data-result": order.result ?? null,
      opacity: failed.includes(order.result) && !pending ? 0.45 : null,
    },
    svgEl("title", {}, `${order.text}${order.result && !pending ? `: ${order.result}` : ""}`),
    svgEl("polyline", {
      points: svgPoints([p, base]),
      stroke: look.ink,
      "stroke-width": 4,
      "stroke-dasharray": pending ? "7 5" : null,
      "stroke-linecap": "round",
      fill: "none",
    }),
    svgEl("polygon", {
      points: svgPoints([
        q,
        [base[0] - uy * half, base[1] + ux * half],
        [base[0] + uy * half, base[1] - ux * half],
      ]),
      fill: look.ink,
      stroke: DARK,
      "stroke-width": 1,
    }),
    svgEl("circle", {
      cx: middle[0],
      cy: middle[1],
      r: 9,
      fill: "#fff",
      stroke: look.ink,
      "stroke-width": 1.5,
    }),
    svgEl(
      "text",
      {
        class: "arrow-count",
        x: middle[0],
        y: middle[1] + 4,
        "text-anchor": "middle",
        "font-size": 11,
        "font-weight": 700,
      },
      String(order.sent),
    ),
  );
}

// Draw the board into `svg`. `position` is the engine's (owners, units, pending_builds);
// `looks(player)` a player's {fill, ink}; `nameOf(player)` its name; `orders` reports of the
// contract (kind, from, to, sent, result): `last` for the orders of the turn that ran,
// `pending` for orders not yet run; `events` the last turn's events by territory.
export function drawBoard(
  svg,
  board,
  position,
  { looks, nameOf, last = [], pending = [], events = {}, info = null },
) {
  const byId = new Map(board.territories.map((t) => [t.id, t]));
  const [left, top, width, height] = frame(board);
  svg.setAttribute("viewBox", `${left} ${top} ${width} ${height}`);
  const lookOfOwner = (owner) => (owner ? looks(owner) : INDEPENDENT);
  const outlined = board.territories.some((t) => t.outline && t.outline.length >= 3);
  const borders = board.edges.map(([a, b]) => {
    const [x1, y1] = centre(byId.get(a));
    const [x2, y2] = centre(byId.get(b));
    const line = { class: "border", stroke: "#8a8a8a", "stroke-width": 2 };
    if (outlined || Math.abs(x2 - x1) <= width / 2) {
      return svgEl("line", { ...line, x1, y1, x2, y2 });
    }
    // On a map of discs (the built-in ones), a border across more than half the map goes
    // round the world (Alaska to Kamchatka): a dashed stub from each end off its own side.
    const [west, east] = x1 < x2 ? [[x1, y1], [x2, y2]] : [[x2, y2], [x1, y1]];
    const middle = (west[1] + east[1]) / 2;
    const stub = { ...line, "stroke-dasharray": "6 4" };
    return svgEl(
      "g",
      { class: "border wraps", "data-between": `${a} ${b}` },
      svgEl("line", { ...stub, x1: west[0], y1: west[1], x2: left, y2: middle }),
      svgEl("line", { ...stub, x1: east[0], y1: east[1], x2: left + width, y2: middle }),
    );
  });
  const shapes = []; // the outlines of a map that has them, under everything else
  const lands = board.territories.map((t) => {
    const owner = position.owners[t.id] ?? null;
    const units = position.units[t.id] ?? 0;
    const look = lookOfOwner(owner);
    const [x, y] = centre(t);
    const happened = (events[t.id] || []).map((e) => eventText(e, nameOf));
    const about = [
      `${t.name} (${t.id}), population ${t.population}`,
      owner ? `held by ${nameOf(owner)}` : "independent",
      `${units} unit${units === 1 ? "" : "s"}`,
    ].join(", ");
    if (t.outline && t.outline.length >= 3) {
      shapes.push(
        svgEl("polygon", {
          points: t.outline.map(([px, py]) => `${px},${py}`).join(" "),
          fill: look.fill,
          stroke: "#555",
          "stroke-width": 1.5,
          "data-territory": t.id,
        }),
      );
    }
    const group = svgEl(
      "g",
      {
        class: "territory",
        tabindex: 0,
        role: "button",
        "aria-label": [about, ...happened].join(". "),
        "data-territory": t.id,
        "data-owner": owner ?? "",
        "data-units": units,
        "data-events": happened.length,
      },
      svgEl("title", {}, [about, ...happened].join("\n")),
      svgEl("circle", {
        cx: x,
        cy: y,
        r: RADIUS,
        fill: look.fill,
        stroke: look.ink,
        "stroke-width": 3.5,
      }),
      svgEl(
        "text",
        { class: "territory-id", x, y: y - RADIUS - 5, "text-anchor": "middle", "font-size": 12 },
        t.id,
      ),
      svgEl(
        "text",
        {
          class: "units",
          x,
          y: y + 6,
          "text-anchor": "middle",
          "font-size": 17,
          "font-weight": 700,
          fill: DARK,
        },
        String(units),
      ),
    );
    if (info) {
      const show = () => {
        info.replaceChildren(
          el("p", { class: "territory-about" }, about),
          happened.length
            ? el("ul", { class: "territory-events" }, ...happened.map((line) => el("li", {}, line)))
            : el("p", { class: "hint" }, "Nothing happened here last turn."),
        );
        info.dataset.territory = t.id;
      };
      group.addEventListener("mouseenter", show);
      group.addEventListener("focus", show);
    }
    return group;
  });
  const arrows = [];
  for (const [orders, isPending] of [
    [last, false],
    [pending, true],
  ]) {
    for (const order of orders) {
      const drawn = ["attack", "transfer"].includes(order.kind);
      if (!drawn || !byId.has(order.from) || !byId.has(order.to)) continue;
      const [from, to] = [centre(byId.get(order.from)), centre(byId.get(order.to))];
      const look = lookOfOwner(order.player);
      if (outlined || Math.abs(to[0] - from[0]) <= width / 2) {
        arrows.push(arrowShape(from, to, look, order, isPending));
        continue;
      }
      // Round the world, as its border is drawn: out over one side, in from the other.
      const shift = to[0] > from[0] ? -width : width;
      arrows.push(
        arrowShape(from, [to[0] + shift, to[1]], look, order, isPending),
        arrowShape([from[0] - shift, from[1]], to, look, order, isPending),
      );
    }
  }
  svg.replaceChildren(
    svgEl("g", { class: "outlines" }, shapes),
    svgEl("g", { class: "borders" }, borders),
    svgEl("g", { class: "lands" }, lands),
    svgEl("g", { class: "arrows" }, arrows),
  );
}
