/* raten solver page, on one board or several (Dordle, Quordle, Octordle): type guesses, click
   tiles to set their colours, see the best next guesses. On several boards one input row is
   shared and each guess is played on every board not yet solved. The state lives in the URL
   (?rows=crane01200-slate00000: the guess, then five digits a board; a board solved before the
   row keeps 22222 there, which is ignored), so a state can be shared and reloaded; on one board
   also &hard=1 and &answers=1. What differs with the number of boards (the request, the results,
   the options) is in solver-one.js and solver-boards.js, behind the same calls. */
import { guessRow, blankRow, drawBoards, fitBoard, fitManyBoards, typedRow } from "./board-view.js";
import "./common.js";
import { BOARDS as N, LENGTH, LETTERS, RATEN, boardName, tr } from "./config.js";
import { hintsCycle } from "./hints.js";
import { keyboard } from "./keyboard.js";
import * as one from "./solver-one.js";
import * as many from "./solver-boards.js";
import { tileLabel } from "./tiles.js";
import { copyText } from "./share.js";
import { announce, langLinks, toast } from "./ui.js";

const variant = N > 1 ? many : one;
const MAX_ROWS = N > 1 ? 24 : 20;
const params = new URLSearchParams(location.search);
const el = (id) => document.getElementById(id);
const state = {
  rows: parseRows(params.get("rows")),
  current: Array.from((params.get("next") || "").toLowerCase()).filter((ch) => LETTERS.includes(ch)).join("").slice(0, LENGTH),
  prior: Array.from(el("prior").options, (o) => o.value).includes(params.get("prior")) ? params.get("prior") : RATEN.prior,
  ...variant.options(params),
};

function parseRows(text) {
  const rows = [];
  const re = new RegExp("^([" + LETTERS + "]{" + LENGTH + "})([012]{" + LENGTH * N + "})$", "u");
  for (const part of (text || "").split("-")) {
    const m = re.exec(part.toLowerCase());
    if (!m) continue;
    const colours = [];
    for (let b = 0; b < N; b++) colours.push(Array.from(m[2].slice(LENGTH * b, LENGTH * (b + 1))).map(Number));
    rows.push({ guess: m[1], colours });
  }
  return rows.slice(0, MAX_ROWS);
}

/** The row (0-based) where board b showed all green, or -1. */
function solvedRow(b) {
  return state.rows.findIndex((r) => r.colours[b].every((c) => c === 2));
}

/** Whether row r is played on board b: on several boards, not once the board was solved by an
    earlier row; on one board every row counts. */
function playsOn(r, b) {
  const at = N > 1 ? solvedRow(b) : -1;
  return at === -1 || r <= at;
}

/** The rows as played: each row's colours a board, null where the row is not played. */
function played() {
  return state.rows.map((r, i) => ({ guess: r.guess, colours: r.colours.map((c, b) => (playsOn(i, b) ? c : null)) }));
}

function writeUrl() {
  const q = new URLSearchParams();
  q.set("list", RATEN.list);
  const lang = params.get("lang");
  if (lang) q.set("lang", lang);
  if (N > 1) q.set("boards", String(N));
  if (state.hard) q.set("hard", "1");
  if (state.prior !== RATEN.prior) q.set("prior", state.prior);
  if (state.answersOnly) q.set("answers", "1");
  if (state.rows.length) {
    q.set("rows", played().map((r) => r.guess + r.colours.map((c) => (c ? c.join("") : "22222")).join("")).join("-"));
  }
  history.replaceState(null, "", location.pathname + "?" + q.toString());
  langLinks(q);  // the language switch keeps the rows and the options
}

/** Row r of board b, its tiles buttons that set their colours. */
function doneRow(r, b) {
  const row = state.rows[r];
  const said = (text, sep) => (N > 1 ? boardName(b) + sep + text : text);
  const line = guessRow(row.guess, row.colours[b], said(tr("row_label", { n: r + 1, word: row.guess.toUpperCase() }), ", "), (i, e) => {
    row.colours[b][i] = (row.colours[b][i] + 1) % 3;
    row.fresh = false;
    const fromKeyboard = e.detail === 0;
    changed();
    // the board is drawn anew: keep a keyboard user's focus on the same tile
    const again = document.querySelector((N > 1 ? '.mboard[data-board="' + (b + 1) + '"]' : "#board") + ' .row[data-row="' + r + '"]');
    if (fromKeyboard && again) again.querySelectorAll(".tile")[i].focus();
    announce(said(tileLabel(row.guess[i], row.colours[b][i]), ": "));
  });
  line.dataset.row = String(r);
  return line;
}

