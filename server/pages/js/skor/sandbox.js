// The Skor sandbox (/sandbox/skor; docs/skor.md, "The sandbox"): one person plays both
// sides, from a new setup or from a game's turn (?game=<id>&turn=<n>, as the game's page
// links to it). The setup and every action go to POST /v1/adjudicate with "ruleset": "skor"
// (the contract of docs/skor.md), which stores nothing: the page keeps the states, so Undo
// is a step back in its own list.

import { announce, api, el, gameTurn, randomSeed } from "../util.js";
import { choiceFields } from "./choice.js";
import { actionText, drawPosition, looksOf, stepOf } from "./view.js";

const $ = (id) => document.getElementById(id);

const sandbox = {
  setup: null, // the contract's setup answer: order roll, players, territories
  steps: [], // {state, last}: the position after each action, the first after the choices
  names: [], // the players, in joining order
  rolls: [], // the setup's dice
  looks: null, // a game's players' colours and names, for a position loaded from it
  busy: false,
};

let choices = [];

function seed() {
  const field = $("seed");
  const given = field.value.trim().toLowerCase();
  if (/^([0-9a-f]{2}){1,64}$/.test(given)) return given;
  field.value = randomSeed();
  return field.value;
}

function options() {
  const limit = Number.parseInt($("round-limit").value, 10);
  return {
    round_limit: Number.isFinite(limit) ? limit : 100,
    alternative_culture: $("alternative").checked,
  };
}

function setUpChoices() {
  const alternative = $("alternative").checked;
  choices = ["first", "second"].map((prefix, i) =>
    choiceFields(`choice-${prefix}`, {
      alternative,
      legend: `${i === 0 ? "First" : "Second"} to join: culture and side`,
    }),
  );
  $("choices").replaceChildren(...choices.map((c) => c.fieldset));
}

function names() {
  return [$("first-name").value.trim() || "red", $("second-name").value.trim() || "blue"];
}

async function adjudicate(body) {
  return api("/v1/adjudicate", { method: "POST", body: { ruleset: "skor", seed: seed(), ...body } });
}

// A player's name: a game's player's, or the sandbox's own names.
function nameOf(player) {
  return sandbox.looks?.get(player)?.name ?? player;
}

function draw() {
  const setup = sandbox.setup;
  if (!setup) return;
  const step = sandbox.steps.at(-1);
  const state = step ? step.state : null;
  const [first] = sandbox.names;
  const given = sandbox.looks;
  const looks = looksOf(
    setup.players,
    (p) => (given ? given.get(p)?.color : p === first ? 1 : 2),
    nameOf,
  );
  const seat = state && !state.ending ? state.turn.player : null;
  drawPosition($("skor-board"), {
    game: state,
    setup,
    last: step ? step.last : { title: "The setup's rolls", events: [], dice: sandbox.rolls },
    looks,
    seat,
    propose: (text) => {
      $("skor-actions").value = text;
      $("skor-actions").focus();
    },
    key: sandbox.steps.length,
  });
  $("board-message").hidden = true;
  $("act-box").hidden = !state;
  $("act-label").textContent = seat ? `Actions for ${nameOf(seat)}` : "The game is over";
  $("play").disabled = !seat || sandbox.busy;
  $("undo").disabled = sandbox.steps.length < 2 || sandbox.busy;
}

// A new setup: the names are the players', no game's.
function fresh() {
  $("setup-error").textContent = "";
  $("view-banner").hidden = true;
  sandbox.looks = null;
  sandbox.names = names();
}

async function roll() {
  fresh();
  try {
    const rolled = await adjudicate({ setup: { players: sandbox.names, options: options() } });
    sandbox.setup = rolled;
    sandbox.rolls = rolled.dice;
    sandbox.steps = [];
    $("skor-results").replaceChildren();
    draw();
  } catch (error) {
    $("setup-error").textContent = error.message;
  }
}

