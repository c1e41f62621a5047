// The live page of one game: /games/{game}, or /games/{game}?turn=n for a turn of its
// history. It reads the public API, follows the game's websocket and redraws on every
// change without reloading.

import { setUpFork, showFork, showForkedFrom } from "./fork.js";
import { follow } from "./live.js";
import { gameBase, phaseText as phaseWords, setMessage, setStatus, showGone } from "./page.js";
import { describeBoard, renderMap } from "./render.js";
import {
  counts,
  effectName,
  formerHalves,
  renderStandings,
  sortStandings,
  underShown,
} from "./sidebar.js";
import { HttpError, announce, api, debounce, el, firstTurn, formatDuration } from "./util.js";
import { setUpTurns, showTurns, shownTurn } from "./turns.js";
import { setUpZoom } from "./zoom.js";

const base = gameBase();

const page = {
  game: null, // GET /v1/games/{game}
  drawn: null, // the game's map with outlines
  position: 0, // the last position seen, from the API or the websocket
  clockOffset: 0, // the server's clock less ours, in milliseconds
  viewTurn: null, // null: live; else the turn shown from history
  turns: new Map(), // turn -> GET /turns/{n}
  effects: new Map(), // effect name -> what it does
  link: null, // the websocket (live.js)
  stopped: false,
  rendering: 0,
};

const $ = (id) => document.getElementById(id);

function hasOutlines(map) {
  return map.territories.every((t) => t.outline && t.outline.length >= 3);
}

async function drawableMap(map) {
  if (hasOutlines(map)) return map;
  if (page.drawn && page.drawn.name === map.name) return page.drawn;
  // A built-in map: the server fills in the outlines.
  return api(`/v1/maps/${encodeURIComponent(map.name)}`);
}

// Everyone who played the game: its players now, and the halves of its joint players as
// they were before joining.
function cast() {
  const players = page.game?.players || [];
  const halves = formerHalves(players);
  return { halves, looks: new Map([...halves, ...players.map((p) => [p.id, p])]) };
}

function currentTurn() {
  return page.game ? page.game.turn : 0;
}

function showing() {
  const last = currentTurn();
  return shownTurn(page.viewTurn, last);
}

