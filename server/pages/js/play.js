// The page of a game run by its definition (docs/games.md, "A game's page"): /games/{game},
// or /games/{game}?turn=n for a turn of its history. This shell does what every such game
// shares (the players and who has moved, the move box, the turn slider, the live socket)
// and mounts the game's own renderer, js/games/<game>.js, to draw the board.

import { showForkedFrom } from "./fork.js";
import { follow } from "./live.js";
import { gameBase, phaseText, setMessage, setStatus, showGone } from "./page.js";
import { colorOf } from "./palette.js";
import { forgetToken, keepToken, storedToken } from "./token.js";
import { setUpTurns, showTurns, shownTurn } from "./turns.js";
import { HttpError, announce, api, debounce, el, firstTurn } from "./util.js";

const base = gameBase();
const $ = (id) => document.getElementById(id);

const page = {
  game: null, // GET /v1/games/{game}, with the token when one is given
  renderer: null, // the game's module, or the shell's own when it has none
  position: 0, // the last position seen, from the API or the websocket
  viewTurn: null, // null: live; else the turn shown from history
  turns: new Map(), // turn -> GET /turns/{n}/play (a promise)
  link: null,
  rendering: 0,
  busy: false,
};

function token() {
  return $("move-token").value.trim() || undefined;
}

// A game's renderer is a module of this server's own (js/games/), named as the game is.
async function rendererOf(name) {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) return plainRenderer;
  try {
    return await import(`./games/${name}.js`);
  } catch {
    return plainRenderer;
  }
}

// A game with no renderer of its own: its view as JSON, and the last step's events.
const plainRenderer = {
  render(root, game, context) {
    root.replaceChildren(
      el("pre", { class: "play-json", "data-view": "play" }, JSON.stringify(game.play, null, 2)),
      context.events.length
        ? el(
            "pre",
            { class: "play-json", "data-view": "events" },
            JSON.stringify(context.events, null, 2),
          )
        : "",
    );
  },
};

async function loadGame() {
  let game;
  try {
    game = await api(base, { token: token() });
  } catch (error) {
    if (error instanceof HttpError && error.status === 401 && token()) {
      // A token the server does not know: forgotten, and the game read as anyone reads it.
      forgetToken();
      $("move-token").value = "";
      $("move-error").textContent = `The token was not accepted: ${error.message}`;
      return loadGame();
    }
    if (showGone(error, ["history", "side", "play-board"])) {
      page.link?.close();
      return;
    }
    throw error;
  }
  if (page.game && game.position < page.game.position) return; // an older answer
  if (!page.renderer || page.game?.game !== game.game) page.renderer = await rendererOf(game.game);
  // What was said of a move sent belongs to the turn it was sent in.
  if (page.game && game.turn !== page.game.turn) $("move-status").textContent = "";
  page.game = game;
  page.position = Math.max(page.position, game.position);
  await render();
}

const refresh = debounce(() => {
  loadGame().catch((error) => setStatus(`Could not reload the game: ${error.message}`));
}, 120);

function showing() {
  const last = page.game ? page.game.turn : 0;
  return shownTurn(page.viewTurn, last);
}

// A turn as the reader sees it: its start, and the events of the step that began it. Neither
// changes once the turn has begun (an act later in the turn is not its start), so each is
// asked once, until a rewind (or a snapshot, which may hide one) or another token.
async function turnPlay(n) {
  if (!page.turns.has(n)) page.turns.set(n, api(`${base}/turns/${n}/play`, { token: token() }));
  try {
    return await page.turns.get(n);
  } catch (error) {
    page.turns.delete(n);
    throw error;
  }
}

