// Skor's renderer for the page of a game run by its definition (docs/games.md, "A game's
// page"; docs/skor.md, "The page"): the board and the players' cards from `play` (the
// definition's view: `{setup, game, left}`), the step that began the turn shown as the last
// action with its dice, moves built by clicking into the move box, and during the choices a
// form that seals each of the reader's seats' choice.

import { el } from "../util.js";
import { choiceFields } from "../skor/choice.js";
import { drawPosition, looksOf, stepOf, territoryOf } from "../skor/view.js";

// The form that seals a seat's choice, showing the choice it has sealed, if any.
function choiceForm(game, context, seat) {
  const setup = game.play.setup;
  const territory = territoryOf(setup, seat);
  const { fieldset, read } = choiceFields(`skor-choice-${seat}`, {
    alternative: setup.options.alternative_culture,
    legend: `${context.name(seat)}'s choice (territory ${territory})`,
    initial: context.sealed[seat] ?? null,
  });
  const error = el("p", { class: "fork-error", role: "alert" });
  const sealed = context.sealed[seat] !== undefined;
  const form = el(
    "form",
    { class: "skor-choose", "data-seat": seat, novalidate: true },
    fieldset,
    el("button", { type: "submit" }, sealed ? "Seal this choice instead" : "Seal the choice"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await context.move(read(), { player: seat });
    } catch (failed) {
      error.textContent = failed.message;
    }
  });
  return form;
}

// The choice forms last drawn on a board, by seat: `{sealed, form}`. The page redraws on every
// message of its socket (a late catch-up, a reconnection's), so a form drawn anew each time
// would lose what the reader has picked but not sent yet, and a click would then seal the
// form's first options. A seat's form is kept while its sealed choice is the one it shows.
const choiceFormsOf = new WeakMap();

// The forms that seal a choice, one per seat the reader plays.
function choiceForms(root, game, context) {
  const before = choiceFormsOf.get(root) ?? new Map();
  const now = new Map();
  for (const seat of context.seats) {
    const sealed = JSON.stringify(context.sealed[seat] ?? null);
    const kept = before.get(seat);
    const fresh = kept?.sealed !== sealed;
    now.set(seat, fresh ? { sealed, form: choiceForm(game, context, seat) } : kept);
  }
  choiceFormsOf.set(root, now);
  return [...now.values()].map(({ form }) => form);
}

export function render(root, game, context) {
  const play = game.play;
  const state = play.game;
  const looks = looksOf(
    play.setup.players,
    (seat) => context.players.get(seat)?.color,
    context.name,
  );
  // Clicks make moves only live, for a seat of the reader's whose turn it is.
  const running = context.live && game.phase === "running";
  const seat =
    running && state && !state.ending && context.seats.includes(state.turn.player)
      ? state.turn.player
      : null;
  const focused = document.activeElement;
  const drawn = drawPosition(root, {
    game: state,
    setup: play.setup,
    last: stepOf(context.events, context.name),
    looks,
    seat,
    propose: (text) => context.draft(text),
    key: `${game.position}|${context.turn}`,
  });
  if (!state && running) {
    drawn.append(...choiceForms(root, game, context));
    // A form kept was taken off the page and put back: the keyboard stays where it was.
    if (focused !== document.activeElement && drawn.contains(focused)) focused.focus();
  }
  const sandbox = `/sandbox/skor?game=${encodeURIComponent(game.id)}&turn=${context.turn}`;
  const link = el("a", { class: "turn-link", href: sandbox }, "This position in the sandbox");
  drawn.append(el("p", {}, link));
}

// Beside a name: its territory and culture (once chosen).
export function describePlayer(seat, game) {
  const play = game.play;
  if (!play) return null;
  const territory = territoryOf(play.setup, seat);
  const culture = play.game?.cultures[seat];
  return culture ? `territory ${territory}, ${culture}` : `territory ${territory}`;
}
