// The front page: the games on this server, a page at a time, and the sandbox.

import { api, el } from "./util.js";

const list = document.getElementById("games");
const more = document.getElementById("more");
let after = "";

async function next() {
  more.disabled = true;
  try {
    const page = await api(`/v1/games?limit=50&after=${encodeURIComponent(after)}`);
    if (!after) list.replaceChildren();
    for (const game of page.games) {
      list.append(
        el(
          "li",
          {},
          el("a", { href: `/games/${encodeURIComponent(game.id)}` }, game.name),
          ` (${game.phase}, turn ${game.turn}, ${game.players} players)`,
        ),
      );
    }
    if (!list.children.length) list.append(el("li", {}, "No games yet."));
    after = page.next || "";
    more.hidden = !page.next;
  } catch (error) {
    list.replaceChildren(el("li", {}, `The games cannot be listed: ${error.message}`));
  } finally {
    more.disabled = false;
  }
}

more.addEventListener("click", next);
next();
