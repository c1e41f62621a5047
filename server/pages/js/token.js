// An account's token, typed into a page that has no sign-in (to fork a game, to play in one).
// This tab alone keeps it (sessionStorage: never the address, never localStorage), and it is
// sent in the Authorization header only. Storage can be refused (a browser's privacy
// settings): the fields still work, and ask again on the next page.

const KEY = "skirmish-token";

export function storedToken() {
  try {
    return sessionStorage.getItem(KEY) || "";
  } catch {
    return "";
  }
}

export function keepToken(token) {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Not kept: it is asked again on the next page.
  }
}

export function forgetToken() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
