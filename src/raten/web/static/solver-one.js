/* raten solver on one board: what solver.js does differently there: hard mode, answers only and
   the device switch; the request to /api/hints; the results (count, warnings, candidates,
   constraints, the top hint's split); and the review of a solved game. */
import { api } from "./api.js";
import { fitBoard } from "./board-view.js";
import { formatNumber, LENGTH, RATEN, tr } from "./config.js";
import { keepForOffline, wireDeviceToggle } from "./device/client.js";
import { showHints } from "./hints.js";
import { reviewPanel } from "./review.js";
import { clearSteps, showSteps, wireSteps } from "./steps.js";
import { patternOf, squares } from "./tiles.js";
import { barChart } from "./ui.js";

const el = (id) => document.getElementById(id);
let review = null;

/** The options of the URL only one board has. */
export function options(params) {
  return { hard: params.get("hard") === "1", answersOnly: params.get("answers") === "1" };
}

/** Wire the switches of one board: hard mode, answers only, on this device, hints step by step,
    the review. */
export function wire(state, changed, refresh) {
  review = reviewPanel(el("review-panel"), el("review-panel"));
  wireSteps();
  el("review-game").addEventListener("click", () => reviewGame(state));
  wireDeviceToggle(refresh);
  keepForOffline();
  el("hard").checked = state.hard;
  el("hard").addEventListener("change", () => { state.hard = el("hard").checked; changed(); });
  el("answers-only").checked = state.answersOnly;
  el("answers-only").addEventListener("change", () => { state.answersOnly = el("answers-only").checked; changed(); });
}

/** "Review this game" is offered once the last row is all green; a changed game hides its review. */
export function changed(state) {
  const last = state.rows[state.rows.length - 1];
  el("review-game").hidden = !(last && last.colours[0].every((c) => c === 2));
  review.hide();
}

function reviewGame(state) {
  const rows = state.rows.map((r) => ({ guess: r.guess, pattern: patternOf(r.colours[0]) }));
  const body = { list: RATEN.list, guesses: rows.map((r) => r.guess), patterns: rows.map((r) => r.pattern), hard: state.hard };
  if (state.prior !== RATEN.prior) body.prior = state.prior;  // the prior menu's, when not the list's own
  review.show(rows, (signal) => api("/api/review", { method: "POST", body, signal }));
  el("review-heading").focus();
}

/** The body of POST /api/hints for the rows as played. */
export function body(rows, state) {
  const out = {
    list: RATEN.list,
    rows: rows.map((r) => ({ guess: r.guess, pattern: patternOf(r.colours[0]) })),
    hard: state.hard,
    top: 10,
    limit: 300,
  };
  // named only when not the classic setting, so a plain body can still be answered on the device
  if (state.prior !== "uniform" || state.prior !== RATEN.prior) out.prior = state.prior;
  if (state.answersOnly) out.answers_only = true;
  return out;
}

/** Empty every result, so that nothing of an earlier state is shown after an error. */
export function clear() {
  el("count").textContent = "";
  delete el("count").dataset.count;
  el("warnings").replaceChildren();
  el("hints-section").hidden = true;
  el("hints").querySelector("tbody").replaceChildren();
  el("guarantee-note").hidden = true;
  el("candidates").hidden = true;
  el("candidate-words").textContent = "";
  el("constraints-section").hidden = true;
  el("constraints").replaceChildren();
  el("split-heading").textContent = "";
  el("split-heading").hidden = true;
  el("split").replaceChildren();
  clearSteps();
}

/** "WORD breaks hard mode (the rule)" from the rule's facts (rule green with letter and position,
    present with letter and count), or without the rule when the facts are not there. */
function hardWarning(p) {
  if (p.rule === "green") return tr("w_breaks_hard_green", p);
  if (p.rule === "present") return tr(p.count > 1 ? "w_breaks_hard_present_n" : "w_breaks_hard_present", p);
  return tr("w_breaks_hard", p);
}

/** A warning of the server in the page's language: the engine words them in English. */
function translateWarning(w) {
  let m = /^([A-Z]+) is not in the (\S+) word list; used anyway$/.exec(w);
  if (m) return tr("w_not_in_list", { word: m[1], list: m[2] });
  m = /^([A-Z]+) breaks hard mode \((\d)(?:st|nd|rd|th) letter must be ([A-Z])\)/.exec(w);
  if (m) return hardWarning({ word: m[1], rule: "green", position: Number(m[2]), letter: m[3] });
  m = /^([A-Z]+) breaks hard mode \(guess must contain ([A-Z])(?: (\d+) times)?\)/.exec(w);
  if (m) return hardWarning({ word: m[1], rule: "present", letter: m[2], count: Number(m[3] || 1) });
  m = /^([A-Z]+) breaks hard mode/.exec(w);
  if (m) return tr("w_breaks_hard", { word: m[1] });
  m = /^(\d+) allowed words fit, too many to rank/.exec(w);
  if (m) return tr("w_too_many", { n: m[1] });
  return w;
}

