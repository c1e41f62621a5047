// Small DOM and formatting helpers shared by the pages.

export const SVG_NS = "http://www.w3.org/2000/svg";

// An HTML element: el("li", {class: "x", "data-id": 3}, child, "text", ...).
export function el(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

// An SVG element, the same way.
export function svgEl(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

// [[x, y], ...] as an SVG `points` attribute, to a tenth of a unit: "12.0,3.5 14.2,8.0".
export function svgPoints(points) {
  return points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function build(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A game's first turn: 1, or a fork's, the turn of its source it began at.
export function firstTurn(game) {
  return game.forked_from ? game.forked_from.turn : 1;
}

// A fresh seed for a sandbox's draws: 16 hex digits.
export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A sandbox's start from a game: the game (`kind`, as the registry names it, and started)
// and its turn `turn` as `GET /turns/{n}/play` gives it (the game's current one without a
// turn). `called` names such a game in the error of another kind.
export async function gameTurn(gameId, kind, called, turn) {
  const base = `/v1/games/${encodeURIComponent(gameId)}`;
  const game = await api(base);
  if (game.game !== kind) throw new Error(`game ${gameId} is not ${called}`);
  if (!game.play) throw new Error(`game ${gameId} has not started`);
  const shown = Number.isFinite(turn) && turn >= 1 ? turn : game.turn;
  const step = await api(`${base}/turns/${shown}/play`);
  return { game, shown, step };
}

// "2 d 3 h", "3 h 05 min", "4 min 09 s", "12 s".
export function formatDuration(milliseconds) {
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${two(minutes)} min`;
  if (minutes > 0) return `${minutes} min ${two(seconds)} s`;
  return `${seconds} s`;
}

// Run `action` once calls stop for `wait` milliseconds.
export function debounce(action, wait) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      action(...args);
    }, wait);
  };
  debounced.cancel = () => clearTimeout(timer);
  debounced.pending = () => timer !== null;
  return debounced;
}

export class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The API's JSON, or an HttpError with the API's message. With `token`, the call acts for
// that account (in the Authorization header, never in the address).
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "http", message: response.statusText };
    throw new HttpError(response.status, error.code, error.message);
  }
  return data;
}

// Say something to screen readers through the page's polite live region.
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  // A new text node after a tick, so that the same message is read again.
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}
