/* raten game on one board (Wordle): what play.js does differently there: hard mode, the board
   with the row being typed (and the next one's letters typed while a guess is on its way), the
   reveal, and the panel after the game (share, statistics, the exact review). */
import { api } from "./api.js";
import { blankRow, fitBoard, guessRow, typedRow } from "./board-view.js";
import { LENGTH, RATEN, tr } from "./config.js";
import { reviewPanel } from "./review.js";
import { coloursOf, squares, tileLabel } from "./tiles.js";
import { announce, barChart, toast } from "./ui.js";

const el = (id) => document.getElementById(id);
let hard = false;  // the switch, kept in localStorage["raten-hard"]; a game in play has its own
let ahead = "";  // letters typed while a guess is in flight: the next row's beginning
let review = null;
let page = null;

/** What a new game of one board is asked with. */
export function options() { return { hard }; }

/** Draw the game: its title, the board, the keys. */
export function draw(p) {
  const game = p.game;
  if (game.status === "playing") {
    hard = game.hard;
    el("hard").checked = game.hard;
  }
  const title = game.mode === "daily"
    ? tr("game_daily", { list: game.list, number: game.number })
    : tr("game_practice", { list: game.list });
  const heading = el("game-title");
  heading.textContent = title;
  if (game.hard) {
    const star = document.createElement("abbr");
    star.textContent = "*";
    star.title = tr("hard_star");
    heading.append(" ", star);
  }
  // the tab says what this is: "raten · Wordle auf Deutsch · Nr. 700"
  const what = tr(RATEN.language === "de" ? "wordle_de" : "wordle_en");
  document.title = "raten \u00b7 " + what + " \u00b7 "
    + (game.mode === "daily" ? tr("number", { number: game.number }) : tr("practice"))
    + (game.hard ? " *" : "");
  const board = el("board");
  board.replaceChildren();
  for (let i = 0; i < game.max_tries; i++) {
    if (i < game.rows.length) {
      const row = game.rows[i];
      board.appendChild(guessRow(row.guess, coloursOf(row.pattern), tr("row_label", { n: i + 1, word: row.guess.toUpperCase() })));
    } else if (i === game.rows.length && game.status === "playing") {
      board.appendChild(inputRow());
    } else {
      board.appendChild(blankRow());
    }
  }
  p.keys.colour([game.keyboard]);
  fitBoard();
}

/** The row being typed: while a guess is in flight, that guess, marked pending. */
function inputRow() {
  const row = typedRow(page.current, "input_row");
  row.id = "input-row";
  if (page.sending) {
    row.classList.add("pending");
    row.setAttribute("aria-busy", "true");
  }
  return row;
}

function shake() {
  const row = el("input-row");
  if (!row) return;
  row.classList.remove("shake");
  void row.offsetWidth;
  row.classList.add("shake");
}

/** A letter or Backspace: the input row drawn anew, the new letter popping. */
export function typed(p, key) {
  const row = el("input-row");
  if (!row) return;
  const fresh = inputRow();
  if (key !== "backspace" && p.current.length) fresh.children[p.current.length - 1].classList.add("pop");
  row.replaceWith(fresh);
}

/** A key while the guess is on its way: kept for the next row, drawn in the row after the one in flight. */
export function typedAhead(key) {
  if (key === "backspace") ahead = ahead.slice(0, -1);
  else if (key !== "enter" && ahead.length < LENGTH) ahead += key;
  const input = el("input-row");
  const next = input && input.nextElementSibling;
  if (!next) return;
  const row = typedRow(ahead, "input_row");
  row.id = "ahead-row";
  next.replaceWith(row);
}

export function tooShort() { shake(); }

export function pending() {
  ahead = "";
  el("input-row").replaceWith(inputRow());
}

/** The word to go on with after a guess: what was typed meanwhile. */
export function nextWord(game) {
  const next = game.status === "playing" ? ahead : "";
  ahead = "";
  return next;
}

