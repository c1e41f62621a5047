// The Art of War's renderer for the page of a game run by its definition (docs/games.md,
// "A game's page"; the view is docs/art-of-war.md's "Playing on the server"): the board with
// the last turn's orders as arrows and the reader's own orders not yet run as dashed ones,
// what the last turn did in each territory on hover, and each player's stance.

import { drawBoard, lookOf, orderItem } from "../artofwar/board.js";
import { readOrders, stanceText } from "../artofwar/contract.js";
import { el, svgEl } from "../util.js";

const parts = new WeakMap(); // root -> the elements drawn into it, kept between renders

function built(root) {
  let found = parts.get(root);
  if (found) return found;
  // A group, not an image: its territories are buttons (what happened there; the reader's
  // orders by pointing).
  const svg = svgEl("svg", { class: "map aow-map", role: "group", "aria-label": "The map" });
  found = {
    svg,
    info: el("div", { class: "territory-info", id: "territory-info", "aria-live": "polite" }),
    pending: el("div", { class: "pending-orders", id: "pending-orders" }),
    orders: el("details", { class: "board-text", id: "turn-orders" }),
    sandbox: el("a", { class: "turn-link", href: "" }, "This position in the sandbox"),
    ticket: 0,
  };
  root.replaceChildren(
    el("div", { class: "map-frame" }, svg),
    found.info,
    found.pending,
    found.orders,
    el("p", {}, found.sandbox),
  );
  parts.set(root, found);
  svg.addEventListener("click", (event) => pick(found, event));
  svg.addEventListener("keydown", (event) => {
    if (event.key === "Enter") pick(found, event);
  });
  return found;
}

// A player's orders by pointing: one of the reader's territories, then a neighbour, writes
// "FROM units TO" (every unit of FROM: edit the count) in the move box.
function pick(drawn, event) {
  const group = event.target.closest?.("g.territory");
  const now = drawn.current;
  if (!group || !now || !now.context.live || now.game.phase !== "running") return;
  const { play, context } = now;
  const id = group.dataset.territory;
  const from = drawn.chosen;
  const borders = (a, b) =>
    play.board.edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  if (from && from !== id && borders(from, id)) {
    context.draft(`${from} ${play.position.units[from] ?? 0} to ${id}`, { append: true });
    drawn.chosen = null;
  } else {
    const mine = context.seats.includes(play.position.owners[id]);
    drawn.chosen = mine && from !== id ? id : null;
  }
  mark(drawn);
}

function mark(drawn) {
  for (const group of drawn.svg.querySelectorAll("g.territory")) {
    group.classList.toggle("chosen", group.dataset.territory === drawn.chosen);
  }
}

function lastTurn(context) {
  return context.events.find((event) => event.type === "turn_run.v1") || null;
}

export function render(root, game, context) {
  const play = game.play;
  const drawn = built(root);
  const ticket = ++drawn.ticket;
  drawn.current = { game, context, play };
  const run = lastTurn(context);
  const looks = (player) => lookOf(context.players.get(player)?.color);
  const draw = (pending) =>
    drawBoard(drawn.svg, play.board, play.position, {
      looks,
      nameOf: context.name,
      last: run ? run.result.orders : [],
      pending,
      events: run ? run.result.events : {},
      info: drawn.info,
    });
  draw([]);
  if (drawn.chosen && !context.seats.includes(play.position.owners[drawn.chosen])) drawn.chosen = null;
  mark(drawn);
  drawn.svg.setAttribute(
    "aria-label",
    `Map of ${game.name} at the start of turn ${play.position.turn}` +
      (run ? `, with the orders of turn ${run.turn}` : ""),
  );
  drawn.info.replaceChildren(
    el(
      "p",
      { class: "hint" },
      "Point at a territory to see what happened there last turn." +
        (context.seats.length && context.live
          ? " Click one of yours, then a neighbour, to write an order in the move box."
          : ""),
    ),
  );
  describeOrders(drawn.orders, run, context);
  drawn.sandbox.href = `/sandbox/art-of-war?game=${encodeURIComponent(game.id)}&turn=${context.turn}`;

  // The reader's own orders not yet run (every submission of the turn), as the rules read
  // them: an order replaced by a newer one of its territory is not drawn.
  const sealed = Object.entries(context.sealed).filter(([, move]) => Array.isArray(move));
  drawn.pending.replaceChildren();
  if (!sealed.length) return;
  readOrders(play, Object.fromEntries(sealed))
    .then((reports) => {
      if (ticket !== drawn.ticket) return; // drawn again meanwhile
      draw(reports.filter((r) => r.result !== "replaced"));
      mark(drawn);
      const invalid = reports.filter((r) => r.result === "invalid");
      drawn.pending.replaceChildren(
        el("p", {}, `Your orders for turn ${play.position.turn} (dashed), secret until the turn runs.`),
        invalid.length
          ? el(
              "ul",
              { class: "invalid-orders" },
              ...invalid.map((r) => el("li", {}, `${r.text}: ${r.reason}`)),
            )
          : "",
      );
    })
    .catch((error) => {
      if (ticket !== drawn.ticket) return;
      drawn.pending.replaceChildren(el("p", {}, `Your orders cannot be drawn: ${error.message}`));
    });
}

// The last turn's orders with their results, as text (the arrows' words).
function describeOrders(box, run, context) {
  if (!run) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren(
    el("summary", {}, `The orders of turn ${run.turn}`),
    el("ul", { class: "board-list" }, ...run.result.orders.map((o) => orderItem(o, context.name))),
  );
}

// Beside a player's name: the stance, or that the player is out, and what it holds.
export function describePlayer(seat, game) {
  const position = game.play?.position;
  const player = position?.players?.[seat];
  if (!player) return null;
  if (player.status === "eliminated") return "eliminated";
  const held = Object.entries(position.owners).filter(([, owner]) => owner === seat);
  const units = held.reduce((sum, [territory]) => sum + (position.units[territory] ?? 0), 0);
  const resigned = (game.play.resigned || []).includes(seat) ? "resigned, " : "";
  const territories = `${held.length} territor${held.length === 1 ? "y" : "ies"}`;
  const pool = position.pending_builds?.[seat] ? `, ${position.pending_builds[seat]} to place` : "";
  const army = `${units} unit${units === 1 ? "" : "s"}`;
  return `${resigned}${stanceText(player.stance)}; ${territories}, ${army}${pool}`;
}
