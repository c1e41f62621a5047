// One Skor position drawn whole (docs/skor.md, "The page"): the turn line, the board, the
// last action and its dice beside it, the buttons of click-to-move, and each player's card.
// Both the game's page (js/games/skor.js) and the Skor sandbox (js/skor/sandbox.js) draw
// through it; each says who may act and where an action's text goes.

import { shades } from "../palette.js";
import { el, svgEl } from "../util.js";
import { drawBoard } from "./board.js";
import { lastAction, playerCards, turnLine } from "./panel.js";
import { Picker } from "./picker.js";

// The page's own styles, linked once (the pages share style.css; these are Skor's alone).
function linkStyles() {
  if (document.querySelector("link[data-skor]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/skor.css", "data-skor": "" }));
}

// A player's ink and the tint of its territory, from its colour number in the palette.
export function looksOf(players, colorOf, nameOf) {
  const inks = {};
  const tints = {};
  for (const p of players) {
    const { base, light } = shades(colorOf(p));
    inks[p] = base;
    tints[p] = light;
  }
  return { inks, tints, name: nameOf };
}

// The territory ("A" or "B") a seat plays from, by the setup's roll.
export function territoryOf(setup, seat) {
  return setup.territories.A.player === seat ? "A" : "B";
}

// The JSON form of an action back to its text form (spec §4.11), to title the last action.
export function actionText(a) {
  const kind = a.kind ? ` ${a.kind === "military" ? "m" : "c"}` : "";
  switch (a.action) {
    case "move":
      return `move ${a.from} ${a.to}${kind}${a.covert ? " covert" : ""}`;
    case "fire":
      return `fire ${a.from} ${a.at}`;
    case "city":
      return `city ${a.to}`;
    case "spawn":
      return a.at ? `spawn ${a.at}` : "spawn";
    case "remove":
      return `remove ${a.at}${kind}`;
    case "build":
      return `build ${a.structure} ${a.at}`;
    case "send":
      // Sent without a piece placed, the action has no `place` (its default is left out).
      return ["send", a.amount, ...(a.place || [])].join(" ");
    case "spy":
      return `spy ${a.sacrifice1} ${a.sacrifice2} ${a.at}`;
    case "research":
      return `research ${a.branch}`;
    case "debris":
    case "promote":
    case "sabotage":
      return `${a.action} ${a.at}`;
    default:
      return a.action;
  }
}

// A step of a game (the definition's events of one move, resolution or setup, docs/skor.md
// "Playing Skor on the server"): what it was, its engine events and its dice.
export function stepOf(events, name) {
  for (const e of events) {
    switch (e.type) {
      case "skor_setup_rolled.v1":
        return { title: "The setup's rolls", events: [], dice: e.dice };
      case "skor_chosen.v1": {
        const chosen = Object.entries(e.choices).map(
          ([seat, c]) => `${name(seat)} ${c.culture}${c.tech ? ` (${c.tech})` : ""}, side ${c.side}`,
        );
        return { title: `Chosen: ${chosen.join("; ")}`, events: e.events, dice: e.dice };
      }
      case "skor_acted.v1":
        return {
          title: `${name(e.player)} played: ${e.actions.map(actionText).join("; ")}`,
          events: e.events,
          dice: e.dice,
        };
      case "skor_left.v1":
        return { title: `${name(e.player)} left the game`, events: e.events, dice: [] };
      default:
    }
  }
  return null;
}

// The state of one drawing surface that outlives a redraw: the selection being made.
const pickers = new WeakMap();

function pickerOf(root, key) {
  let found = pickers.get(root);
  if (!found || found.key !== key) {
    found = { key, picker: new Picker() };
    pickers.set(root, found);
  }
  return found.picker;
}

// Draw into `root`: `game` the engine's state (null during the choices), `setup` the rolled
// setup, `last` the last action ({title, events, dice}), `looks` the players' inks, tints and
// names, `seat` the player who may click now (null: nobody), `propose(text)` where a clicked
// action goes, and `key` what makes a selection stale (the position shown).
export function drawPosition(root, { game, setup, last, looks, seat, propose, key }) {
  linkStyles();
  const picker = pickerOf(root, key);
  picker.propose = propose;
  const redraw = () => drawPosition(root, { game, setup, last, looks, seat, propose, key });
  // With a player to act, each hex is a button (Enter or Space is a click); else a picture.
  const interactive = Boolean(game && seat);
  const svg = svgEl("svg", {
    class: "skor-board",
    role: interactive ? "group" : "img",
    "aria-label": interactive ? "Skor's board: select a hex, then another to move there" : "Skor's board",
    xmlns: "http://www.w3.org/2000/svg",
  });
  const owners = Object.fromEntries(Object.entries(setup.territories).map(([t, v]) => [t, v.player]));
  const local = {};
  if (!game) {
    for (const [t, territory] of Object.entries(setup.territories)) {
      for (const [name, kind] of Object.entries(territory.local)) {
        local[`${t}${name.slice(1)}`] = { kind, by: kind === "city" ? territory.player : null };
      }
    }
  }
  const marks = picker.marks();
  drawBoard(svg, { game, local, owners, inks: looks.inks, tints: looks.tints, marks, interactive });
  const choose = (target) => {
    const hex = target.closest("g.hex");
    if (!hex || !game) return;
    const piece = target.closest("g.piece");
    if (!picker.click(hex.dataset.hex, piece ? piece.dataset.kind : null, game, seat)) return;
    const focused = document.activeElement === hex;
    redraw();
    // The board was drawn anew: the keyboard stays on the hex it was on.
    if (focused) root.querySelector(`g.hex[data-hex="${hex.dataset.hex}"]`)?.focus();
  };
  svg.addEventListener("click", (event) => choose(event.target));
  svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    choose(event.target);
  });
  const status = game
    ? turnLine(game, looks.name)
    : `${looks.name(setup.players[0])} plays first (order roll ${setup.order_roll}). ` +
      "Both players choose a culture and the side of their territory that faces the other.";
  root.replaceChildren(
    el(
      "div",
      {
        class: "skor",
        "data-player": game && !game.ending ? game.turn.player : null,
        "data-phase": game ? (game.ending ? "over" : game.turn.phase) : "choices",
        "data-turn": game ? game.turn.number : null,
      },
      el("p", { class: "skor-turn", role: "status" }, status),
      el(
        "div",
        { class: "skor-main" },
        el("div", { class: "skor-frame" }, svg),
        el("div", { class: "skor-beside" }, last ? lastAction(last, looks.name) : null),
      ),
      game ? picker.controls(game, seat, redraw) : null,
      game ? playerCards(game, { ...looks, territory: (p) => territoryOf(setup, p) }) : null,
    ),
  );
  return root.firstChild;
}
