/* raten solver on several boards: what solver.js does differently there: the request to
   /api/hints/boards (the "finish" strategy) and the results (each board's count in its head,
   the hints with the boards a word may answer) and the hints step by step (steps.js). */
import { BOARDS, formatNumber, RATEN, tr } from "./config.js";
import { showHints } from "./hints.js";
import { clearSteps, showBoardsSteps, wireSteps } from "./steps.js";
import { patternOf } from "./tiles.js";

const el = (id) => document.getElementById(id);

/** No options of one board's (hard mode, answers only, the device, the review). */
export function options() { return {}; }
/** Wire the switch of hints step by step. */
export function wire() { wireSteps(); }
export function changed() {}

/** The body of POST /api/hints/boards for the rows as played (null where a row is not). */
export function body(rows, state) {
  return {
    list: RATEN.list,
    boards: BOARDS,
    rows: rows.map((r) => ({ guess: r.guess, patterns: r.colours.map((c) => (c ? patternOf(c) : null)) })),
    top: 10,
    limit: 30,
    strategy: "finish",  // the best of raten bench --boards (README): a determined answer first
    prior: state.prior,
  };
}

/** After an error: no hints or counts of the state before. */
export function clear() {
  el("hints-section").hidden = true;
  el("count").textContent = "";
  clearSteps();
}

/** Draw the answer: each board's count or word in its head, the hints; a hint used is `use(word)`. */
export function show(data, state, use) {
  for (const b of data.board) {
    const status = el("board-status-" + b.board);
    if (!status) continue;
    if (b.solved) status.textContent = "\u2713 " + tr("board_solved_in", { n: b.solved_at });
    else if (b.count === 1) status.textContent = tr("board_one", { word: b.candidates[0].toUpperCase() });
    else status.textContent = tr("board_left", { n: b.count });
    status.classList.toggle("spoiler", !b.solved);  // a count or a word: hidden while step by step is on
    status.closest(".mboard").dataset.count = String(b.count);
  }
  const best = data.hints.length ? data.hints[0].word.toUpperCase() : "";
  const open = data.board.filter((b) => !b.solved);
  const text = data.done ? tr("boards_solved", { n: data.turns }) : open.map((b) => b.board + ": " + b.count).join(" \u00b7 ");
  el("count").textContent = text;
  // beside the input: the best guess (each board's count is in its head)
  el("summary").textContent = best && !data.done ? tr("best_guess", { word: best }) : text;
  showHints(data.hints, {
    hidden: data.done || !data.hints.length,
    opening: !state.rows.length,
    use,
    cells: (h) => [
      [formatNumber(h.bits, 2), "num"],
      [h.answer_on.join(", "), "mark"],
      [formatNumber(h.expected_remaining, 1), "num"],
    ],
  });
  showBoardsSteps(data, state.rows);  // with "step by step" on, the above stays hidden behind its steps
}
