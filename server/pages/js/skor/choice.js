// A player's setup choice (spec §3.3): a culture, the side of its territory that faces the
// opponent (1–6), and a Technocracy's free branch. The game's page seals it as a move; the
// sandbox takes both players' at once.

import { el } from "../util.js";
import { BRANCHES } from "./panel.js";

const CULTURES = ["technocracy", "feudal", "dictatorship", "theocracy", "nomadic", "alien"];

// The fields of one player's choice, with ids from `prefix`, showing `initial` (a choice
// already made) if given, and `read()` for the move ({"culture", "side", "tech"?}).
export function choiceFields(prefix, { alternative = false, legend, initial = null }) {
  const cultures = alternative ? [...CULTURES, "alternative"] : CULTURES;
  const select = (id, label, options) =>
    el(
      "div",
      { class: "field" },
      el("label", { for: `${prefix}-${id}` }, label),
      el(
        "select",
        { id: `${prefix}-${id}` },
        options.map(([value, text]) => el("option", { value }, text)),
      ),
    );
  const fieldset = el(
    "fieldset",
    { class: "skor-choice" },
    el("legend", {}, legend),
    select("culture", "Culture", cultures.map((c) => [c, c])),
    select(
      "side",
      "Side facing the opponent",
      [1, 2, 3, 4, 5, 6].map((k) => [String(k), `side ${k}`]),
    ),
    select("tech", "Technocracy's free tier 1", BRANCHES.map((b) => [b, b])),
  );
  const field = (id) => fieldset.querySelector(`#${prefix}-${id}`);
  if (initial) {
    field("culture").value = initial.culture;
    field("side").value = String(initial.side);
    if (initial.tech) field("tech").value = initial.tech;
  }
  const techField = field("tech").parentElement;
  const sync = () => {
    techField.hidden = field("culture").value !== "technocracy";
  };
  field("culture").addEventListener("change", sync);
  sync();
  const read = () => {
    const culture = field("culture").value;
    const choice = { culture, side: Number(field("side").value) };
    if (culture === "technocracy") choice.tech = field("tech").value;
    return choice;
  };
  return { fieldset, read };
}
