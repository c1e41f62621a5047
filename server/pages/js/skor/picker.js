// Moves entered by clicking Skor's board (docs/skor.md, "The page"): a click selects a hex
// (or one piece of a stack), a second click on another hex makes `move F T` (or `fire F T`
// from a Turret, `city T` for a Nomadic City), and the buttons under the board make the
// actions of the selected hex (build, promote, remove, debris, spawn, sabotage) and of the
// turn (spawn, research, end). Each gives the text form of spec §4.11 to `propose`, which
// puts it where typed actions go (the game page's move box, the sandbox's actions box).

import { el } from "../util.js";
import { BRANCHES } from "./panel.js";

const BUILDABLE = ["farm", "base", "fortification", "debris", "turret", "road"];
const SHORT = { civilian: "c", military: "m" };

export class Picker {
  constructor() {
    this.propose = () => {}; // set by whoever draws the board: where an action's text goes
    this.from = null; // the selected hex
    this.kind = null; // the kind of the piece clicked in it, if one was
    this.aim = "move"; // what a click on another hex makes: "move", "fire" or "city"
  }

  clear() {
    this.from = null;
    this.kind = null;
    this.aim = "move";
  }

  marks() {
    return this.from ? new Map([[this.from, "selected"]]) : new Map();
  }

  // A click on `hex` (on a piece of `kind`, or on the hex itself) while `seat` may act in
  // `game`; true when the selection changed.
  click(hex, kind, game, seat) {
    if (!seat) return false;
    if (this.from && hex !== this.from) {
      const from = this.from;
      const aim = this.aim;
      const suffix = aim === "move" && this.kind && mixed(game, from, seat) ? ` ${SHORT[this.kind]}` : "";
      this.clear();
      if (aim === "fire") this.propose(`fire ${from} ${hex}`);
      else if (aim === "city") this.propose(`city ${hex}`);
      else if (own(game, from, seat).some((p) => !p.moved)) this.propose(`move ${from} ${hex}${suffix}`);
      else return this.select(hex, kind);
      return true;
    }
    if (this.from === hex && kind === this.kind) {
      this.clear();
      return true;
    }
    return this.select(hex, kind);
  }

  select(hex, kind) {
    this.from = hex;
    this.kind = kind;
    this.aim = "move";
    return true;
  }

  // The buttons: the selected hex's actions, then the turn's.
  controls(game, seat, redraw) {
    const box = el("div", { class: "skor-picker", role: "group", "aria-label": "Actions by click" });
    if (!seat || game.ending) {
      box.hidden = true;
      return box;
    }
    // A button writes its action's text, or (a function) waits for the next click.
    const button = ([label, text]) => {
      const b = el("button", { type: "button", class: "secondary" }, label);
      b.addEventListener("click", () => {
        if (typeof text === "function") text();
        else {
          this.clear();
          this.propose(text);
        }
        redraw();
      });
      return b;
    };
    if (this.from) {
      box.append(
        el("p", { class: "skor-picked", "data-hex": this.from }, this.help(game, seat)),
        el("div", { class: "row" }, this.hexActions(game, seat).map(button)),
      );
    }
    const research = el(
      "select",
      { class: "skor-research", "aria-label": "Branch to research" },
      el("option", { value: "" }, "Research…"),
      BRANCHES.map((b) => {
        const level = game.tech[seat]?.[b] ?? 0;
        const text = level >= 3 ? `${b} (complete)` : `${b} tier ${level + 1}`;
        return el("option", { value: b, disabled: level >= 3 }, text);
      }),
    );
    research.addEventListener("change", () => {
      if (!research.value) return;
      this.clear();
      this.propose(`research ${research.value}`);
      redraw();
    });
    const turn = [button(["Spawn at the City", "spawn"]), research, button(["End the turn", "end"])];
    box.append(el("div", { class: "row" }, turn));
    return box;
  }

  help(game, seat) {
    const hex = this.from;
    if (this.aim === "fire") return `Click the hex to fire at from ${hex}.`;
    if (this.aim === "city") return "Click the hex to move the City to.";
    const piece = this.kind ? ` its ${this.kind}` : "";
    const movable = own(game, hex, seat).some((p) => !p.moved);
    return movable ? `${hex} selected: click a hex to move${piece} there.` : `${hex} selected.`;
  }

  // [label, text or what a click does] for what the selected hex allows; the engine says
  // whether the phase, the tech and the Resource allow it.
  hexActions(game, seat) {
    const hex = this.from;
    const mine = own(game, hex, seat);
    const structure = game.structures[hex];
    const kind = structure?.kind;
    const culture = game.cultures[seat];
    const civilian = mine.some((p) => p.kind === "civilian");
    const found = [];
    if (civilian && !structure) found.push(...BUILDABLE.map((s) => [`Build ${s}`, `build ${s} ${hex}`]));
    if (mine.length && structure && !["city", "debris"].includes(kind)) {
      found.push(["Debris", `debris ${hex}`]);
    }
    if (kind === "base" && civilian) found.push(["Promote", `promote ${hex}`]);
    if (kind === "turret" && mine.length === 2) found.push(["Fire from here", () => (this.aim = "fire")]);
    if (kind === "city" && structure.by === seat && culture === "nomadic") {
      found.push(["Move the City", () => (this.aim = "city")]);
    }
    if (structure && kind !== "city" && culture === "alien" && mine.length === 1) {
      found.push(["Spawn here", `spawn ${hex}`]);
    }
    if (structure?.by && structure.by !== seat) found.push(["Sabotage", `sabotage ${hex}`]);
    const kinds = [...new Set(mine.map((p) => p.kind))];
    for (const k of kinds) {
      found.push(kinds.length > 1 ? [`Remove ${k}`, `remove ${hex} ${SHORT[k]}`] : ["Remove", `remove ${hex}`]);
    }
    found.push(["Unselect", () => this.clear()]);
    return found;
  }
}

function own(game, hex, seat) {
  return game.pieces.filter((p) => p.at === hex && p.player === seat);
}

function mixed(game, hex, seat) {
  return new Set(own(game, hex, seat).map((p) => p.kind)).size > 1;
}
