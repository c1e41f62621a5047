// The standings side bar: players by VP then territories, each with the orders of the last
// turn under the name, written as the rulebook writes them: a success plainly, a failure
// underlined and tinted red, an invalid order struck through in grey.

import { PATTERN_NAMES, colorOf, lookPatterns } from "./palette.js";
import { el, svgEl } from "./util.js";

const RESULT_WORDS = {
  succeeded: "succeeded",
  failed: "failed",
  cut: "cut: the army held instead",
  invalid: "invalid",
};

let swatches = 0;

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// A small square in a player's colour and pattern.
export function swatch(look) {
  swatches += 1;
  const id = `sw${swatches}`;
  const [land] = lookPatterns(id, look.color, look.pattern);
  return svgEl(
    "svg",
    { class: "swatch", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    svgEl("defs", {}, land),
    svgEl("rect", { width: 16, height: 16, rx: 3, fill: `url(#land-${id})`, stroke: "#333" }),
  );
}

// One order as text, styled by its result; the reason of an invalid order as its title.
export function orderItem(order) {
  const result = order.result || (order.valid === false ? "invalid" : "succeeded");
  const words = RESULT_WORDS[result] || result;
  const title = order.reason ? `${words}: ${order.reason}` : order.explanation?.why || words;
  return el(
    "li",
    { class: `order result-${result}`, title, "data-result": result },
    el("span", { class: "order-text" }, order.text),
    el("span", { class: "visually-hidden" }, ` (${order.reason ? `${words}: ${order.reason}` : words})`),
  );
}

export function orderList(orders) {
  const shown = orders.filter((o) => o.result !== "replaced");
  if (!shown.length) return el("p", { class: "no-orders" }, "no orders: every army held");
  return el("ul", { class: "orders" }, shown.map(orderItem));
}

// rows: [{id, name, color, pattern, vp, territories, armies, status, banned, claim}] in
// order (`claim`: a seat's in a fork waiting for its start);
// orders: the turn's reports (or null when there is no turn to show).
export function renderStandings(container, rows, orders, { winner = null, gained = {} } = {}) {
  const byPlayer = new Map();
  for (const order of orders || []) {
    if (!byPlayer.has(order.player)) byPlayer.set(order.player, []);
    byPlayer.get(order.player).push(order);
  }
  const items = rows.map((row) => {
    const notes = [];
    if (row.id === winner) notes.push(el("span", { class: "tag winner" }, "winner"));
    if (row.status && row.status !== "active")
      notes.push(el("span", { class: "tag" }, row.status));
    if (row.banned) notes.push(el("span", { class: "tag" }, "banned"));
    if (row.claim) notes.push(el("span", { class: "tag" }, row.claim));
    const plus = gained[row.id] ? ` (+${gained[row.id]})` : "";
    const look = `${colorOf(row.color).name}, ${PATTERN_NAMES[row.pattern] || "plain"}`;
    return el(
      "li",
      { class: "player", "data-player": row.id },
      el(
        "div",
        { class: "player-head" },
        swatch(row),
        el("span", { class: "player-name", title: look }, row.name),
        notes,
      ),
      el(
        "p",
        { class: "stats" },
        el("span", { class: "vp" }, `${row.vp} VP${plus}`),
        " · ",
        el("span", { class: "territories" }, plural(row.territories, "territory", "territories")),
        " · ",
        el("span", { class: "armies" }, plural(row.armies, "army", "armies")),
      ),
      orders ? orderList(byPlayer.get(row.id) || []) : null,
    );
  });
  const extra = [...byPlayer.keys()].filter((p) => !rows.some((r) => r.id === p));
  for (const player of extra) {
    items.push(
      el(
        "li",
        { class: "player former", "data-player": player },
        el("div", { class: "player-head" }, el("span", { class: "player-name" }, player)),
        orderList(byPlayer.get(player)),
      ),
    );
  }
  container.replaceChildren(...items);
}

// The halves of each joint player (whose id is `a/b`: docs/rules.md, "Joining forces") as
// they were before joining: half's id -> the joint player's look with the half's id, its
// part of the joint name ("A/B"), and `joint`, the joint player's id.
export function formerHalves(players) {
  const halves = new Map();
  for (const joint of players) {
    const ids = joint.id.split("/");
    if (ids.length !== 2) continue;
    const names = joint.name.split("/");
    ids.forEach((id, index) => {
      const name = names.length === 2 ? names[index] : `${joint.name} (${index ? "second" : "first"} half)`;
      halves.set(id, { ...joint, id, name, joint: joint.id });
    });
  }
  return halves;
}

// Orders or deaths of a turn, each under the player shown for it: its own player, or for a
// half of a joint player shown in its place (the turn that joined them), the joint player,
// whose armies carried them out. `shown`: the ids of the players shown.
export function underShown(items, shown, halves) {
  return items.map((item) => {
    const joint = halves.get(item.player)?.joint;
    const player = !shown.has(item.player) && shown.has(joint) ? joint : item.player;
    return { ...item, player };
  });
}

// Players by VP, then territories, then name, as the server sorts them.
export function sortStandings(rows) {
  return [...rows].sort(
    (a, b) =>
      b.vp - a.vp ||
      b.territories - a.territories ||
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
  );
}

// Territories and armies per player on a board.
export function counts(board) {
  const territories = new Map();
  const armies = new Map();
  const control = board.control || {};
  const held = new Set([...Object.keys(control), ...Object.keys(board.armies || {})]);
  for (const tid of held) {
    const p = control[tid] ?? board.armies[tid];
    territories.set(p, (territories.get(p) || 0) + 1);
  }
  for (const p of Object.values(board.armies || {})) armies.set(p, (armies.get(p) || 0) + 1);
  return { territories, armies };
}

// The name of an effect with what it does, readable by keyboard and mouse alike.
// `count`, when given, follows the name: "FEAST (2 votes): ...".
export function effectName(name, descriptions, count = "") {
  const text = descriptions.get(name);
  return el(
    "span",
    { class: "effect", title: text || null, tabindex: text ? 0 : null },
    el("strong", {}, name),
    count,
    text ? el("span", { class: "effect-text" }, `: ${text}`) : null,
  );
}