/** The guess refused or not answered: its row as before, the letters typed meanwhile dropped. */
export function failed() {
  ahead = "";
  el("input-row").replaceWith(inputRow());
  const next = el("ahead-row");
  if (next) next.replaceWith(blankRow());
  shake();
}

/** The answer as its language writes it (BÖSE, not BOESE), in capitals. */
function answerShown(game) {
  return (game.answers_written || [game.answer])[0].toUpperCase();
}

/** The colours of the new row said, and shown with a flip (a win's with a jump). */
export function revealed(game) {
  const row = game.rows[game.rows.length - 1];
  const tiles = coloursOf(row.pattern).map((c, i) => tileLabel(row.guess[i], c)).join("; ");
  let said = tr("row_revealed", { n: game.rows.length, tiles });
  if (game.status === "won") said += ". " + tr("won", { n: game.rows.length });
  else if (game.status === "lost") said += ". " + tr("lost") + " " + tr("answer_was", { answer: answerShown(game) });
  announce(said);
  const done = el("board").querySelectorAll(".row.done");
  done[done.length - 1].classList.add(game.status === "won" ? "reveal-win" : "reveal");
  if (game.status !== "playing" && window.innerWidth < 900) el("after").scrollIntoView({ behavior: "smooth" });
}

export function playing() {
  el("after").hidden = true;
  review.hide();
}

/** The panel after the game: the result, the share text, the statistics and the exact review. */
export function after(game) {
  el("after").hidden = false;
  const n = game.rows.length;
  el("result").textContent = (game.status === "won" ? tr("won", { n }) : tr("lost")) + " "
    + tr("answer_was", { answer: answerShown(game) });
  el("share").textContent = game.share;
  // The same, drawn with CSS squares (emoji fonts are not everywhere); Share shares the emoji text.
  const preview = el("share-preview");
  preview.replaceChildren();
  const head = document.createElement("div");
  head.textContent = game.share.split("\n")[0];
  preview.appendChild(head);
  for (const row of game.rows) {
    const line = document.createElement("div");
    line.appendChild(squares(row.pattern));
    preview.appendChild(line);
  }
  const stats = game.stats;
  el("stats-heading").textContent = tr("stats_heading", { list: game.list });
  const dl = el("stats");
  dl.replaceChildren();
  for (const [key, value] of [["stat_played", stats.played], ["stat_win", stats.win_percent],
    ["stat_streak", stats.current_streak], ["stat_max", stats.max_streak]]) {
    const box = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = tr(key);
    const dd = document.createElement("dd");
    dd.textContent = value;
    dd.id = key;
    box.append(dt, dd);
    dl.appendChild(box);
  }
  barChart(el("distribution"), stats.distribution.map((v, i) => [String(i + 1), v]), "");

  // the exact review (one board only; Dordle and Quordle have no panel): figures from the server
  review.show(game.rows, (signal) => api("/api/games/" + encodeURIComponent(game.id) + "/review", { signal }));
}

/** Hard mode: fixed once a game has a row (a game without one is made anew). */
export function wire(p) {
  page = p;
  hard = localStorage.getItem("raten-hard") === "1";
  review = reviewPanel(el("review-panel"), el("after"));
  el("hard").checked = hard;
  el("hard").addEventListener("change", async () => {
    const game = page.game;
    const wanted = el("hard").checked;
    if (game && game.status === "playing" && game.rows.length) {
      el("hard").checked = game.hard;
      toast(tr("hard_locked"));
      return;
    }
    hard = wanted;
    localStorage.setItem("raten-hard", wanted ? "1" : "0");
    if (game && game.status === "playing") {
      try {
        page.game = await api("/api/games", { method: "POST", body: { list: RATEN.list, mode: page.mode, hard } });
        if (page.mode === "practice") localStorage.setItem(page.practiceKey, page.game.id);
        page.render();
      } catch (e) { toast(e.message); }
    }
  });
}