// The wait's deadline, in UTC as the notices say it: the server's clock may be a fake one.
function until(game) {
  if (game.phase !== "running" || !game.next_resolution_at) return "";
  return `, until ${new Date(game.next_resolution_at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

async function render() {
  const game = page.game;
  if (!game) return;
  const ticket = ++page.rendering;
  document.title = `${game.name}: ${game.game}`;
  $("game-name").textContent = game.name;
  const finished = game.ending ? `finished (${game.ending.by})` : "finished";
  $("phase").textContent =
    `${game.game}: ${phaseText(game, finished)}${until(game)}` + (game.settings.sandbox ? " (sandbox game)" : "");
  showForkedFrom(game);
  const started = game.play !== null && game.play !== undefined;
  const last = game.turn;
  const shown = showing();
  const live = shown === last;
  $("history").hidden = !started || last <= firstTurn(game);
  showTurns(firstTurn(game), last, shown);

  let step = { play: game.play, events: [] };
  if (started) {
    try {
      step = await turnPlay(shown);
    } catch (error) {
      if (ticket !== page.rendering) return;
      setMessage(`Turn ${shown} cannot be shown: ${error.message}`);
      return;
    }
  }
  if (ticket !== page.rendering) return; // a newer render started meanwhile
  const context = contextOf(game, { turn: shown, live, events: step.events });
  // Live, the game as the reader's seats see it now (stances changed since the turn began
  // too); else the start of the turn shown.
  const drawn = live ? game : { ...game, play: step.play };
  renderPlayers(drawn, context);
  renderMoveBox(game, live);
  const board = $("play-board");
  board.dataset.turn = String(shown);
  board.dataset.view = live ? "live" : "history";
  if (!started) {
    board.replaceChildren();
    setMessage("The board is drawn when the game starts.");
    return;
  }
  setMessage("");
  try {
    page.renderer.render(board, drawn, context);
  } catch (error) {
    setMessage(`The board cannot be drawn: ${error.message}`);
  }
}

// What the shell tells a game's renderer besides the game (docs/games.md, "A game's page").
function contextOf(game, { turn, live, events }) {
  const players = new Map(game.players.map((p) => [p.id, p]));
  return {
    turn,
    live,
    events,
    seats: game.seats || [],
    sealed: live ? game.sealed || {} : {},
    players,
    color: (seat) => colorOf(players.get(seat)?.color).hex,
    name: (seat) => players.get(seat)?.name ?? seat,
    move: (move, options = {}) => sendMove(move, options),
    draft: (text, { append = false } = {}) => {
      const box = $("move-text");
      box.value = append && box.value.trim() ? `${box.value.trimEnd()}\n${text}` : text;
      $("move-json").checked = false;
    },
  };
}

// Where a seat stands: its result once the game is over; else, in the game as it is, whether
// it left, or is waited for and has moved (where the game says so: `moved`).
function seatState(game, player, live) {
  if (game.ending) return game.ending.results[player.id] || "";
  if (!live) return "";
  if (player.status !== "active") return player.status;
  if (game.phase !== "running" || !(game.to_move || []).includes(player.id)) return "";
  if (game.moved === null || game.moved === undefined) return "to move";
  return game.moved.includes(player.id) ? "has moved" : "to move";
}

// The game's own columns of a seat's standing (docs/api.md, `standing`), as /help says them:
// `points 2, status active`, each known one.
function standingText(player) {
  const shown = Object.entries(player.standing || {}).filter(([, v]) => v !== null && v !== "");
  const text = (v) => (typeof v === "boolean" ? (v ? "yes" : "no") : String(v));
  return shown.map(([name, value]) => `${name.replaceAll("_", " ")} ${text(value)}`).join(", ");
}

// The players in the game's order (its standings', where it has them). Beside each name what
// the game's renderer says of it (`describePlayer`, for the turn shown); without one, live,
// the seat's standing.
function renderPlayers(game, context) {
  const note = page.renderer.describePlayer;
  $("players").replaceChildren(
    ...game.players.map((p) => {
      const state = seatState(game, p, context.live);
      const extra = note ? note(p.id, game, context) : context.live ? standingText(p) : null;
      return el(
        "li",
        {
          "data-player": p.id,
          "data-state": state.replace(" ", "-") || null,
          class: context.seats.includes(p.id) ? "mine" : null,
        },
        el("span", { class: "swatch", "data-color": p.color, "aria-hidden": "true" }),
        el("span", { class: "name" }, p.name),
        context.seats.includes(p.id) ? el("span", { class: "you" }, " (you)") : "",
        state ? el("span", { class: "seat-state" }, ` ${state}`) : "",
        extra ? el("span", { class: "player-note" }, extra) : "",
      );
    }),
  );
  // The swatch's colour: the CSP forbids inline style attributes, not style properties.
  for (const swatch of $("players").querySelectorAll(".swatch")) {
    swatch.style.background = colorOf(Number(swatch.dataset.color)).hex;
  }
}

function renderMoveBox(game, live) {
  const open = live && game.phase === "running";
  $("move-submit").disabled = !open || page.busy;
  const seats = game.seats || [];
  const nameOf = (seat) => game.players.find((p) => p.id === seat)?.name ?? seat;
  const select = $("move-seat");
  $("move-seat-field").hidden = seats.length < 2;
  if (seats.length >= 2 && select.options.length !== seats.length) {
    const chosen = select.value;
    select.replaceChildren(...seats.map((s) => el("option", { value: s }, nameOf(s))));
    if (seats.includes(chosen)) select.value = chosen;
  }
  const sealed = Object.entries(live ? game.sealed || {} : {});
  const box = $("sealed");
  box.hidden = sealed.length === 0;
  box.replaceChildren(
    ...sealed.map(([seat, move]) =>
      el(
        "div",
        { "data-seat": seat },
        el("p", {}, `Your sealed move as ${nameOf(seat)}, secret until the turn runs:`),
        el(
          "pre",
          { class: "play-json" },
          typeof move === "string" ? move : JSON.stringify(move, null, 2),
        ),
      ),
    ),
  );
}

// POST /v1/games/{game}/moves for the reader (with the seat chosen, in a sandbox).
async function sendMove(move, { player } = {}) {
  const given = token();
  if (!given) throw new Error("Give your account's token to move.");
  keepToken(given);
  const body = { move, turn: page.game.turn };
  const seat = player ?? (page.game.seats?.length > 1 ? $("move-seat").value : undefined);
  if (seat) body.player = seat;
  const done = await api(`${base}/moves`, { method: "POST", body, token: given });
  refresh();
  return done;
}

async function submit(event) {
  event.preventDefault();
  if (page.busy) return;
  const text = $("move-text").value;
  let move = text;
  $("move-error").textContent = "";
  if ($("move-json").checked) {
    try {
      move = JSON.parse(text);
    } catch (error) {
      $("move-error").textContent = `Not JSON: ${error.message}`;
      return;
    }
  }
  page.busy = true;
  $("move-submit").disabled = true;
  $("move-status").textContent = "Sending…";
  try {
    await sendMove(move);
    $("move-status").textContent = "Move sent.";
    announce("Move sent.");
  } catch (error) {
    $("move-status").textContent = "";
    $("move-error").textContent =
      error instanceof HttpError ? `${error.message} (${error.code})` : error.message;
  } finally {
    page.busy = false;
    if (page.game) renderMoveBox(page.game, showing() === page.game.turn);
  }
}

function handle(message) {
  if (message.position > page.position) page.position = message.position;
  if (["rewound", "snapshot"].includes(message.type)) page.turns.clear();
  if (message.type === "error") {
    setStatus(message.message || "The server closed the connection.");
    return;
  }
  refresh();
}

function setUp() {
  setUpTurns(page, () => (page.game ? page.game.turn : 0), render);
  $("move-token").value = storedToken();
  // Another token: another reader, who may see other seats.
  $("move-token").addEventListener("change", () => {
    page.turns.clear();
    $("move-error").textContent = "";
    refresh();
  });
  $("move-form").addEventListener("submit", submit);
  $("move-forget").addEventListener("click", () => {
    forgetToken();
    $("move-token").value = "";
    page.turns.clear();
    refresh();
  });
}

async function main() {
  setUp();
  try {
    await loadGame();
  } catch (error) {
    setMessage(`The game cannot be loaded: ${error.message}`);
  }
  if (page.game) {
    page.link = follow(base, {
      after: () => page.position,
      onMessage: handle,
      onStatus: setStatus,
      onGone: refresh,
    });
  }
  document.body.dataset.ready = "true";
}

main();