/** The input row: on one board under the rows (with empty rows to six), on several alone in #board. */
function drawInput() {
  const board = el("board");
  const input = typedRow(state.current, N > 1 ? "boards_input" : "input_row");
  input.id = "input-row";
  if (N > 1) { board.replaceChildren(input); return; }
  board.replaceChildren(...state.rows.map((_, r) => doneRow(r, 0)));
  if (state.rows.length < MAX_ROWS) board.appendChild(input);
  for (let i = state.rows.length + 1; i < 6; i++) board.appendChild(blankRow());
}

function draw() {
  drawInput();
  if (N === 1) {
    const known = {};
    for (const row of state.rows) {
      row.colours[0].forEach((c, i) => { known[row.guess[i]] = Math.max(known[row.guess[i]] ?? 0, c); });
    }
    const names = ["absent", "present", "correct"];
    keys.colour([Object.fromEntries(Object.entries(known).map(([k, c]) => [k, names[c]]))]);
    fitBoard();
    return;
  }
  drawBoards(el("boards"), N, (b) => {
    const at = solvedRow(b);
    const name = document.createElement("span");
    name.textContent = boardName(b);
    const status = document.createElement("span");
    status.className = "mboard-status";
    status.id = "board-status-" + (b + 1);
    if (at !== -1) status.textContent = "\u2713 " + tr("board_solved_in", { n: at + 1 });
    const rows = state.rows.map((_, r) => r).filter((r) => playsOn(r, b)).map((r) => doneRow(r, b));
    return { solved: at !== -1, head: [name, status], rows };
  });
  fitBoards();
}

/** Tiles as large as the window allows: the boards' rows and the whole keyboard on screen
    (on a phone, while the rows are few enough to stay readable). */
function fitBoards() {
  const counts = Array.from({ length: N }, (_, b) => Math.max(1, state.rows.filter((r, i) => playsOn(i, b)).length));
  fitManyBoards(el("boards"), (cols) => {
    let rows = 0;
    for (let b = 0; b < N; b += cols) rows += Math.max(...counts.slice(b, b + cols));
    return rows;
  });
}
if (N > 1) window.addEventListener("resize", fitBoards);

function changed() {
  writeUrl();
  draw();
  refresh();
  variant.changed(state);
}

/** A new row's colours on each board: green where that board showed the letter green before;
    a board solved already all green. */
function certainColours(word) {
  return Array.from({ length: N }, (_, b) => (N > 1 && solvedRow(b) !== -1 ? Array(LENGTH).fill(2)
    : Array.from(word).map((ch, i) => (state.rows.some((r, k) => playsOn(k, b) && r.guess[i] === ch && r.colours[b][i] === 2) ? 2 : 0))));
}

function onKey(key) {
  if (key === "enter") {
    if (state.current.length < LENGTH) { toast(tr("too_short")); return; }
    if (state.rows.length >= MAX_ROWS) return;
    if (N > 1 && Array.from({ length: N }, (_, b) => solvedRow(b)).every((at) => at !== -1)) return;
    state.rows.push({ guess: state.current, colours: certainColours(state.current), fresh: true });
    state.current = "";
    changed();
    announce(tr("row_added", { word: state.rows[state.rows.length - 1].guess.toUpperCase() }));
  } else if (key === "backspace") {
    state.current = state.current.slice(0, -1);
    drawInput();
  } else if (state.current.length < LENGTH) {
    state.current += key;
    drawInput();
  }
}

const keys = keyboard(onKey);
const refresh = hintsCycle({
  body: () => variant.body(played(), state),
  show: (data) => variant.show(data, state, (word) => { state.current = word; drawInput(); }),
  clear: variant.clear,
  lastRow: () => state.rows[state.rows.length - 1],
});
variant.wire(state, changed, refresh);
el("undo").addEventListener("click", () => { state.rows.pop(); changed(); });
el("clear").addEventListener("click", () => { state.rows = []; state.current = ""; changed(); });
el("copy-link").addEventListener("click", () => copyText(location.href, "link_copied"));
el("prior").value = state.prior;
el("prior").addEventListener("change", () => { state.prior = el("prior").value; changed(); });
changed();
