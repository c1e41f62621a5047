// The turn slider of a game's page (every game's): the game as it is, or a turn of its history,
// which `?turn=n` links to. The page keeps which turn it shows; this draws and reads the slider.

import { debounce } from "./util.js";

const $ = (id) => document.getElementById(id);

// The turn the address asks for, or null for the game as it is.
function requestedTurn() {
  const requested = Number.parseInt(new URLSearchParams(location.search).get("turn") || "", 10);
  return Number.isFinite(requested) && requested >= 1 ? requested : null;
}

// Turn `shown` of turns `first` to `last` (the game as it is when they are the same): the
// slider, its words, the link to the turn, "Back to live", and the banner over the board.
export function showTurns(first, last, shown) {
  const live = shown === last;
  const slider = $("turn-slider");
  slider.min = String(Math.min(first, last));
  slider.max = String(Math.max(1, last));
  slider.value = String(shown || 1);
  slider.setAttribute("aria-valuetext", `Turn ${shown} of ${last}${live ? ", live" : ""}`);
  $("turn-output").textContent = `${shown} of ${last}${live ? " (live)" : ""}`;
  const link = new URL(location.href);
  link.search = `?turn=${shown}`;
  link.hash = "";
  $("turn-link").href = link.href;
  $("live-button").hidden = live;
  const banner = $("view-banner");
  banner.hidden = live;
  banner.textContent = live ? "" : `Turn ${shown} of ${last}, from the game's history`;
}

// Turn `n` picked, of turns up to `last`: in the address and in the slider's words at once
// (the board follows when the page redraws). Null for the game as it is, else `n`.
function pickTurn(n, last) {
  const picked = n >= last ? null : n;
  history.replaceState(null, "", picked === null ? location.pathname : `?turn=${n}`);
  $("turn-output").textContent = `${Math.min(n, last)} of ${last}${n >= last ? " (live)" : ""}`;
  return picked;
}

// The turn shown: `viewTurn` (null: the game as it is), of turns up to `last`.
export function shownTurn(viewTurn, last) {
  return viewTurn === null || viewTurn >= last ? last : viewTurn;
}

// The page's turn in `page.viewTurn` (null: the game as it is): the address's at first; the
// reader's pick set at once (so that a redraw meanwhile keeps it) and drawn by `render`
// soon after, or at once on going back to the game as it is (`lastTurn()`).
export function setUpTurns(page, lastTurn, render) {
  page.viewTurn = requestedTurn();
  const renderSoon = debounce(() => render(), 100);
  const choose = (n, { now }) => {
    page.viewTurn = pickTurn(n, lastTurn());
    if (now) render();
    else renderSoon();
  };
  const slider = $("turn-slider");
  slider.addEventListener("input", () => choose(Number(slider.value), { now: false }));
  $("history").addEventListener("submit", (event) => event.preventDefault());
  $("live-button").addEventListener("click", () => {
    choose(lastTurn(), { now: true });
    slider.focus();
  });
}
