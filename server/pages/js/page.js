// What every game's page (js/game.js, Skirmish Society's; js/play.js, the shell of a game run
// by its definition) does alike around its board: the game its address names, the message
// over the board, the connection's status, the game's phase in words, and a game gone.

import { HttpError } from "./util.js";

const $ = (id) => document.getElementById(id);

// The API's address of the game the page's address (/games/{game}) names.
export function gameBase() {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  return `/v1/games/${encodeURIComponent(gameId)}`;
}

// The message over the board; none for an empty text.
export function setMessage(text) {
  const message = $("map-message");
  message.hidden = !text;
  message.textContent = text || "";
}

export function setStatus(text) {
  $("connection").textContent = text;
}

// The game's phase in words; `finished`, how a finished game is said.
export function phaseText(game, finished = "finished") {
  const words = {
    joining: "waiting for players to join",
    running: `turn ${game.turn}`,
    paused: `turn ${game.turn}, paused`,
    finished,
    killed: "gone",
  };
  return words[game.phase] || game.phase;
}

// Whether `error` says the game is not there (404) or gone (410); if so the page says it,
// with the parts of the page named by `parts` hidden.
export function showGone(error, parts) {
  if (!(error instanceof HttpError && (error.status === 404 || error.status === 410))) {
    return false;
  }
  $("game-name").textContent = error.status === 404 ? "No such game" : "This game is gone";
  for (const id of parts) $(id).hidden = true;
  setMessage(error.message);
  return true;
}