/** Draw the answer of /api/hints; a hint's word clicked is `use(word)`. */
export function show(data, state, use) {
  const n = data.count;
  let text;
  if (data.solved) text = tr("solved", { n: state.rows.length });
  else if (n === 1) text = tr("candidate_left", { word: data.candidates[0].toUpperCase() });
  else text = tr("candidates_left", { n });
  el("count").textContent = text;
  el("count").dataset.count = n;
  const guard = data.guarantee;  // null when off, or beyond what the device engine can check
  el("guarantee-note").hidden = !data.beyond || data.solved;  // the device's engine beyond its book
  const first = guard && guard.safe ? guard.guess : data.hints.length ? data.hints[0].word : "";
  const best = !data.solved && n > 1 && first ? first.toUpperCase() : "";
  el("summary").textContent = best ? text + " · " + tr("best_guess", { word: best }) : text;
  fitBoard();

  const warnings = el("warnings");
  warnings.replaceChildren();
  // The fallback is said once, with the count of this state (the engine's own sentence
  // keeps the count of the row where the fallback began).
  const notes = (data.fallback ? [tr(n === 1 ? "fallback_one" : "fallback", { n })] : []).concat(
    (data.notices || (data.warnings || []).map((w) => ({ key: "warning", params: {}, text: w })))
      .filter((w) => w.key !== "fallback")
      .map((w) => (w.key === "breaks_hard" ? hardWarning(w.params)
        : RATEN.text["w_" + w.key] ? tr("w_" + w.key, w.params) : translateWarning(w.text))));
  for (const w of notes) {
    const li = document.createElement("li");
    li.textContent = w;
    warnings.appendChild(li);
  }

  el("constraints-section").hidden = false;
  el("candidates").hidden = data.solved;
  showHints(data.hints, {
    hidden: data.solved || !data.hints.length,
    opening: !state.rows.length,
    use,
    cells: (h) => [
      [formatNumber(h.bits, 3), "num"],
      [h.candidate ? "\u2713" : "", "mark", h.candidate ? tr("answer_mark_title") : ""],
      [String(h.largest), "num wide"],
      [formatNumber(h.expected_remaining, 1), "num wide"],
      safeCell(guard, h.word),
    ],
  });

  el("candidate-count").textContent = n;
  el("candidates").open = n <= 30;
  let words = data.candidates.map((w) => w.toUpperCase()).join(" ");
  if (n > data.candidates.length) words += " \u2026 " + tr("and_more", { n: n - data.candidates.length });
  el("candidate-words").textContent = words;

  const list = el("constraints");
  list.replaceChildren();
  for (const line of describe(data.constraints)) {
    const li = document.createElement("li");
    li.textContent = line;
    list.appendChild(li);
  }

  const split = data.split;
  if (split && n > 1) {
    el("split-heading").textContent = tr("split_heading", { word: split.word.toUpperCase(), n });
    el("split-heading").hidden = false;
    const extra = split.other_groups
      ? tr("more_groups", { groups: split.other_groups, words: split.other_words }) : "";
    barChart(el("split"), split.groups.map((g) => [squares(g.pattern), g.count]), extra);
  } else {
    el("split-heading").textContent = "";
    el("split-heading").hidden = true;
    el("split").replaceChildren();
  }
  showSteps(data, state.rows);  // with "step by step" on, the above stays hidden behind its steps
}

/** The guarantee's verdict of a hint as a cell: a tick when safe, the words at risk when not. */
function safeCell(guard, word) {
  const v = guard && guard.hints.find((x) => x && x.word === word);
  if (!v) return ["", "mark", ""];
  if (v.safe) return ["\u2713", "mark safe", tr("safe_title", { n: guard.limit })];
  if (v.safe === false) return ["\u26a0 " + v.at_risk, "mark risk", tr("risk_title", { n: v.at_risk, k: guard.limit + 1 })];
  return ["?", "mark undecided", tr("undecided_title")];
}

/** The constraint summary in the page's language. */
function describe(c) {
  const lines = [];
  const greens = Object.keys(c.greens);
  if (greens.length) {
    let pattern = "";
    for (let i = 1; i <= LENGTH; i++) pattern += (c.greens[String(i)] || "_").toUpperCase();
    lines.push(tr("c_greens", { pattern }));
  }
  for (const [letter, positions] of Object.entries(c.not_at)) {
    lines.push(tr("c_not_at", { letter: letter.toUpperCase(), positions: positions.join(", ") }));
  }
  for (const [letter, count] of Object.entries(c.min_counts)) {
    if (c.exact_counts[letter] !== undefined) lines.push(tr("c_exact", { letter: letter.toUpperCase(), n: c.exact_counts[letter] }));
    else if (count > 1) lines.push(tr("c_min", { letter: letter.toUpperCase(), n: count }));
  }
  if (c.excluded.length) lines.push(tr("c_excluded", { letters: c.excluded.join(" ").toUpperCase() }));
  if (!lines.length) lines.push(tr("c_none"));
  return lines;
}
