// The sandbox: one person plays every player on a map of their choice. Orders are checked
// as they are typed (POST /v1/adjudicate, which stores nothing) and the map previews what
// would happen; resolve applies it, rewind undoes it, reset starts over. Everything lives
// in this page: the server keeps nothing.

import { colorNumberNamed } from "./palette.js";
import { describeBoard, renderMap } from "./render.js";
import { counts, renderStandings, sortStandings, swatch } from "./sidebar.js";
import { announce, api, debounce, el } from "./util.js";
import { setUpZoom } from "./zoom.js";

const $ = (id) => document.getElementById(id);

// The preset positions of the built-in maps: player -> armies, and territories held.
const PRESETS = {
  rulebook: {
    red: { armies: ["SI", "MA"], held: ["FI", "MJ", "KU"] },
    blue: { armies: ["RG", "OG", "EH"], held: ["BF", "SG"] },
    green: { armies: ["JN", "KH"], held: ["AE", "RW"] },
  },
  // The standard Diplomacy opening, armies only (the map has no seas).
  "diplomacy-land": {
    austria: { armies: ["VIE", "BUD", "TRI"], held: [], color: 1 },
    england: { armies: ["LON", "EDI", "LVP"], held: [], color: 10 },
    france: { armies: ["PAR", "MAR", "BRE"], held: [], color: 13 },
    germany: { armies: ["BER", "MUN", "KIE"], held: [], color: 8 },
    italy: { armies: ["ROM", "VEN", "NAP"], held: [], color: 3 },
    russia: { armies: ["MOS", "WAR", "SEV", "STP"], held: [], color: 16 },
    turkey: { armies: ["CON", "ANK", "SMY"], held: [], color: 4 },
  },
};

const box = {
  examples: {},
  map: null, // the map being played, with outlines
  ruleMap: null, // what /v1/adjudicate is told: a built-in name, or the map inline
  players: [], // [{id, name, color, pattern}]
  start: null, // {board, vp}: where reset goes back to
  board: null,
  vp: {},
  turn: 1,
  effect: null,
  history: [], // [{board, vp, text, resolved, turn}]
  resolved: null, // the last resolution, drawn until new orders are typed
  preview: null, // {text, pieces, answer} for the orders as typed
  asked: 0,
  names: [], // [lower-case name or id, id], longest first
};

function looks() {
  return new Map(box.players.map((p) => [p.id, p]));
}

function playerNamed(id, index) {
  const color = colorNumberNamed(id) || ((index % 20) + 1);
  return { id, name: id, color, pattern: 1 };
}

async function setUp(choice) {
  const example = choice.example ? box.examples[choice.example] : null;
  let map;
  let board;
  let players;
  if (example) {
    map = await api("/v1/maps/rulebook");
    box.ruleMap = "rulebook";
    players = example.players.map(playerNamed);
    board = { armies: { ...example.armies }, control: { ...example.control }, farms: [...example.farms] };
  } else if (choice.map === "generated") {
    map = await api("/v1/maps/generate", {
      method: "POST",
      body: { players: choice.players, type: choice.type, seed: choice.seed },
    });
    box.ruleMap = {
      name: map.name,
      territories: map.territories.map((t) => ({ id: t.id, name: t.name, barracks: !!t.barracks })),
      edges: map.edges,
      overseas: map.overseas || [],
    };
    players = [];
    board = { armies: {}, control: {}, farms: [] };
    const barracks = new Set(map.territories.filter((t) => t.barracks).map((t) => t.id));
    (map.homes || []).forEach((home, index) => {
      const id = `p${index + 1}`;
      players.push({ id, name: `Player ${index + 1}`, color: (index % 20) + 1, pattern: 1 });
      for (const tid of home) {
        board.control[tid] = id;
        if (barracks.has(tid)) board.armies[tid] = id;
      }
    });
  } else {
    map = await api(`/v1/maps/${encodeURIComponent(choice.map)}`);
    box.ruleMap = choice.map;
    const preset = PRESETS[choice.map] || {};
    players = Object.keys(preset).map((id, index) => ({
      ...playerNamed(id, index),
      ...(preset[id].color ? { color: preset[id].color } : {}),
    }));
    board = { armies: {}, control: {}, farms: [] };
    for (const [id, { armies, held }] of Object.entries(preset)) {
      for (const tid of [...armies, ...held]) board.control[tid] = id;
      for (const tid of armies) board.armies[tid] = id;
    }
    if (!players.length) players = [playerNamed("red", 0)];
  }
  box.map = map;
  box.players = players;
  box.names = [];
  for (const t of map.territories) {
    box.names.push([t.id.toLowerCase(), t.id], [t.name.toLowerCase().replace(/\s+/g, " "), t.id]);
  }
  box.names.sort((a, b) => b[0].length - a[0].length);
  box.effect = choice.effect || null;
  const vp = Object.fromEntries(players.map((p) => [p.id, 0]));
  box.start = { board, vp };
  reset();
  $("orders").value = example ? example.orders : "";
  $("phase").textContent = example
    ? `${example.title}: ${example.description}`
    : `Map ${map.name}: control every player; nothing is stored.`;
  await check();
}