// A turn of the history. The turns are a read model that follows the game a few
// milliseconds behind: a turn just reached may need a moment to appear.
async function turn(n) {
  if (page.turns.has(n)) return page.turns.get(n);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const found = await api(`${base}/turns/${n}`);
      // Kept once resolved (a rewind clears them all); a turn in play is asked again.
      if (found.resolution) page.turns.set(n, found);
      return found;
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 404 || attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function loadGame() {
  let game;
  try {
    game = await api(base);
  } catch (error) {
    if (showGone(error, ["map", "map-tools", "history", "board-text-box", "side"])) {
      page.stopped = true;
      page.link?.close();
      return;
    }
    throw error;
  }
  if (page.game && game.position < page.game.position) return; // an older answer
  page.game = game;
  page.position = Math.max(page.position, game.position);
  // The countdown follows the server's clock (a fake one, or ours set wrong), not ours.
  if (game.now) page.clockOffset = Date.parse(game.now) - Date.now();
  if (game.map) {
    try {
      page.drawn = await drawableMap(game.map);
    } catch (error) {
      setMessage(`The map cannot be drawn: ${error.message}`);
    }
  }
  await render();
}

const refresh = debounce(() => {
  loadGame().catch((error) => setStatus(`Could not reload the game: ${error.message}`));
}, 120);

function phaseText(game) {
  if (game.claims) {
    const seats = Object.values(game.claims);
    const claimed = seats.filter((claim) => claim === "claimed").length;
    return `turn ${game.turn}, waiting for its start: ${claimed} of ${seats.length} seats claimed`;
  }
  return phaseWords(game);
}

async function render() {
  const game = page.game;
  if (!game) return;
  const ticket = ++page.rendering;
  document.title = `${game.name}: Skirmish Society`;
  $("game-name").textContent = game.name;
  const winner = game.winner ? game.players.find((p) => p.id === game.winner) : null;
  $("phase").textContent =
    phaseText(game) + (winner ? `, won by ${winner.name}` : "") + (game.settings.sandbox ? " (sandbox game)" : "");
  showForkedFrom(game);

  const last = currentTurn();
  const shown = showing();
  const live = shown === last;
  const form = $("history");
  form.hidden = last < 1 || !page.drawn;
  showTurns(firstTurn(game), last, shown);
  showFork(game, shown, Boolean(page.drawn));

  let view;
  if (live) {
    view = liveView(game);
  } else {
    try {
      view = await historyView(game, shown);
    } catch (error) {
      if (ticket !== page.rendering) return;
      setMessage(`Turn ${shown} cannot be shown: ${error.message}`);
      return;
    }
  }
  if (ticket !== page.rendering) return; // a newer render started meanwhile
  const svg = $("map");
  svg.toggleAttribute("hidden", !page.drawn);
  $("map-tools").hidden = !page.drawn;
  $("board-text-box").hidden = !page.drawn;
  svg.dataset.turn = String(shown);
  svg.dataset.view = live ? "live" : "history";
  if (page.drawn) {
    setMessage("");
    renderMap(svg, view);
    describeBoard($("board-text"), view);
  } else if (game.phase === "joining") {
    svg.replaceChildren();
    setMessage("The map is drawn when the game starts.");
  }
  renderSide(game, view, live);
}

function liveView(game) {
  const lastTurn = game.last_turn;
  const { halves, looks } = cast();
  const shown = new Set(game.players.map((p) => p.id));
  return {
    map: page.drawn,
    board: game.board,
    looks,
    orders: lastTurn ? underShown(lastTurn.orders, shown, halves) : [],
    dead: lastTurn ? underShown(lastTurn.dead, shown, halves) : [],
    effect: lastTurn ? lastTurn.effect : null,
    resolvedTurn: lastTurn ? lastTurn.turn : null,
    // In a fork waiting for its start, each seat's claim.
    rows: game.players.map((p) => ({ ...p, claim: game.claims?.[p.id] })),
    gained: lastTurn ? lastTurn.vp_gained : {},
    effectInForce: game.effect,
    vote: game.vote,
    outcome: lastTurn ? lastTurn.vote_outcome : null,
    label: `Map of ${game.name} at turn ${game.turn}${lastTurn ? `, with the orders of turn ${lastTurn.turn}` : ""}`,
  };
}

async function historyView(game, n) {
  const before = n > firstTurn(game) ? turn(n - 1) : null;
  const [start, previous] = await Promise.all([turn(n), before]);
  const resolution = previous ? previous.resolution : null;
  const board = start.start_board;
  const { territories, armies } = counts(board);
  const { halves, looks } = cast();
  // The players of that turn: who scored in the turn before, or holds land at its start
  // (the halves of a joint player, before they joined).
  const ids = [...territories.keys(), ...armies.keys(), ...Object.keys(resolution?.vp || {})];
  const shown = new Set(ids.filter((id) => looks.has(id)));
  const rows = sortStandings(
    [...shown].map((id) => ({
      ...looks.get(id),
      vp: resolution ? (resolution.vp[id] ?? 0) : 0,
      territories: territories.get(id) || 0,
      armies: armies.get(id) || 0,
      status: "active",
      banned: false,
    })),
  );
  return {
    map: page.drawn,
    board,
    looks,
    orders: resolution ? underShown(resolution.orders, shown, halves) : [],
    dead: resolution ? underShown(resolution.dead, shown, halves) : [],
    effect: resolution ? resolution.effect : null,
    resolvedTurn: resolution ? n - 1 : null,
    rows,
    gained: resolution ? resolution.vp_gained : {},
    effectInForce: start.effect,
    vote: null,
    outcome: resolution ? resolution.vote_outcome : null,
    label: `Map of ${game.name} at the start of turn ${n}${resolution ? `, with the orders of turn ${n - 1}` : ""}`,
  };
}

function renderSide(game, view, live) {
  $("orders-caption").textContent =
    view.resolvedTurn === null
      ? "No turn has been resolved yet."
      : `Under each name: the orders of turn ${view.resolvedTurn}.`;
  renderStandings($("standings"), view.rows, view.resolvedTurn === null ? null : view.orders, {
    winner: live ? game.winner : null,
    gained: view.gained,
  });
  const effect = $("effect");
  effect.replaceChildren(
    view.effectInForce
      ? el("p", {}, "In force this turn: ", effectName(view.effectInForce, page.effects))
      : el("p", {}, "No effect in force this turn."),
  );
  const vote = $("vote");
  const parts = [];
  if (view.outcome) {
    const tally = Object.entries(view.outcome.tally)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ");
    parts.push(
      el(
        "p",
        {},
        "Last vote: ",
        el("strong", {}, view.outcome.winner),
        ` won (${tally}), for turn ${view.outcome.applies_to_turn}.`,
      ),
    );
  }
  if (view.vote) {
    const [a, b] = view.vote.candidates;
    const tally = view.vote.tally;
    const count = (name) => {
      if (!tally) return "";
      const n = tally[name] ?? 0;
      return ` (${n} ${n === 1 ? "vote" : "votes"})`;
    };
    parts.push(
      el(
        "div",
        { class: "vote-now" },
        el("p", {}, el("strong", {}, "Vote in progress"), " for the next turn:"),
        el(
          "ul",
          {},
          el("li", { "data-effect": a }, effectName(a, page.effects, count(a))),
          el("li", { "data-effect": b }, effectName(b, page.effects, count(b))),
        ),
        el(
          "p",
          {},
          `A tie goes to ${view.vote.tie_break}.`,
          tally ? "" : " Ballots are secret until the turn resolves.",
        ),
      ),
    );
  }
  vote.replaceChildren(...parts);
  tick();
}

// The countdown to the next resolution, every second.
function tick() {
  const game = page.game;
  const countdown = $("countdown");
  if (!game) return;
  if (page.viewTurn !== null && page.viewTurn < currentTurn()) {
    countdown.textContent = `Viewing turn ${page.viewTurn}; the game is at turn ${currentTurn()}.`;
    return;
  }
  const next = game.next_resolution_at;
  if (game.claims) {
    countdown.textContent =
      "The fork begins when its admin starts it; a seat nobody claimed by then plays as resigned.";
    return;
  }
  if (!next) {
    const words = {
      joining: "The game has not started yet.",
      paused: "The game is paused: turns do not resolve.",
      finished: "The game is over.",
    };
    countdown.textContent = words[game.phase] || "No resolution is scheduled.";
    return;
  }
  const at = new Date(next);
  countdown.dataset.at = next;
  if (game.clock === "fake") {
    // A fake clock stands still between its operator's moves (`skirmish demo` moves it a
    // turn every few seconds): real time counting down from it would tell nothing.
    const time = at.toLocaleTimeString([], { timeStyle: "short" });
    const day = at.toLocaleDateString([], { dateStyle: "medium" });
    countdown.textContent =
      `Next resolution at ${time} on the server's clock (${day}). Its operator moves that ` +
      "clock by hand (a demo or a test): no countdown.";
    return;
  }
  const left = at.getTime() - (Date.now() + page.clockOffset);
  const clock = at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  countdown.replaceChildren(
    left > 0 ? "Next resolution in " : "Resolving now",
    left > 0 ? el("strong", { class: "remaining" }, formatDuration(left)) : "",
    el("span", { class: "at" }, ` (${clock})`),
  );
}

// The websocket: catch up from the last position, then follow; reconnect when it drops.
function connect() {
  page.link = follow(base, {
    after: () => page.position,
    onMessage: handle,
    onStatus: setStatus,
    onGone: () => {
      page.stopped = true;
      refresh();
    },
    live: "Live: the map follows the game.",
  });
}

function handle(message) {
  if (message.position > page.position) page.position = message.position;
  const game = page.game;
  switch (message.type) {
    case "resolved": {
      if (game) {
        const resolution = message.resolution;
        game.turn = message.turn + 1;
        game.board = resolution.board;
        game.last_turn = resolution;
        game.effect = resolution.next_effect;
        game.vote = null;
        for (const p of game.players) p.vp = resolution.vp[p.id] ?? p.vp;
        render();
      }
      announce(`Turn ${message.turn} resolved.`);
      refresh();
      break;
    }
    case "rewound":
      page.turns.clear();
      announce(`Turn ${message.turn} was rewound.`);
      refresh();
      break;
    case "standings":
      if (game) {
        game.players = message.standings;
        if (showing() === currentTurn()) render();
      }
      break;
    // A snapshot comes instead of the events of a long absence: the game as it is now.
    case "snapshot":
    case "event":
      refresh();
      break;
    case "error":
      setStatus(message.message || "The server closed the connection.");
      break;
    default:
      break;
  }
}

function setUp() {
  setUpTurns(page, currentTurn, render);
  setInterval(tick, 1000);
  setUpZoom($("zoom"), $("map-frame"));
  setUpFork(base);
}

async function main() {
  setUp();
  api("/v1/effects")
    .then((answer) => {
      page.effects = new Map(answer.effects.map((e) => [e.name, e.description]));
      if (page.game) render();
    })
    .catch(() => {});
  try {
    await loadGame();
  } catch (error) {
    setMessage(`The game cannot be loaded: ${error.message}`);
  }
  if (!page.stopped) connect();
  document.body.dataset.ready = "true";
}

main();
