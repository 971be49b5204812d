/* raten game page, on one board (Wordle: the daily word or a practice game, six tries) or several
   (Dordle, 2 boards, 7 tries; Quordle, 4 boards, 9 tries), typed or tapped. Every guess goes to
   every board not yet solved. The server keeps the answers; this page only ever sees the colours
   until the game is over. What differs with the number of boards (drawing the boards and the
   keys, what is said after a guess, the panel after the game, the options) is in play-one.js and
   play-boards.js, behind the same calls; Share, under any finished game, is here, and so are the
   dialogs that open by themselves: How to play on a first visit, the statistics after a game. */
import "./common.js";
import { BOARDS as N, LENGTH, RATEN, tr } from "./config.js";
import { openGame, sendGuess, wireNewGame } from "./game.js";
import "./history.js";
import { keyboard } from "./keyboard.js";
import * as many from "./play-boards.js";
import * as one from "./play-one.js";
import { openOnce } from "./settings.js";
import { share } from "./share.js";
import { openStats } from "./stats.js";
import { toast } from "./ui.js";

const variant = N > 1 ? many : one;
const el = (id) => document.getElementById(id);
/** The page's state, which the variant reads and draws: the mode asked for, the game as the
    server last sent it, the word being typed, whether a guess is on its way, the keyboard. */
const page = {
  mode: new URLSearchParams(location.search).get("mode") === "practice" ? "practice" : "daily",
  practiceKey: "raten-practice-" + RATEN.list + (N > 1 ? "-" + N : ""),
  game: null,
  current: "",
  sending: false,
  keys: null,
  render,
};

function start(fresh) {
  openGame({
    body: { list: RATEN.list, mode: page.mode, ...variant.options() },
    practiceKey: page.practiceKey,
    fresh,
    retry: () => start(fresh),
    shown: (opened, made) => {
      page.game = opened;
      if (made) page.current = "";
      render();
      if (opened.status !== "playing") showStats();  // the page opened on a finished game
    },
  });
}

/** The statistics of this game's variant and mode, opened by themselves at the end of a game (once
    the last row's tiles have turned) and when the page opens on a finished game, as NYT's do; after
    How to play when that is open (a first visit). */
async function showStats() {
  // two frames: the reveal's animations have begun; then every finite one has ended
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const finite = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => null)));
  const help = el("help");
  if (help && help.open) await new Promise((resolve) => help.addEventListener("close", resolve, { once: true }));
  // not over statistics the player opened meanwhile: opening them again would clear them while they load
  const stats = document.getElementById("stats-dialog");
  if (stats && stats.open) return;
  if (page.game && page.game.status !== "playing") openStats({ boards: N, mode: page.mode });
}

function render() {
  const game = page.game;
  el("tries").textContent = game.status === "playing" ? tr("tries_left", { n: game.max_tries - game.rows.length }) : "";
  variant.draw(page);
  document.body.dataset.game = game.status;
  if (game.status === "playing") {
    variant.playing();
    el("share-status").textContent = "";  // nothing said of the game before
    el("share-fallback").hidden = true;
  } else variant.after(game);
}

async function submit() {
  const game = page.game;
  if (!game || game.status !== "playing" || page.sending) return;
  if (page.current.length < LENGTH) { toast(tr("too_short")); variant.tooShort(); return; }
  page.sending = true;
  const before = game.rows.length;
  await sendGuess(game, page.current, {
    pending: () => variant.pending(page),
    sent: (after) => {
      page.game = after;
      page.sending = false;
      page.current = variant.nextWord(after);
      render();
      if (after.rows.length > before) variant.revealed(after);
      if (after.status !== "playing") showStats();
    },
    failed: () => { page.sending = false; variant.failed(page); },
    again: submit,
    settled: () => { page.sending = false; },
  });
}

function onKey(key) {
  if (!page.game || page.game.status !== "playing") return;
  if (page.sending) { variant.typedAhead(key); return; }  // the guess is on its way
  if (key === "enter") { submit(); return; }
  if (key === "backspace") page.current = page.current.slice(0, -1);
  else if (page.current.length < LENGTH) page.current += key;
  variant.typed(page, key);
}

page.keys = keyboard(onKey);
variant.wire(page);
el("share-button").addEventListener("click", () => {
  if (page.game && page.game.share) share(page.game.share, el("share-status"), el("share-fallback"));
});
wireNewGame(() => { page.mode = "practice"; start(true); });
openOnce("help", "raten.help-seen");  // How to play, by itself on the first visit
start(false);
