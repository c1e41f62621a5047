// What stands beside Skor's board (docs/skor.md, "The page"): whose turn it is and the phase,
// each player's culture, Resource (available, incoming) and tech levels, and the last
// action: what it did and its dice. Pure drawing from a state and the action's events.

import { el } from "../util.js";

export const BRANCHES = ["city", "resource", "civilians", "military", "diplomacy", "espionage"];

const SHORT_BRANCH = {
  city: "city",
  resource: "res",
  civilians: "civ",
  military: "mil",
  diplomacy: "dipl",
  espionage: "esp",
};

const ENDINGS = {
  city: "by taking the City",
  resignation: "by resignation",
  round_limit: "at the round limit",
  agreement: "by agreement",
  forfeit: "by forfeit",
};

// "red's turn 5, build phase", or how the game ended.
export function turnLine(game, name) {
  if (game.ending) {
    const { winner, by } = game.ending;
    return winner ? `${name(winner)} won ${ENDINGS[by] || by}.` : `Drawn ${ENDINGS[by] || by}.`;
  }
  const { turn } = game;
  const phase = turn.phase === "purge" ? "purge: remove a piece" : `${turn.phase} phase`;
  const grace = turn.grace ? " (grace turn: no upkeep, no structures)" : "";
  return `Turn ${turn.number}: ${name(turn.player)} to play, ${phase}${grace}.`;
}

function swatch(ink) {
  const dot = el("span", { class: "skor-swatch", "aria-hidden": "true" });
  dot.style.background = ink;
  return dot;
}

// One player's card: culture, Resource, pieces and tech.
function playerCard(game, player, { name, inks, territory }) {
  const turn = game.turn;
  const mine = game.pieces.filter((p) => p.player === player);
  const count = (kind) => mine.filter((p) => p.kind === kind).length;
  const tech = game.tech[player] || {};
  const playing = !game.ending && turn.player === player;
  const resource = playing
    ? `${turn.available} available (produced ${turn.production}, upkeep ${turn.upkeep}` +
      `${turn.fed ? "" : ", not fed"})`
    : "none available (not its turn)";
  return el(
    "li",
    { class: `skor-player${playing ? " playing" : ""}`, "data-player": player },
    el(
      "p",
      { class: "skor-player-name" },
      swatch(inks[player]),
      el("strong", {}, name(player)),
      ` · territory ${territory(player)} · ${game.cultures[player]}`,
      playing ? el("span", { class: "skor-to-play" }, " · to play") : null,
    ),
    el(
      "dl",
      { class: "skor-facts" },
      el("dt", {}, "Resource"),
      el("dd", { class: "skor-available" }, resource),
      el("dt", {}, "Incoming"),
      el("dd", { class: "skor-incoming" }, String(game.incoming[player] ?? 0)),
      el("dt", {}, "Pieces"),
      el("dd", { class: "skor-pieces" }, `${count("civilian")} civilian, ${count("military")} military`),
    ),
    el(
      "table",
      { class: "skor-tech" },
      el("caption", {}, "Tech levels (0–3)"),
      el(
        "tr",
        {},
        BRANCHES.map((b) => el("th", { scope: "col" }, el("abbr", { title: b }, SHORT_BRANCH[b]))),
      ),
      el(
        "tr",
        {},
        BRANCHES.map((b) => el("td", { "data-branch": b }, String(tech[b] ?? 0))),
      ),
    ),
  );
}

export function playerCards(game, looks) {
  return el(
    "ol",
    { class: "skor-players" },
    game.players.map((p) => playerCard(game, p, looks)),
  );
}

// The last action's dice, each a die face with its size and purpose.
function diceList(dice) {
  if (!dice || dice.length === 0) {
    return el("p", { class: "skor-no-dice" }, "No dice rolled.");
  }
  // Many dice (the setup's two dozen) are shown as faces alone, the words kept for screen
  // readers and tooltips.
  return el(
    "ol",
    { class: dice.length > 6 ? "skor-dice compact" : "skor-dice" },
    dice.map((d) =>
      el(
        "li",
        {
          class: "skor-die",
          "data-sides": d.sides,
          "data-value": d.value,
          title: `d${d.sides} ${d.value} (${d.for}): ${d.labels}`,
        },
        el("span", { class: "skor-die-face", "aria-hidden": "true" }, String(d.value)),
        el("span", { class: "skor-die-text" }, `d${d.sides} ${d.value} (${d.for})`),
      ),
    ),
  );
}

const arrow = "→";

// One engine event as a short sentence (docs/skor.md, "Events").
function describeEvent(e, name) {
  const who = e.player !== undefined ? name(e.player) : "";
  switch (e.event) {
    case "turn_started":
      return (
        `Turn ${e.turn}: ${who} produced ${e.produced}, received ${e.received}, ` +
        `upkeep ${e.upkeep}: ${e.available} available${e.fed ? "" : " (starving)"}`
      );
    case "turn_ended":
      return `${who} ended turn ${e.turn}`;
    case "moved":
      return `${who} moved a ${e.kind} ${e.from} ${arrow} ${e.to}`;
    case "attack": {
      const removed = e.removed.map((r) => `${name(r.player)}'s ${r.kind} at ${r.at}`).join(", ");
      const took = e.captured ? `, and took ${e.to}` : "";
      return `${who} attacked ${e.to} from ${e.from}${removed ? `: removed ${removed}` : ""}${took}`;
    }
    case "spawned":
      return `${who} spawned a civilian at ${e.at}`;
    case "removed":
      return `${who}'s ${e.kind} at ${e.at} removed (${e.why})`;
    case "fed":
      return `${who} can feed its pieces: ${e.available} available`;
    case "built":
      return `${who} built a ${e.structure} at ${e.at} for ${e.cost}`;
    case "debris":
      return `${who} turned the ${e.was} at ${e.at} into debris for ${e.cost}`;
    case "promoted":
      return `${who} promoted a civilian at ${e.at}`;
    case "sent":
      return `${who} sent ${e.amount} Resource to ${name(e.to)}`;
    case "spied":
      return `${who} spied on ${e.killed}`;
    case "sabotaged":
      return `${who} sabotaged the ${e.was} at ${e.at}`;
    case "researched":
      return `${who} researched ${e.branch} tier ${e.tier} for ${e.cost}`;
    case "city_moved":
      return `${who} moved its City ${e.from} ${arrow} ${e.to}`;
    case "purge_roll":
      return `Purge roll: ${e.roll}${e.roll === 1 ? " (a piece must go)" : ""}`;
    case "providence_roll":
      return `Providence roll: ${e.roll}`;
    case "conversion_roll":
      return `Conversion roll at ${e.at}: ${e.roll}${e.converted ? " (converted)" : ""}`;
    case "won":
      return `${who} won (${e.by})`;
    case "drawn":
      return `The game is drawn (${e.by})`;
    case "resigned":
      return `${who} resigned`;
    default:
      return Object.entries(e)
        .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
        .join(", ");
  }
}

// The last action: its text, what happened, and its dice.
export function lastAction({ title, events, dice }, name) {
  return el(
    "section",
    { class: "skor-last", "aria-label": "The last action" },
    el("h3", {}, title),
    events.length
      ? el(
          "ul",
          { class: "skor-events" },
          events.map((e) => el("li", { "data-event": e.event }, describeEvent(e, name))),
        )
      : null,
    diceList(dice),
  );
}
