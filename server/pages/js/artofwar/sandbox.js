// The Art of War's sandbox (/sandbox/art-of-war): a position on a built-in map, or loaded
// from a game (?game=<id>&turn=<n>), edited by hand; every player's orders and stance; the
// turn run by POST /v1/adjudicate (docs/art-of-war.md, "The contract"), and played on from
// its outcome. Nothing is stored.

import { COLORS } from "../palette.js";
import { HttpError, announce, api, el, gameTurn, randomSeed } from "../util.js";
import { drawBoard, lookOf, orderItem } from "./board.js";
import { adjudicate, requestOf } from "./contract.js";

const $ = (id) => document.getElementById(id);

const box = {
  maps: [], // the Art of War's built-in maps by name (GET /v1/maps)
  files: new Map(), // built-in map name -> its file, once chosen (GET /v1/maps/{name})
  play: null, // the position, in the form of a game's view: options, board, position
  looks: new Map(), // player -> colour number
  names: new Map(), // player -> the name shown
  result: null, // the contract's answer for the position shown, once the turn ran
  selected: null, // the territory being edited
};

const STANCES = [
  ["no_mercy", "no mercy"],
  ["offer_mercy", "offer mercy"],
  ["draw", "draw"],
  ["surrender", "surrender"],
  ["eliminated", "eliminated"],
];

function setError(text) {
  $("sandbox-error").textContent = text;
}

async function mapFile(name) {
  if (!box.files.has(name)) box.files.set(name, await api(`/v1/maps/${encodeURIComponent(name)}`));
  return box.files.get(name);
}

// A new position on the built-in map `file`: each player one territory, spread over the map,
// with 12 - population units (a starting territory's, §2); the rest independent and empty.
// Edit any of it.
function newPosition(file, count, placement) {
  const ids = file.territories.map((t) => t.id);
  const players = Array.from({ length: count }, (_, k) => COLORS[k + 1]?.name || `player${k + 1}`);
  const owners = {};
  const units = {};
  players.forEach((player, k) => {
    const id = ids[Math.floor((k * ids.length) / count)];
    owners[id] = player;
    units[id] = 12 - file.territories.find((t) => t.id === id).population;
  });
  box.looks = new Map(players.map((p, k) => [p, k + 1]));
  box.names = new Map(players.map((p) => [p, p]));
  return {
    options: { map: file.name, placement },
    board: file,
    position: {
      turn: 1,
      players: Object.fromEntries(
        players.map((p) => [p, { status: "active", stance: { kind: "no_mercy" } }]),
      ),
      owners,
      units,
      pending_builds: {},
    },
  };
}

async function loadGame(gameId, turn) {
  const { game, shown, step } = await gameTurn(gameId, "art-of-war", "an Art of War game", turn);
  box.looks = new Map(game.players.map((p) => [p.id, p.color]));
  box.names = new Map(game.players.map((p) => [p.id, p.name]));
  $("position-about").textContent = `Game ${game.name}, turn ${shown}.`;
  return step.play;
}

// A player's name: its game's, for a position loaded from a game.
function nameOf(player) {
  return box.names.get(player) ?? player;
}

function show(play, result = null) {
  box.play = play;
  box.result = result;
  $("map-message").hidden = true;
  draw();
  renderPlayers();
  // The territory being edited, as the position now has it; nothing is edited in an outcome.
  $("territory-form").hidden = Boolean(result) || box.selected === null;
  if (box.selected !== null) editTerritory(box.selected);
  $("play-on").disabled = !result || Boolean(result.ending);
  $("result-box").hidden = !result;
  if (result) {
    $("result-summary").textContent = `The orders of turn ${play.position.turn}`;
    $("result-orders").replaceChildren(...result.orders.map((o) => orderItem(o, nameOf)));
  }
  const banner = $("view-banner");
  banner.hidden = !result;
  banner.textContent = result
    ? `After turn ${play.position.turn}` +
      (result.ending
        ? `: the game ends (${result.ending.by}).`
        : ". Play on from here, or change the orders and run it again.")
    : "";
}

// The position a turn's outcome leaves (its turn and players aside).
function after(result) {
  return { owners: result.owners, units: result.units, pending_builds: result.pending_builds };
}

