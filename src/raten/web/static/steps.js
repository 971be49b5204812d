/* raten solver: hints that do not spoil (issue 27 item 11). With "Hints step by
   step" on, what the answer gives away (the count, the hints table, the candidates, the top
   hint's split, the line under the board) stays hidden behind one button that reveals a step at
   a time: how many words are left, then a letter worth trying, then the best guess, then every
   hint. On several boards the same, the count a board (each board's head hides its own).
   Each new state starts again from the first step. The switch is kept in
   localStorage["raten.steps"]; body[data-steps] says what is hidden ("on": the results, "open":
   this state's, revealed; none: the switch is off). */
import { boardName, tr } from "./config.js";

const KEY = "raten.steps";
const el = (id) => document.getElementById(id);
let steps = [];  // this state's steps: [button label, text revealed]
let shown = 0;  // how many are revealed; steps.length + 1 once every hint is shown

function read() {
  try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
}
function store(on) {
  try { if (on) localStorage.setItem(KEY, "1"); else localStorage.removeItem(KEY); } catch (e) { /* this page only */ }
}

/** A letter worth trying after `rows` (the guesses so far): of the best guess's letters not yet
    guessed, the one in most of the words left (of the first `data.candidates` when there are more),
    then alphabetically; without such a letter, the most common one not yet guessed among the words
    left; without that either, the best guess's first letter. Returns { letter, count, of }. */
export function letterWorthTrying(data, rows) {
  const tried = new Set(rows.flatMap((r) => Array.from(r.guess)));
  const words = data.candidates;
  const best = data.hints.length ? data.hints[0].word : words[0] || "";
  const share = (ch) => words.filter((w) => w.includes(ch)).length;
  const fresh = (letters) => Array.from(new Set(letters)).filter((ch) => !tried.has(ch));
  let pool = fresh(best);
  if (!pool.length) pool = fresh(words.join(""));
  if (!pool.length) pool = Array.from(best).slice(0, 1);
  pool.sort((a, b) => share(b) - share(a) || a.localeCompare(b));
  return { letter: pool[0], count: share(pool[0]), of: words.length };
}

/** This state's steps from the answer of /api/hints; none when the game is solved (nothing to spoil). */
function stepsOf(data, rows) {
  const n = data.count;
  if (data.solved || !n) return [];
  const best = (n === 1 ? data.candidates[0] : data.hints.length ? data.hints[0].word : "").toUpperCase();
  const out = [["step_show_count", n === 1 ? tr("step_count_one") : tr("step_count", { n })]];
  const pick = letterWorthTrying(data, rows);
  if (pick.letter) {
    const letter = pick.letter.toUpperCase();
    const whole = n === pick.of;  // every word left is in the answer: say how many have the letter
    out.push(["step_show_letter", whole ? tr("step_letter_share", { letter, k: pick.count, n }) : tr("step_letter", { letter })]);
  }
  if (best) out.push(["step_show_best", tr("step_best", { word: best })]);
  return out;
}

/** The steps of /api/hints/boards' answer: each open board's count, then a letter worth trying
    over the words left on the open boards, then the best guess; none once every board is solved. */
function boardsStepsOf(data, rows) {
  const open = data.board.filter((b) => !b.solved);
  if (data.done || !open.length) return [];
  const counts = open.map((b) => boardName(b.board - 1) + ": " + b.count).join(" \u00b7 ");
  const out = [["step_show_count", tr("step_count_boards", { counts })]];
  const candidates = Array.from(new Set(open.flatMap((b) => b.candidates)));
  const pick = letterWorthTrying({ candidates, hints: data.hints }, rows);
  if (pick.letter) out.push(["step_show_letter", tr("step_letter", { letter: pick.letter.toUpperCase() })]);
  if (data.hints.length) out.push(["step_show_best", tr("step_best", { word: data.hints[0].word.toUpperCase() })]);
  return out;
}

function render() {
  const on = el("hint-steps").checked;
  const panel = el("steps");
  const open = !on || !steps.length || shown > steps.length;
  if (on && open) document.body.dataset.steps = "open";
  else if (on) document.body.dataset.steps = "on";
  else delete document.body.dataset.steps;
  panel.hidden = !on || !steps.length;
  const list = el("step-list");
  list.replaceChildren(...steps.slice(0, shown).map(([, text]) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  const next = el("step-next");
  next.hidden = open;
  next.textContent = tr(shown < steps.length ? steps[shown][0] : "step_show_all");
}

function reveal() {
  shown += 1;
  const all = shown > steps.length;
  render();
  if (all) {
    // the button is gone: focus goes to what it revealed (the hints' heading, or the count)
    const target = [el("hints-heading"), el("count")].find((node) => node.offsetParent !== null);
    if (target) target.focus();
  }
}

/** Wire the switch and the button (the page's results then follow body[data-steps]). */
export function wireSteps() {
  const toggle = el("hint-steps");
  toggle.checked = read();
  toggle.addEventListener("change", () => { store(toggle.checked); shown = 0; render(); });
  el("step-next").addEventListener("click", reveal);
  render();
}

/** A new answer for the rows as played: its steps, none revealed yet. */
export function showSteps(data, rows) {
  steps = stepsOf(data, rows);
  shown = 0;
  render();
}

/** A new answer on several boards for the rows as played: its steps, none revealed yet. */
export function showBoardsSteps(data, rows) {
  steps = boardsStepsOf(data, rows);
  shown = 0;
  render();
}

/** After an error nothing is hidden (the error is the whole answer). */
export function clearSteps() {
  steps = [];
  shown = 0;
  render();
}
