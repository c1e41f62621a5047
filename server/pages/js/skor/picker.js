// Moves entered by clicking Skor's board (docs/skor.md, "The page"): a click selects a hex
// (or one piece of a stack), a second click on another hex makes `move F T` (or `fire F T`
// from a Turret, `city T` for a Nomadic City), and the buttons beside the board make the
// actions of the selected hex (build, promote, remove, debris, spawn, sabotage) and of the
// turn (spawn, research, end). Each gives the text form of spec §4.11 to `propose`; the page
// sends it as it sends what is typed.

import { el } from "../util.js";
import { BRANCHES } from "./panel.js";

const BUILDABLE = ["farm", "base", "fortification", "debris", "turret", "road"];
const SHORT = { civilian: "c", military: "m" };

export class Picker {
  constructor(propose) {
    this.propose = propose;
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
      else if (own(game, from, seat).length) this.propose(`move ${from} ${hex}${suffix}`);
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
    const button = (label, text, extra = {}) => {
      const b = el("button", { type: "button", class: "secondary", ...extra }, label);
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
    const hex = this.from;
    if (hex) {
      const mine = own(game, hex, seat);
      const structure = game.structures[hex];
      const unmoved = mine.filter((p) => !p.moved);
      const help = unmoved.length
        ? `${hex} selected: click a hex to move${this.kind ? ` its ${this.kind}` : ""} there.`
        : `${hex} selected.`;
      const aiming = { fire: `Click the hex to fire at from ${hex}.`, city: "Click the hex to move the City to." };
      const row = el("p", { class: "skor-picked", "data-hex": hex }, this.aim === "move" ? help : aiming[this.aim]);
      const buttons = [];
      if (mine.some((p) => p.kind === "civilian") && !structure) {
        for (const s of BUILDABLE) buttons.push(button(`Build ${s}`, `build ${s} ${hex}`));
      }
      if (mine.length && structure && !["city", "debris", "obstruction"].includes(structure.kind)) {
        buttons.push(button("Debris", `debris ${hex}`));
      }
      if (structure && structure.kind === "base" && mine.some((p) => p.kind === "civilian")) {
        buttons.push(button("Promote", `promote ${hex}`));
      }
      if (structure && structure.kind === "turret" && mine.length === 2) {
        buttons.push(button("Fire from here", () => (this.aim = "fire")));
      }
      if (structure && structure.kind === "city" && structure.by === seat) {
        if (game.cultures[seat] === "nomadic") buttons.push(button("Move the City", () => (this.aim = "city")));
      } else if (structure && game.cultures[seat] === "alien" && mine.length === 1) {
        buttons.push(button("Spawn here", `spawn ${hex}`));
      }
      if (structure && structure.by && structure.by !== seat) {
        buttons.push(button("Sabotage", `sabotage ${hex}`));
      }
      const kinds = new Set(mine.map((p) => p.kind));
      for (const k of kinds) {
        const suffix = kinds.size > 1 ? ` ${SHORT[k]}` : "";
        buttons.push(button(kinds.size > 1 ? `Remove ${k}` : "Remove", `remove ${hex}${suffix}`));
      }
      buttons.push(button("Unselect", () => this.clear()));
      box.append(row, el("div", { class: "row" }, buttons));
    }
    const research = el(
      "select",
      { class: "skor-research", "aria-label": "Branch to research" },
      el("option", { value: "" }, "Research…"),
      BRANCHES.map((b) => {
        const level = game.tech[seat]?.[b] ?? 0;
        return el("option", { value: b, disabled: level >= 3 }, level >= 3 ? `${b} (complete)` : `${b} tier ${level + 1}`);
      }),
    );
    research.addEventListener("change", () => {
      if (!research.value) return;
      this.clear();
      this.propose(`research ${research.value}`);
      redraw();
    });
    box.append(el("div", { class: "row" }, button("Spawn at the City", "spawn"), research, button("End the turn", "end")));
    return box;
  }
}

function own(game, hex, seat) {
  return game.pieces.filter((p) => p.at === hex && p.player === seat);
}

function mixed(game, hex, seat) {
  return new Set(own(game, hex, seat).map((p) => p.kind)).size > 1;
}