function shownPosition() {
  const result = box.result;
  if (!result) return box.play.position;
  return { ...box.play.position, ...after(result) };
}

function draw() {
  const svg = $("map");
  const result = box.result;
  drawBoard(svg, box.play.board, shownPosition(), {
    looks: (player) => lookOf(box.looks.get(player)),
    nameOf,
    last: result ? result.orders : [],
    events: result ? result.events : {},
    info: $("territory-info"),
  });
  $("territory-info").replaceChildren(
    el("p", { class: "hint" }, "Point at a territory to see it; click one to edit it."),
  );
  svg.dataset.view = result ? "resolved" : "position";
  svg.dataset.turn = String(box.play.position.turn);
}

function field(id, label, control) {
  return el("div", { class: "field" }, el("label", { for: id }, label), control);
}

function renderPlayers() {
  const fields = $("player-fields");
  const kept = new Map([...fields.querySelectorAll("textarea")].map((t) => [t.dataset.player, t.value]));
  fields.replaceChildren(
    ...Object.entries(box.play.position.players).map(([player, state]) => {
      const name = nameOf(player);
      const stance = el(
        "select",
        { id: `stance-${player}`, "data-player": player },
        ...STANCES.map(([value, words]) => el("option", { value }, words)),
      );
      stance.value = state.status === "eliminated" ? "eliminated" : state.stance.kind;
      const drawMax = el("input", {
        id: `draw-max-${player}`,
        type: "number",
        min: 2,
        max: 20,
        inputmode: "numeric",
        value: state.stance.draw_max ?? "",
      });
      const free = box.play.options.placement === "free";
      const pool = el("input", {
        id: `pool-${player}`,
        type: "number",
        min: 0,
        max: 100000,
        inputmode: "numeric",
        value: box.play.position.pending_builds?.[player] ?? 0,
      });
      const orders = el("textarea", {
        id: `orders-${player}`,
        "data-player": player,
        rows: 2,
        spellcheck: "false",
      });
      orders.value = kept.get(player) ?? "";
      return el(
        "fieldset",
        { class: "sandbox-player", "data-player": player },
        el("legend", {}, name),
        field(`orders-${player}`, `Orders of ${name}`, orders),
        el(
          "div",
          { class: "row" },
          field(`stance-${player}`, "Stance", stance),
          field(`draw-max-${player}`, "Draw: at most", drawMax),
          free ? field(`pool-${player}`, "Units to place", pool) : "",
        ),
      );
    }),
  );
  const owner = $("territory-owner");
  owner.replaceChildren(
    el("option", { value: "" }, "independent"),
    ...Object.keys(box.play.position.players).map((p) => el("option", { value: p }, nameOf(p))),
  );
}

// The units each player has to place (free placement only), as the form sets them.
function poolsFromForm() {
  if (box.play.options.placement !== "free") return {};
  const pools = {};
  for (const player of Object.keys(box.play.position.players)) {
    const units = Number.parseInt($(`pool-${player}`).value, 10) || 0;
    if (units > 0) pools[player] = units;
  }
  return pools;
}

// The players' stances as the form sets them, into the position.
function stancesFromForm() {
  const players = {};
  for (const player of Object.keys(box.play.position.players)) {
    const kind = $(`stance-${player}`).value;
    const drawMax = Number.parseInt($(`draw-max-${player}`).value, 10);
    players[player] =
      kind === "eliminated"
        ? { status: "eliminated", stance: { kind: "no_mercy" } }
        : {
            status: "active",
            stance: kind === "draw" && drawMax >= 2 ? { kind, draw_max: drawMax } : { kind },
          };
  }
  return players;
}

async function resolve(event) {
  event.preventDefault();
  setError("");
  const seed = $("seed").value.trim().toLowerCase();
  if (!/^[0-9a-f]{16}$/.test(seed)) {
    setError("The turn seed is 16 hex digits.");
    return;
  }
  // Run from the position as it stood before any turn ran on it.
  const position = {
    ...box.play.position,
    players: stancesFromForm(),
    pending_builds: poolsFromForm(),
  };
  const play = { ...box.play, position };
  const orders = {};
  for (const area of $("player-fields").querySelectorAll("textarea")) {
    if (area.value.trim()) orders[area.dataset.player] = [area.value];
  }
  try {
    const result = await adjudicate(requestOf(play, orders, { seed }));
    show(play, result);
    announce(`Turn ${play.position.turn} ran.`);
  } catch (error) {
    setError(error instanceof HttpError ? `${error.message} (${error.code})` : error.message);
  }
}

