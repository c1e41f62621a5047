// The Art of War's contract from a page's side (POST /v1/adjudicate with "ruleset":
// "art-of-war", docs/art-of-war.md): a request from a position, and a player's stance in words.

import { api } from "../util.js";

// No turn of a game runs here: a fixed seed, so that the same question is asked the same way
// (and the server answers it from its cache).
export const CHECK_SEED = "0000000000000000";

// The map as the contract takes it: a built-in one by name, else inline without its
// outlines (drawing hints the rules never read, and the bulk of a generated map).
export function contractMap(board, name) {
  if (name && name !== "generated") return name;
  return {
    territories: board.territories.map(({ id, name: called, population, x, y }) => ({
      id,
      name: called,
      population,
      x,
      y,
    })),
    edges: board.edges,
  };
}

// The request for one turn from `play` (a game's view, or the sandbox's position in the same
// form), the orders by player, and `seed` or `draws`.
export function requestOf(play, orders, { seed = CHECK_SEED, draws = null } = {}) {
  const position = play.position;
  const players = {};
  for (const [name, player] of Object.entries(position.players)) {
    const entry = { status: player.status };
    if (player.status !== "eliminated") entry.stance = player.stance.kind;
    const most = player.stance.draw_max;
    if (most !== null && most !== undefined) entry.draw_max = most;
    players[name] = entry;
  }
  const request = {
    ruleset: "art-of-war",
    map: contractMap(play.board, play.options.map),
    options: { placement: play.options.placement },
    turn: position.turn,
    players,
    owners: position.owners,
    units: position.units,
    pending_builds: position.pending_builds || {},
    orders,
  };
  if (draws) request.draws = draws;
  else request.seed = seed;
  return request;
}

export function adjudicate(request) {
  return api("/v1/adjudicate", { method: "POST", body: request });
}

const checked = new Map(); // request's JSON -> the orders as the rules read them

// Orders not yet run, as the rules read them (kind, from, to, sent; `invalid` with its reason,
// `replaced` by a newer one of the same territory): the contract's reports of a turn run with
// them alone, whose outcome is never shown.
export async function readOrders(play, orders) {
  const request = requestOf(play, orders);
  const key = JSON.stringify(request);
  if (!checked.has(key)) {
    checked.set(
      key,
      adjudicate(request).then((answer) =>
        answer.orders.map((report) => ({
          ...report,
          result: ["invalid", "replaced"].includes(report.result) ? report.result : null,
        })),
      ),
    );
    if (checked.size > 20) checked.delete(checked.keys().next().value);
  }
  try {
    return await checked.get(key);
  } catch (error) {
    checked.delete(key);
    throw error;
  }
}

const STANCES = { no_mercy: "no mercy", offer_mercy: "offers mercy", surrender: "surrenders" };

export function stanceText(stance) {
  if (stance.kind === "draw") {
    return stance.draw_max ? `offers a draw (at most ${stance.draw_max} signers)` : "offers a draw";
  }
  return STANCES[stance.kind] || stance.kind;
}
