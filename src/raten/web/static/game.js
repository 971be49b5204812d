/* raten: a game on the server, for any number of boards: the mode in the URL, opening a game (a
   practice game in play is resumed), sending a guess, the error under the board with its retry,
   and the "New practice game" button. */
import { api, retryable } from "./api.js";
import { announce, langLinks, showError, toast } from "./ui.js";

/** Write the mode into the URL: ?mode=practice, or nothing for the daily game; the language
    switch keeps it (and the board count). */
function gameModeInUrl(mode) {
  const q = new URLSearchParams(location.search);
  if (mode === "practice") q.set("mode", "practice"); else q.delete("mode");
  history.replaceState(null, "", location.pathname + "?" + q.toString());
  langLinks(q);
}

/** Open the game to play: unless `opts.fresh`, a practice game still in play (its id kept in
    localStorage[opts.practiceKey]) is resumed, else a new one is made from `opts.body`. Calls
    `opts.shown(game, made)` (made: a new game); a failure is said under the board with a retry
    (`opts.retry`). */
export async function openGame(opts) {
  document.body.dataset.game = "loading";
  const practice = opts.body.mode === "practice";
  try {
    if (practice && !opts.fresh) {
      const id = localStorage.getItem(opts.practiceKey);
      if (id) {
        try {
          const old = await api("/api/games/" + encodeURIComponent(id));
          if (old.status === "playing") { opts.shown(old, false); return; }
        } catch (e) { /* gone or not ours: start a new one */ }
      }
    }
    const game = await api("/api/games", { method: "POST", body: opts.body });
    if (practice) localStorage.setItem(opts.practiceKey, game.id);
    opts.shown(game, true);
  } catch (e) {
    document.body.dataset.game = "error";
    toast(e.message);
    gameError(e.message, opts.retry);
  }
}

/** A message under the board, with a button that tries the failed request again. */
function gameError(message, again) {
  showError(document.getElementById("play-error"), message, again);
}

/** Send `word` as the next guess of `game` (body[data-sending] while it is on its way). Hooks:
    `pending()` draws the row in flight, `sent(game)` gets the game after the guess, `failed(e)` undoes
    the row (the error is then said, with a retry of `again` when that may help), `settled()` last. */
export async function sendGuess(game, word, hooks) {
  document.getElementById("play-error").hidden = true;
  hooks.pending();
  document.body.dataset.sending = "true";
  try {
    // the row it is played on: sent again after a lost answer, the server answers the game as it is
    // instead of playing the guess twice (a node may die between playing it and answering)
    hooks.sent(await api("/api/games/" + encodeURIComponent(game.id) + "/guesses", {
      method: "POST", body: { guess: word, row: game.rows.length },
    }));
  } catch (e) {
    hooks.failed(e);
    guessFailed(e, hooks.again);
  } finally {
    hooks.settled();
    delete document.body.dataset.sending;
  }
}

/** A guess refused or not answered: said on screen and to screen readers, with a retry when that may help. */
function guessFailed(e, again) {
  toast(e.message);
  announce(e.message);
  if (retryable(e)) gameError(e.message, again);
}

/** "New practice game": the URL says practice, then `begin()` starts one. */
export function wireNewGame(begin) {
  document.getElementById("new-game").addEventListener("click", (e) => {
    e.currentTarget.blur();
    gameModeInUrl("practice");
    begin();
  });
}