function playOn() {
  const result = box.result;
  if (!result) return;
  const eliminated = new Set(result.eliminated);
  const players = Object.fromEntries(
    Object.entries(box.play.position.players).map(([p, state]) => [
      p,
      eliminated.has(p) ? { status: "eliminated", stance: state.stance } : state,
    ]),
  );
  for (const area of $("player-fields").querySelectorAll("textarea")) area.value = "";
  show({
    ...box.play,
    position: { turn: box.play.position.turn + 1, players, ...after(result) },
  });
}

// A territory clicked: edit its owner and units (in the position before the turn runs).
function select(event) {
  const group = event.target.closest?.("g.territory");
  if (!group || box.result) return;
  box.selected = group.dataset.territory;
  $("territory-form").hidden = false;
  editTerritory(box.selected);
}

function editTerritory(id) {
  $("territory-legend").textContent = `Territory ${id}`;
  $("territory-owner").value = box.play.position.owners[id] ?? "";
  $("territory-units").value = String(box.play.position.units[id] ?? 0);
}

function applyTerritory(event) {
  event.preventDefault();
  const id = box.selected;
  if (!id) return;
  const position = box.play.position;
  const owners = { ...position.owners };
  const units = { ...position.units };
  const owner = $("territory-owner").value;
  if (owner) owners[id] = owner;
  else delete owners[id];
  units[id] = Math.max(0, Number.parseInt($("territory-units").value, 10) || 0);
  const players = stancesFromForm();
  show({ ...box.play, position: { ...position, players, pending_builds: poolsFromForm(), owners, units } });
}

async function main() {
  $("seed").value = randomSeed();
  $("orders").addEventListener("submit", resolve);
  $("play-on").addEventListener("click", playOn);
  $("map").addEventListener("click", select);
  $("map").addEventListener("keydown", (event) => {
    if (event.key === "Enter") select(event);
  });
  $("territory-form").addEventListener("submit", applyTerritory);
  try {
    const listed = await api("/v1/maps");
    box.maps = listed.maps.filter((m) => m.game === "art-of-war").map((m) => m.name);
    $("map-choice").replaceChildren(...box.maps.map((name) => el("option", { value: name }, name)));
    $("setup").addEventListener("submit", async (event) => {
      event.preventDefault();
      setError("");
      const count = Math.min(20, Math.max(2, Number.parseInt($("player-count").value, 10) || 2));
      const placement = $("free-placement").checked ? "free" : "automatic";
      const name = $("map-choice").value;
      try {
        const file = await mapFile(name);
        $("position-about").textContent = `A new position on ${name}.`;
        box.selected = null;
        show(newPosition(file, count, placement));
      } catch (error) {
        setError(`The map cannot be loaded: ${error.message}`);
      }
    });
    $("load").addEventListener("submit", async (event) => {
      event.preventDefault();
      setError("");
      try {
        const turn = Number.parseInt($("load-turn").value, 10) || null;
        const play = await loadGame($("load-game").value.trim(), turn);
        box.selected = null;
        show(play);
      } catch (error) {
        setError(`The game cannot be loaded: ${error.message}`);
      }
    });
    const query = new URLSearchParams(location.search);
    const gameId = query.get("game");
    if (gameId) {
      $("load-game").value = gameId;
      $("load-turn").value = query.get("turn") || "";
      show(await loadGame(gameId, Number.parseInt(query.get("turn") || "", 10) || null));
    } else {
      const name = box.maps.includes("world") ? "world" : box.maps[0];
      $("map-choice").value = name;
      $("position-about").textContent = `A new position on ${name}.`;
      show(newPosition(await mapFile(name), 2, "automatic"));
    }
  } catch (error) {
    $("map-message").textContent = `The sandbox cannot start: ${error.message}`;
  }
  document.body.dataset.ready = "true";
}

main();