async function start(event) {
  event.preventDefault();
  fresh();
  const [first, second] = sandbox.names;
  const setup = {
    players: sandbox.names,
    options: options(),
    choices: { [first]: choices[0].read(), [second]: choices[1].read() },
  };
  try {
    const started = await adjudicate({ setup });
    sandbox.setup = started;
    sandbox.rolls = started.dice;
    sandbox.steps = [{ state: started.state, last: { title: "Turn 1 begins", events: started.events, dice: [] } }];
    $("skor-results").replaceChildren();
    draw();
    announce(`The game starts: ${started.state.turn.player} plays first.`);
  } catch (error) {
    $("setup-error").textContent = error.message;
  }
}

function report(result) {
  const what = result.text ?? (result.action ? actionText(result.action) : "");
  const words = { ok: "played", refused: `refused: ${result.reason}`, not_run: "not run" };
  return el("li", { "data-result": result.result }, el("code", {}, what), ` ${words[result.result]}`);
}

async function play(event) {
  event.preventDefault();
  const step = sandbox.steps.at(-1);
  const text = $("skor-actions").value.trim();
  if (!step || !text || sandbox.busy) return;
  const player = step.state.turn.player;
  sandbox.busy = true;
  $("act-error").textContent = "";
  try {
    const answer = await adjudicate({ state: step.state, actions: [{ player, text }] });
    const done = answer.results.filter((r) => r.result === "ok");
    $("skor-results").replaceChildren(...answer.results.map(report));
    // The contract keeps the lines before a refused one: they are played.
    if (done.length) {
      sandbox.steps.push({
        state: answer.state,
        last: {
          title: `${nameOf(player)} played: ${done.map((r) => r.text).join("; ")}`,
          events: done.flatMap((r) => r.events),
          dice: answer.dice,
        },
      });
    }
    const refused = answer.results.find((r) => r.result === "refused");
    if (refused) $("act-error").textContent = `${refused.text}: ${refused.reason}`;
    else $("skor-actions").value = "";
  } catch (error) {
    $("act-error").textContent = error.message;
  } finally {
    sandbox.busy = false;
    draw();
  }
}

function undo() {
  if (sandbox.steps.length < 2) return;
  sandbox.steps.pop();
  $("skor-results").replaceChildren();
  $("act-error").textContent = "";
  draw();
}

// A game's turn as the game's page shows it: its setup, its state (none while its players
// choose) and the step that led to it; the sandbox plays on from there with its own seed.
async function loadGame(gameId, turn) {
  try {
    const { game, shown, step } = await gameTurn(gameId, "skor", "a game of Skor", turn);
    const players = new Map(game.players.map((p) => [p.id, p]));
    sandbox.looks = players;
    sandbox.setup = step.play.setup;
    sandbox.names = step.play.setup.players;
    sandbox.rolls = [];
    const last = stepOf(step.events, nameOf);
    sandbox.steps = step.play.game ? [{ state: step.play.game, last }] : [];
    if (!step.play.game) sandbox.rolls = last ? last.dice : [];
    const banner = $("view-banner");
    banner.hidden = false;
    banner.textContent = step.play.game
      ? `Game ${game.name}, turn ${shown}: play on from here (the dice are the sandbox's own).`
      : `Game ${game.name}, turn ${shown}: its players are still choosing; a start here rolls anew.`;
    draw();
  } catch (error) {
    $("setup-error").textContent = `The game cannot be loaded: ${error.message}`;
  }
}

function setUp() {
  $("seed").value = randomSeed();
  setUpChoices();
  $("alternative").addEventListener("change", setUpChoices);
  $("roll").addEventListener("click", roll);
  $("skor-setup").addEventListener("submit", start);
  $("skor-act").addEventListener("submit", play);
  $("undo").addEventListener("click", undo);
  $("skor-actions").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) play(event);
  });
  const query = new URLSearchParams(location.search);
  const loading = query.get("game")
    ? loadGame(query.get("game"), Number.parseInt(query.get("turn") || "", 10))
    : Promise.resolve();
  loading.finally(() => {
    document.body.dataset.ready = "true";
  });
}

setUp();
