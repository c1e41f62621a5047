// "Fork here" on a game's page: a new game that begins where the turn shown began
// (POST /v1/games/{game}/fork, docs/rules.md "Forks"). The page has no sign-in, so the form
// asks for an account's token, which token.js keeps for this tab.

import { forgetToken, keepToken, storedToken } from "./token.js";
import { HttpError, api, firstTurn } from "./util.js";

const $ = (id) => document.getElementById(id);

const fork = {
  base: "", // /v1/games/{game}
  turn: null, // the turn the form forks at; null when the turn shown cannot be forked
  busy: false,
};

// Under a fork's name, where it was forked from, linked to that turn of its source.
export function showForkedFrom(game) {
  const source = game.forked_from;
  $("forked-from").hidden = !source;
  if (source) {
    const link = $("forked-from-link");
    link.textContent = `game ${source.game}, turn ${source.turn}`;
    link.href = `/games/${encodeURIComponent(source.game)}?turn=${source.turn}`;
  }
}

// The last turn a fork may start from: the one being played, or a finished game's last.
function lastForkable(game) {
  return game.phase === "finished" ? game.turn - 1 : game.turn;
}

// On every render: the form forks the turn shown, when that turn can be forked.
export function showFork(game, shown, drawn) {
  const box = $("fork-box");
  box.hidden = !drawn || !["running", "paused", "finished"].includes(game.phase);
  if (box.hidden) return;
  fork.turn = shown >= firstTurn(game) && shown <= lastForkable(game) ? shown : null;
  const finished = game.phase === "finished";
  const who = finished
    ? "Anyone may make a sandbox of this finished game; only its admins may make a real fork, " +
      "which invites its players back to their seats."
    : "While the game is played, only its admins may fork it.";
  $("fork-about").textContent =
    fork.turn === null
      ? "The end of a game cannot be forked: pick one of its turns with the slider."
      : `A new game that begins as turn ${shown} of this one began; this one goes on untouched. ${who}`;
  setButton();
}

function setButton() {
  const button = $("fork-submit");
  button.disabled = fork.turn === null || fork.busy;
  if (fork.busy) button.textContent = "Forking…";
  else button.textContent = fork.turn === null ? "Fork" : `Fork at turn ${fork.turn}`;
}

// The API's refusal in words, with its code; nothing is hidden from whoever asked.
function explain(error) {
  if (!(error instanceof HttpError)) return `The request could not be sent: ${error.message}`;
  const said = `${error.message} (${error.code}).`;
  switch (error.status) {
    case 401:
      return `The token was not accepted: ${said} Give the token your account was made with.`;
    case 403:
      return `Not allowed: ${said}`;
    case 429:
      return `Not now: ${said}`;
    default:
      return `The game was not forked: ${said}`;
  }
}

function setError(text) {
  $("fork-error").textContent = text;
}

async function submit(event) {
  event.preventDefault();
  const turn = fork.turn;
  if (turn === null || fork.busy) return;
  const field = $("fork-token");
  const token = field.value.trim();
  if (!token) {
    setError("Give your account's token: a fork is made for an account.");
    field.focus();
    return;
  }
  keepToken(token);
  const body = { turn, sandbox: !$("fork-real").checked };
  const name = $("fork-name").value.trim();
  if (name) body.name = name;
  fork.busy = true;
  setButton();
  setError("");
  let made;
  try {
    made = await api(`${fork.base}/fork`, { method: "POST", body, token });
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) forgetToken();
    fork.busy = false;
    setButton();
    setError(explain(error));
    return;
  }
  // Still busy while the new game's page loads (it says where it was forked from): a
  // second click would fork again.
  location.assign(`/games/${encodeURIComponent(made.id)}`);
}

export function setUpFork(base) {
  fork.base = base;
  $("fork-token").value = storedToken();
  $("fork-form").addEventListener("submit", submit);
  $("fork-forget").addEventListener("click", () => {
    forgetToken();
    $("fork-token").value = "";
    setError("");
    $("fork-token").focus();
  });
}
