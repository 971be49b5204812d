/* raten: the boards of the solver and game pages: rows of tiles (a guess's, the one being typed,
   an empty one), one board in #board or several side by side in #boards, their tiles sized so
   that the boards and the whole keyboard fit the window. */
import { LENGTH, tr } from "./config.js";
import { tileRow } from "./tiles.js";

/** A guess's row, its tiles coloured, a group named `label`. With `onTile` the tiles are buttons
    (their colour set by a click): `onTile(i, event)`. */
export function guessRow(guess, colours, label, onTile) {
  const row = tileRow(guess, colours, Boolean(onTile));
  row.classList.add("done");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  if (onTile) {
    row.querySelectorAll(".tile").forEach((tile, i) => {
      tile.title = tr("tile_click");
      tile.addEventListener("click", (e) => onTile(i, e));
    });
  }
  return row;
}

/** The row being typed, named by the text `key` ("Your guess: CRA"). */
export function typedRow(word, key) {
  const row = tileRow(word, null, false);
  row.setAttribute("aria-label", tr(key, { word: word.toUpperCase() || "\u2013" }));
  return row;
}

/** An empty row, hidden from screen readers. */
export function blankRow() {
  const row = tileRow("", null, false);
  row.setAttribute("aria-hidden", "true");
  return row;
}

/** Several boards in `box`: a section a board (data-board 1..n), named by its head, its rows in
    a grid. `board(b)` gives { solved, head: [nodes of the head], rows: [row elements] }. */
export function drawBoards(box, n, board) {
  box.replaceChildren();
  for (let b = 0; b < n; b++) {
    const { solved, head, rows } = board(b);
    const wrap = document.createElement("section");
    wrap.className = "mboard" + (solved ? " solved" : "");
    wrap.dataset.board = String(b + 1);
    const h2 = document.createElement("h2");
    h2.className = "mboard-head";
    h2.id = "board-head-" + (b + 1);
    h2.append(...head);
    wrap.setAttribute("aria-labelledby", h2.id);
    const grid = document.createElement("div");
    grid.className = "mgrid";
    grid.append(...rows);
    wrap.append(h2, grid);
    box.appendChild(wrap);
  }
}

/** Size the tiles so that the board's rows and the whole keyboard fit the window's height
    (phones: nothing of the keyboard below the fold). Sets --fit, which caps --tile in the CSS. */
export function fitBoard() {
  const board = document.getElementById("board");
  const keyboard = document.getElementById("keyboard");
  if (!board || !keyboard) return;
  const rows = Math.max(6, board.children.length);
  const top = board.getBoundingClientRect().top + window.scrollY;
  const kbBottom = keyboard.getBoundingClientRect().bottom + window.scrollY;
  const boardHeight = board.getBoundingClientRect().height;
  const below = kbBottom - (top + boardHeight);  // summary, messages, keyboard and their margins
  const gap = parseFloat(getComputedStyle(board).rowGap) || 4;
  const room = window.innerHeight - top - below - 6;
  const tile = Math.floor((room - gap * (rows - 1)) / rows);
  document.documentElement.style.setProperty("--fit", Math.max(30, tile) + "px");
}
window.addEventListener("resize", fitBoard);

/** Many boards (issue 14): size the tiles of the boards in `box` (a grid of boards) so that they
    and the whole keyboard fit the window's height and width. `rows(cols)` says how many tile rows
    are stacked when the grid shows `cols` boards a line. Sets --mtile on `box`. */
export function fitManyBoards(box, rows) {
  const keyboard = document.getElementById("keyboard");
  if (!box || !keyboard) return;
  const gap = 2;
  const cols = Math.max(1, getComputedStyle(box).gridTemplateColumns.split(" ").filter(Boolean).length);
  const stacked = rows(cols);
  if (!stacked) return;
  const tile = box.querySelector(".tile");
  const tileNow = tile ? tile.getBoundingClientRect().height : 0;
  const rect = box.getBoundingClientRect();
  const other = rect.height - stacked * (tileNow + gap);  // heads and gaps: what the tiles do not take
  const top = rect.top + window.scrollY;
  const below = keyboard.getBoundingClientRect().bottom - rect.bottom;
  const room = window.innerHeight - top - below - other - 6;
  const byHeight = Math.floor(room / stacked - gap);
  const colGap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const byWidth = Math.floor((box.clientWidth - colGap * (cols - 1)) / (LENGTH * cols) - gap);
  box.style.setProperty("--mtile", Math.max(14, Math.min(44, byHeight, byWidth)) + "px");
}