function reset() {
  box.board = structuredClone(box.start.board);
  box.vp = { ...box.start.vp };
  box.turn = 1;
  box.history = [];
  box.resolved = null;
  box.preview = null;
  $("orders").value = "";
}

// The pieces of the typed text: one order each, as the engine splits them.
function pieces(text) {
  return text
    .split(/[,\n]/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
}

const isWordEnd = (text, at) => at >= text.length || !/[a-z0-9]/i.test(text[at]);
const isWordStart = (text, at) => at <= 0 || !/[a-z0-9]/i.test(text[at - 1]);

// The player an order belongs to: the owner of its army, or for REF the player who holds
// the barracks it goes to. null when the board does not say.
export function ownerOf(text) {
  const lower = text.toLowerCase().replace(/\s+/g, " ").trim();
  const { armies, control } = box.board;
  if (/^ref(?![a-z0-9])/.test(lower)) {
    for (const [name, id] of box.names) {
      if (lower.endsWith(name) && isWordStart(lower, lower.length - name.length)) {
        return control[id] ?? armies[id] ?? null;
      }
    }
    return null;
  }
  for (const [name, id] of box.names) {
    if (lower.startsWith(name) && isWordEnd(lower, name.length)) {
      return armies[id] ?? null;
    }
  }
  return null;
}

function request(text) {
  const split = pieces(text).map((piece) => ({ text: piece, owner: ownerOf(piece) }));
  const fallback = box.players[0].id;
  const orders = {};
  for (const piece of split) {
    const player = piece.owner ?? fallback;
    piece.player = player;
    (orders[player] ||= []).push(piece.text);
  }
  return {
    split,
    body: {
      map: box.ruleMap,
      players: Object.fromEntries(box.players.map((p) => [p.id, { vp: box.vp[p.id] ?? 0 }])),
      armies: box.board.armies,
      control: box.board.control,
      farms: box.board.farms,
      orders,
      effect: box.effect,
      explain: true,
    },
  };
}

// Check the orders as typed: adjudicate them, and preview the outcome.
async function check() {
  const text = $("orders").value;
  const ticket = ++box.asked;
  const { split, body } = request(text);
  if (!split.length) {
    box.preview = null;
    $("check-status").textContent = "";
    draw();
    return;
  }
  $("check-status").textContent = "Checking…";
  let answer;
  try {
    answer = await api("/v1/adjudicate", { method: "POST", body });
  } catch (error) {
    if (ticket !== box.asked) return;
    box.preview = null;
    $("check-status").textContent = `The orders cannot be checked: ${error.message}`;
    draw();
    return;
  }
  if (ticket !== box.asked) return; // the text changed meanwhile
  // The answer lists each player's orders in the order sent.
  const queues = new Map();
  for (const piece of split) {
    if (!queues.has(piece.player)) queues.set(piece.player, []);
    queues.get(piece.player).push(piece);
  }
  for (const order of answer.orders) {
    const piece = (queues.get(order.player) || []).shift();
    if (piece) piece.report = order;
  }
  box.preview = { text, split, answer };
  const invalid = split.filter((p) => p.report && p.report.result === "invalid").length;
  $("check-status").textContent =
    invalid === 0
      ? `${split.length} ${split.length === 1 ? "order" : "orders"}, all valid.`
      : `${invalid} of ${split.length} ${split.length === 1 ? "order is" : "orders are"} invalid.`;
  draw();
}

const checkSoon = debounce(check, 250);

function drawChecked() {
  const list = $("checked");
  const split = box.preview ? box.preview.split : [];
  const people = looks();
  list.replaceChildren(
    ...split.map((piece) => {
      const report = piece.report;
      const invalid = report && report.result === "invalid";
      const player = piece.owner ? people.get(piece.owner) : null;
      let why = "";
      if (report) {
        if (invalid) why = report.reason || "invalid";
        else if (report.result === "replaced") why = "replaced by a later order for the same army";
        else why = `${report.result}${report.explanation?.why ? `: ${report.explanation.why}` : ""}`;
      }
      return el(
        "li",
        { class: invalid ? "invalid" : "valid", "data-result": report ? report.result : "" },
        el("span", { class: "mark", "aria-hidden": "true" }, invalid ? "✗" : "✓"),
        el(
          "span",
          { class: "order-text" },
          piece.text,
          el("span", { class: "visually-hidden" }, invalid ? " (invalid)" : " (valid)"),
        ),
        el("span", { class: "owner" }, player ? [swatch(player), ` ${player.name}`] : "no owner on the board"),
        el("span", { class: "why" }, why),
      );
    }),
  );
}

function draw() {
  const svg = $("map");
  const message = $("map-message");
  if (!box.map) return;
  message.hidden = true;
  const banner = $("view-banner");
  let view;
  const base = { map: box.map, looks: looks(), effect: box.effect };
  if (box.preview) {
    const { answer } = box.preview;
    view = {
      ...base,
      board: { armies: answer.armies, control: answer.control, farms: answer.farms },
      orders: answer.orders,
      dead: answer.dead,
      label: `Preview of turn ${box.turn} of the sandbox: the map as it would be if these orders were resolved`,
    };
    banner.hidden = false;
    banner.className = "view-banner preview";
    banner.textContent = `Preview of turn ${box.turn}: nothing changes until you resolve.`;
    svg.dataset.view = "preview";
  } else if (box.resolved) {
    view = {
      ...base,
      effect: box.resolved.effect,
      board: box.board,
      orders: box.resolved.answer.orders,
      dead: box.resolved.answer.dead,
      label: `The sandbox at turn ${box.turn}, with the orders of turn ${box.turn - 1}`,
    };
    banner.hidden = false;
    banner.className = "view-banner";
    banner.textContent = `Turn ${box.turn - 1} resolved. Type the orders of turn ${box.turn}.`;
    svg.dataset.view = "resolved";
  } else {
    view = { ...base, board: box.board, orders: [], dead: [], label: `The sandbox at turn ${box.turn}` };
    banner.hidden = true;
    svg.dataset.view = "position";
  }
  svg.dataset.turn = String(box.turn);
  renderMap(svg, view);
  describeBoard($("board-text"), view);
  drawChecked();
  $("turn-number").textContent = String(box.turn);
  $("rewind").disabled = box.history.length === 0;
  const { territories, armies } = counts(box.board);
  const rows = sortStandings(
    box.players.map((p) => ({
      ...p,
      vp: box.vp[p.id] ?? 0,
      territories: territories.get(p.id) || 0,
      armies: armies.get(p.id) || 0,
    })),
  );
  const lastOrders = box.resolved ? box.resolved.answer.orders : null;
  $("orders-caption").textContent = box.resolved
    ? `Under each name: the orders of turn ${box.turn - 1}.`
    : "No turn resolved yet.";
  renderStandings($("standings"), rows, lastOrders, {
    winner: box.resolved ? box.resolved.answer.winner : null,
    gained: box.resolved ? box.resolved.answer.vp_gained : {},
  });
}

async function resolve() {
  if ($("orders").value !== (box.preview ? box.preview.text : "") || checkSoon.pending()) {
    checkSoon.cancel();
    await check();
  }
  const text = $("orders").value;
  if (!box.preview && pieces(text).length) {
    // The check failed (its status says why): resolving without the orders would mislead.
    announce("The orders could not be checked, so the turn was not resolved.");
    return;
  }
  const answer = box.preview
    ? box.preview.answer
    : await api("/v1/adjudicate", { method: "POST", body: request("").body });
  box.history.push({
    board: box.board,
    vp: box.vp,
    text,
    resolved: box.resolved,
    turn: box.turn,
  });
  box.board = { armies: answer.armies, control: answer.control, farms: answer.farms };
  box.vp = answer.vp;
  box.resolved = { answer, effect: box.effect };
  box.turn += 1;
  box.preview = null;
  $("orders").value = "";
  draw();
  const won = answer.winner ? ` ${answer.winner} wins.` : "";
  announce(`Turn ${box.turn - 1} resolved.${won}`);
}

function rewind() {
  const last = box.history.pop();
  if (!last) return;
  box.board = last.board;
  box.vp = last.vp;
  box.resolved = last.resolved;
  box.turn = last.turn;
  // As the rulebook's rewind: that turn's orders come back, to be changed or resolved again.
  $("orders").value = last.text;
  announce(`Rewound to turn ${box.turn}.`);
  check();
}

function choiceFromForm() {
  const number = (id, fallback) => {
    const value = Number.parseInt($(id).value, 10);
    return Number.isFinite(value) ? value : fallback;
  };
  return {
    map: $("map-choice").value,
    players: number("gen-players", 5),
    type: $("gen-type").value,
    seed: Math.max(0, number("gen-seed", 1)),
    example: $("example").value,
    effect: $("effect-choice").value,
  };
}

function choiceToUrl(choice) {
  const query = new URLSearchParams();
  if (choice.example) query.set("example", choice.example);
  else {
    query.set("map", choice.map);
    if (choice.map === "generated") {
      query.set("players", String(choice.players));
      query.set("type", choice.type);
      query.set("seed", String(choice.seed));
    }
  }
  if (choice.effect) query.set("effect", choice.effect);
  history.replaceState(null, "", `?${query}`);
}

function showGeneratedOptions() {
  const generated = $("map-choice").value === "generated";
  $("generated-options").hidden = !generated;
}

async function load(choice) {
  $("load").disabled = true;
  try {
    await setUp(choice);
  } catch (error) {
    const message = $("map-message");
    message.hidden = false;
    message.textContent = `The board cannot be set up: ${error.message}`;
  } finally {
    $("load").disabled = false;
  }
}

async function main() {
  const [maps, effects, examples] = await Promise.all([
    api("/v1/maps").catch(() => ({ maps: [] })),
    api("/v1/effects").catch(() => ({ effects: [] })),
    api("/static/examples.json").catch(() => ({})),
  ]);
  box.examples = examples;
  const mapChoice = $("map-choice");
  const generated = mapChoice.querySelector('option[value="generated"]');
  for (const map of maps.maps) {
    // The list holds other games' maps too (`game`); the sandbox plays Skirmish Society.
    if (map.name === "rulebook" || (map.game ?? "skirmish-society") !== "skirmish-society") continue;
    mapChoice.insertBefore(el("option", { value: map.name }, map.name), generated);
  }
  for (const [name, example] of Object.entries(examples)) {
    $("example").append(el("option", { value: name }, example.title));
  }
  for (const effect of effects.effects) {
    $("effect-choice").append(el("option", { value: effect.name, title: effect.description }, effect.name));
  }

  const query = new URLSearchParams(location.search);
  const known = (select, value) => [...$(select).options].some((o) => o.value === value);
  if (query.get("example") && known("example", query.get("example"))) {
    $("example").value = query.get("example");
    $("map-choice").value = "rulebook";
  } else if (query.get("map") && known("map-choice", query.get("map"))) {
    $("map-choice").value = query.get("map");
  }
  for (const [key, id] of [
    ["players", "gen-players"],
    ["type", "gen-type"],
    ["seed", "gen-seed"],
  ]) {
    if (query.get(key)) $(id).value = query.get(key);
  }
  if (query.get("effect") && known("effect-choice", query.get("effect"))) {
    $("effect-choice").value = query.get("effect");
  }
  showGeneratedOptions();
  setUpZoom($("zoom"), $("map-frame"));

  mapChoice.addEventListener("change", () => {
    showGeneratedOptions();
    if (mapChoice.value !== "rulebook") $("example").value = "";
  });
  $("example").addEventListener("change", () => {
    if ($("example").value) {
      mapChoice.value = "rulebook";
      showGeneratedOptions();
    }
  });
  $("effect-choice").addEventListener("change", () => {
    box.effect = $("effect-choice").value || null;
    if (box.map) check();
  });
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    const choice = choiceFromForm();
    choiceToUrl(choice);
    load(choice);
  });
  $("orders").addEventListener("input", () => {
    $("check-status").textContent = "Checking…";
    checkSoon();
  });
  $("orders").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      resolve();
    }
  });
  $("resolve").addEventListener("click", () => resolve());
  $("rewind").addEventListener("click", () => rewind());
  $("reset").addEventListener("click", () => {
    checkSoon.cancel();
    reset();
    box.asked += 1;
    $("check-status").textContent = "";
    draw();
    announce("The board is back to its starting position.");
  });

  await load(choiceFromForm());
  document.body.dataset.ready = "true";
}

main();
