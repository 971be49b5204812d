/* raten on the device: the solver's rules in the browser, mirroring the Python engine.

   Python (src/raten/engine) is the one reference; this module repeats its rules so that the
   solver page can answer without the server, and the browser tests compare the two on
   thousands of histories. What it mirrors, and where:
   - feedback: the two-pass rule and the 0..242 code (engine/feedback.py, kernels._pair_code);
   - the candidate filter and the fallback to allowed words (engine/state.py State.after);
   - hard mode: which guesses are legal and why one is not (engine/hardmode.py);
   - the endgame rule: with one or two candidates left, only they are ranked (State.guess_rows);
   - entropy with the kernel's order of sums, ties at 9 decimals, then answer candidates,
     then alphabetical (engine/kernels.py _split_rows, engine/rank.py _best_first);
   - the answer of POST /api/hints (web/service.py Lists.rank and _sliced), constraints
     included (engine/constraints.py), and its guarantee for the first two moves from the
     opening book the list file carries (play/safe_hints.py guarded_hints, web/device.py).
   Plain ES module, no dependencies: the worker (worker.js) and node's tests import it. */

export const WORD_LENGTH = 5;
export const PATTERNS = 243;
export const ALL_GREEN = 242;
/** Hints every ranking is made this deep, as the server does (service.MAX_TOP). */
export const MAX_TOP = 50;
/** A fallback of more allowed words than this is not ranked (service.FALLBACK_MAX_RANKED). */
export const FALLBACK_MAX_RANKED = 1000;
/** Groups of the top hint's split shown one by one (service.SPLIT_GROUPS). */
export const SPLIT_GROUPS = 12;
const SYMBOLS = ".?!";
const A = 97;

/** An error the page shows like the server's 400: a message, a key for the text table and its params. */
export class DeviceError extends Error {
  constructor(message, key, params) {
    super(message);
    this.name = "DeviceError";
    this.key = key || "invalid";
    this.params = params || {};
  }
}

// --- feedback ------------------------------------------------------------------------------

/** Letters 0..25 of a five-letter word a-z. */
export function lettersOf(word) {
  const out = new Uint8Array(WORD_LENGTH);
  for (let i = 0; i < WORD_LENGTH; i++) out[i] = word.charCodeAt(i) - A;
  return out;
}

/** Feedback code of guess letters g[gi..gi+5) against answer letters a[ai..ai+5): greens first
    consume their letter, then yellows left to right from what is left (kernels._pair_code). */
export function pairCode(g, gi, a, ai) {
  let green = 0;
  for (let i = 0; i < WORD_LENGTH; i++) if (g[gi + i] === a[ai + i]) green |= 1 << i;
  let used = green;
  let code = 0;
  for (let i = 0; i < WORD_LENGTH; i++) {
    let c = 0;
    if ((green >> i) & 1) c = 2;
    else {
      const letter = g[gi + i];
      for (let j = 0; j < WORD_LENGTH; j++) {
        if (!((used >> j) & 1) && a[ai + j] === letter) { used |= 1 << j; c = 1; break; }
      }
    }
    code = code * 3 + c;
  }
  return code;
}

/** The 0..242 feedback code of ``guess`` against ``answer`` (words a-z). */
export function feedback(guess, answer) {
  return pairCode(lettersOf(guess), 0, lettersOf(answer), 0);
}

/** Five colours 0 grey, 1 yellow, 2 green of a code, first letter first. */
export function coloursOf(code) {
  const out = [0, 0, 0, 0, 0];
  for (let i = WORD_LENGTH - 1; i >= 0; i--) { out[i] = code % 3; code = Math.floor(code / 3); }
  return out;
}

/** A code written as ``.?!`` (grey, yellow, green), the API's notation. */
export function formatPattern(code) {
  return coloursOf(code).map((c) => SYMBOLS[c]).join("");
}

/** Read a pattern of five ``.?!`` or ``012`` symbols (what the solver page sends). */
export function parsePattern(text) {
  const symbols = { ".": 0, "?": 1, "!": 2, "0": 0, "1": 1, "2": 2, b: 0, y: 1, g: 2, x: 0, "-": 0 };
  const chars = Array.from(String(text).trim().toLowerCase());
  if (chars.length !== WORD_LENGTH || chars.some((ch) => !(ch in symbols))) {
    throw new DeviceError(`pattern ${JSON.stringify(text)} is not five of . ? ! (grey, yellow, green)`);
  }
  return chars.reduce((code, ch) => code * 3 + symbols[ch], 0);
}

/** A list file's contents made here from two word lists (sorted, solutions among the allowed),
    with this engine's own Math.log2: for tests and tools; the server's file has Python's values. */
export function listData(name, solutions, allowed, language = "en") {
  const most = Math.max(solutions.length, Math.min(allowed.length, FALLBACK_MAX_RANKED));
  const xlogx = [0, 0];
  const log2 = [0];
  for (let c = 2; c <= most; c++) xlogx.push(c * Math.log2(c));
  for (let c = 1; c <= most; c++) log2.push(Math.log2(c));
  return { name, language, version: "local", solutions, allowed, xlogx, log2 };
}

// --- the word list and its table -----------------------------------------------------------

/** One word list as the server ships it (/device/words/NAME.json): the words, and the numbers
    the ranking adds (c·log2 c and log2 n exactly as Python computes them, so bits agree to the
    last place whatever this browser's Math.log2 gives). */
export class WordList {
  constructor(data) {
    this.name = data.name;
    this.language = data.language;
    this.version = data.version;
    this.solutions = data.solutions;
    this.allowed = data.allowed;
    this.xlogx = Float64Array.from(data.xlogx);
    this.log2 = Float64Array.from(data.log2);
    /** The prior: ``uniform`` (no weights), or a weight per solution (the frequency prior). */
    this.prior = data.prior || "uniform";
    this.weights = data.weights ? Float64Array.from(data.weights) : null;
    if (this.weights && this.weights.length !== this.solutions.length) {
      throw new DeviceError(`the ${this.name} list file has ${this.weights.length} weights for ${this.solutions.length} solutions`);
    }
    /** The shipped opening books by mode (``normal``, ``hard``; web/device.py device_books), or none. */
    this.books = data.books || {};
    this.rowOf = new Map(this.allowed.map((w, i) => [w, i]));
    this.solutionRows = Int32Array.from(this.solutions, (w) => {
      const row = this.rowOf.get(w);
      if (row === undefined) throw new DeviceError(`solution ${w} is not an allowed word`);
      return row;
    });
    this.letters = new Uint8Array(this.allowed.length * WORD_LENGTH);
    this.allowed.forEach((w, r) => { for (let i = 0; i < WORD_LENGTH; i++) this.letters[r * WORD_LENGTH + i] = w.charCodeAt(i) - A; });
    this.counts = new Uint8Array(this.allowed.length * 26);
    for (let r = 0; r < this.allowed.length; r++) {
      for (let i = 0; i < WORD_LENGTH; i++) this.counts[r * 26 + this.letters[r * WORD_LENGTH + i]] += 1;
    }
    /** table[g * S + s]: feedback of allowed word g against solution s (PatternMatrix). */
    this.table = null;
  }

  /** Build the allowed × solutions table in blocks of rows; ``onBlock(done, total)`` after each. */
  buildTable(onBlock, block = 512) {
    const S = this.solutions.length;
    const G = this.allowed.length;
    const table = new Uint8Array(G * S);
    const sol = new Uint8Array(S * WORD_LENGTH);
    for (let s = 0; s < S; s++) sol.set(this.letters.subarray(this.solutionRows[s] * WORD_LENGTH, (this.solutionRows[s] + 1) * WORD_LENGTH), s * WORD_LENGTH);
    const masks = letterMasks(this.letters, this.solutionRows);
    const guessMasks = letterMasks(this.letters, allRows(this));
    const places = placeValues(sol, masks, S);
    const pairs = pairValues(sol, S);
    const cnt = new Int32Array(26);
    for (let lo = 0; lo < G; lo += block) {
      const hi = Math.min(G, lo + block);
      for (let g = lo; g < hi; g++) fillRow(this.letters, g * WORD_LENGTH, guessMasks[g], sol, masks, places, pairs, S, table, g * S, cnt);
      if (onBlock) onBlock(hi, G);
    }
    this.table = table;
    return table;
  }
}

/** One row of the table: guess letters at ``gi`` against every solution (letters ``sol``, letter
    sets ``masks``), written at ``out[o..]``. The two-pass rule as counting: the answer's letters
    that are not green are counted, then each guess letter that is not green, left to right,
    takes one if any is left (the same codes as ``pairCode``, tested against it). */
function fillRow(letters, gi, gmask, sol, masks, places, pairs, S, out, o, cnt) {
  const g0 = letters[gi], g1 = letters[gi + 1], g2 = letters[gi + 2], g3 = letters[gi + 3], g4 = letters[gi + 4];
  if (popcount(gmask) === WORD_LENGTH) {
    // Five different letters: a letter that is not green is yellow exactly when the answer has
    // it (it cannot be the answer's green elsewhere), so each place is 1 + (green) or 0, times
    // its weight: the sum of five rows of ``places``.
    const p0 = (0 * 26 + g0) * S, p1 = (1 * 26 + g1) * S, p2 = (2 * 26 + g2) * S, p3 = (3 * 26 + g3) * S, p4 = (4 * 26 + g4) * S;
    for (let s = 0; s < S; s++) {
      out[o + s] = places[p0 + s] + places[p1 + s] + places[p2 + s] + places[p3 + s] + places[p4 + s];
    }
    return;
  }
  if (popcount(gmask) === WORD_LENGTH - 1) {
    fillRowOnePair(letters, gi, places, pairs, S, out, o);
    return;
  }
  for (let s = 0, ai = 0; s < S; s++, ai += WORD_LENGTH) {
    if ((gmask & masks[s]) === 0) { out[o + s] = 0; continue; }  // no letter shared: all grey
    const a0 = sol[ai], a1 = sol[ai + 1], a2 = sol[ai + 2], a3 = sol[ai + 3], a4 = sol[ai + 4];
    const q0 = g0 === a0, q1 = g1 === a1, q2 = g2 === a2, q3 = g3 === a3, q4 = g4 === a4;
    if (!q0) cnt[a0]++;
    if (!q1) cnt[a1]++;
    if (!q2) cnt[a2]++;
    if (!q3) cnt[a3]++;
    if (!q4) cnt[a4]++;
    let code = 0;
    if (q0) code = 162; else if (cnt[g0] > 0) { cnt[g0]--; code = 81; }
    if (q1) code += 54; else if (cnt[g1] > 0) { cnt[g1]--; code += 27; }
    if (q2) code += 18; else if (cnt[g2] > 0) { cnt[g2]--; code += 9; }
    if (q3) code += 6; else if (cnt[g3] > 0) { cnt[g3]--; code += 3; }
    if (q4) code += 2; else if (cnt[g4] > 0) { cnt[g4]--; code += 1; }
    cnt[a0] = 0; cnt[a1] = 0; cnt[a2] = 0; cnt[a3] = 0; cnt[a4] = 0;
    out[o + s] = code;
  }
}

function popcount(m) {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

const WEIGHTS = [81, 27, 9, 3, 1];

/** ``places[(i * 26 + L) * S + s]``: what letter L at place i of a guess of five different
    letters adds to its code against solution s: the place's weight times 2 (green), 1 (the
    solution has L elsewhere) or 0. */
function placeValues(sol, masks, S) {
  const places = new Uint8Array(WORD_LENGTH * 26 * S);
  for (let i = 0; i < WORD_LENGTH; i++) {
    for (let L = 0; L < 26; L++) {
      const o = (i * 26 + L) * S;
      for (let s = 0; s < S; s++) {
        places[o + s] = WEIGHTS[i] * (((masks[s] >>> L) & 1) + (sol[s * WORD_LENGTH + i] === L ? 1 : 0));
      }
    }
  }
  return places;
}

/** The ten pairs of places (p < q) a letter can take twice in a guess, by their index. */
const PAIRS = [];
for (let p = 0; p < WORD_LENGTH; p++) for (let q = p + 1; q < WORD_LENGTH; q++) PAIRS.push([p, q]);

/** ``pairs[(k * 26 + L) * S + s]``: what letter L at both places of pair k adds to a guess's
    code against solution s: each place green where the solution has L there, and the solution's
    other copies of L make them yellow left to right. */
function pairValues(sol, S) {
  const pairs = new Uint8Array(PAIRS.length * 26 * S);
  PAIRS.forEach(([p, q], k) => {
    for (let L = 0; L < 26; L++) {
      const o = (k * 26 + L) * S;
      for (let s = 0, ai = 0; s < S; s++, ai += WORD_LENGTH) {
        let copies = 0;
        for (let i = 0; i < WORD_LENGTH; i++) if (sol[ai + i] === L) copies++;
        const eP = sol[ai + p] === L, eQ = sol[ai + q] === L;
        let left = copies - (eP ? 1 : 0) - (eQ ? 1 : 0);
        let value = 0;
        if (eP) value += 2 * WEIGHTS[p]; else if (left > 0) { value += WEIGHTS[p]; left--; }
        if (eQ) value += 2 * WEIGHTS[q]; else if (left > 0) value += WEIGHTS[q];
        pairs[o + s] = value;
      }
    }
  });
  return pairs;
}

/** ``fillRow`` for a guess with one letter twice and three letters once (SPEED; LLAMA is not:
    two pairs): its three single letters as in a guess of five different letters, plus its
    pair's row of ``pairs``. */
function fillRowOnePair(letters, gi, places, pairs, S, out, o) {
  let p = -1, q = -1;
  for (let i = 0; i < WORD_LENGTH && q < 0; i++) {
    for (let j = i + 1; j < WORD_LENGTH; j++) if (letters[gi + i] === letters[gi + j]) { p = i; q = j; break; }
  }
  const [i, j, k] = [0, 1, 2, 3, 4].filter((x) => x !== p && x !== q);
  const oI = (i * 26 + letters[gi + i]) * S, oJ = (j * 26 + letters[gi + j]) * S, oK = (k * 26 + letters[gi + k]) * S;
  const pair = PAIRS.findIndex(([a, b]) => a === p && b === q);
  const oP = (pair * 26 + letters[gi + p]) * S;
  for (let s = 0; s < S; s++) out[o + s] = places[oI + s] + places[oJ + s] + places[oK + s] + pairs[oP + s];
}

/** The set of letters of each word as 26 bits. */
function letterMasks(letters, rows) {
  const out = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    let m = 0;
    for (let p = 0; p < WORD_LENGTH; p++) m |= 1 << letters[r * WORD_LENGTH + p];
    out[i] = m;
  });
  return out;
}

// --- hard mode -----------------------------------------------------------------------------

const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th"];

/** What a history demands in hard mode: ``greens[pos]`` (a letter or null) and ``need[letter]``,
    how often each letter must appear at least (hardmode._requirements and reveal). */
export function hardRules(history) {
  const greens = [null, null, null, null, null];
  const need = {};
  for (const [guess, code] of history) {
    const colours = coloursOf(code);
    const shown = {};
    for (let i = 0; i < WORD_LENGTH; i++) {
      if (colours[i] === 2) greens[i] = guess[i];
      if (colours[i] !== 0) shown[guess[i]] = (shown[guess[i]] || 0) + 1;
    }
    for (const [letter, n] of Object.entries(shown)) need[letter] = Math.max(need[letter] || 0, n);
  }
  return { greens, need };
}

/** Why ``guess`` breaks hard mode after ``history``, in the engine's words, or null (hardmode.violation). */
export function hardViolation(guess, history) {
  const { greens, need } = hardRules(history);
  for (let i = 0; i < WORD_LENGTH; i++) {
    if (greens[i] !== null && guess[i] !== greens[i]) return `${ORDINALS[i]} letter must be ${greens[i].toUpperCase()}`;
  }
  for (const letter of Object.keys(need).sort()) {
    const have = Array.from(guess).filter((ch) => ch === letter).length;
    if (have < need[letter]) return `guess must contain ${letter.toUpperCase()}${need[letter] === 1 ? "" : ` ${need[letter]} times`}`;
  }
  return null;
}

/** Rows of the allowed words that are legal in hard mode after ``history`` (hardmode.legal_mask). */
export function legalRows(list, history) {
  const { greens, need } = hardRules(history);
  const fixed = [];
  greens.forEach((letter, pos) => { if (letter !== null) fixed.push([pos, letter.charCodeAt(0) - A]); });
  const needed = Object.entries(need).map(([letter, n]) => [letter.charCodeAt(0) - A, n]);
  const out = [];
  const G = list.allowed.length;
  for (let r = 0; r < G; r++) {
    let ok = true;
    for (const [pos, letter] of fixed) if (list.letters[r * WORD_LENGTH + pos] !== letter) { ok = false; break; }
    if (ok) for (const [letter, n] of needed) if (list.counts[r * 26 + letter] < n) { ok = false; break; }
    if (ok) out.push(r);
  }
  return Int32Array.from(out);
}

// --- constraints: what the colours say (engine/constraints.py) ------------------------------

const times = (n) => ({ 1: "once", 2: "twice" }[n] || `${n} times`);

function countFact(letter, n, exact) {
  const L = letter.toUpperCase();
  if (exact) return n === 0 ? `there is no ${L}` : `${L} appears exactly ${times(n)}`;
  return n === 1 ? `${L} is in the word` : `${L} appears at least ${times(n)}`;
}

/** Greens, positions a present letter is not at, letter counts, excluded letters, and the
    contradictions of a history, folded row by row as ``Constraints.from_history`` does. */
export class Constraints {
  constructor(history) {
    this.greens = new Map();
    this.notAt = new Map();
    this.minCounts = new Map();
    this.exactCounts = new Map();
    this.problems = [];
    this.facts = [];  // each problem's facts in no language, as Constraints.facts
    this.rows = [];
    this.greenRow = new Map();
    this.minRow = new Map();
    this.exactRow = new Map();
    for (const [guess, code] of history) this.add(guess, coloursOf(code));
  }

  rowName(row) { return `row ${row} (${this.rows[row - 1].toUpperCase()})`; }

  problem(text, kind, rows, facts) {
    if (this.problems.includes(text)) return;
    this.problems.push(text);
    const named = rows.map((r) => `${r} (${this.rows[r - 1].toUpperCase()})`).join(" / ");
    this.facts.push({ kind, rows: named, ...facts });
  }

  add(guess, colours) {
    this.rows.push(guess);
    const row = this.rows.length;
    const shown = new Map();
    const greyed = new Set();
    for (let i = 0; i < WORD_LENGTH; i++) {
      const letter = guess[i];
      if (colours[i] === 2) {
        const old = this.greens.get(i);
        if (old !== undefined && old !== letter) {
          this.problem(`${this.rowName(this.greenRow.get(i))} and ${this.rowName(row)} contradict each other: `
            + `position ${i + 1} cannot be both ${old.toUpperCase()} and ${letter.toUpperCase()}`,
          "green", [this.greenRow.get(i), row], { position: i + 1, letter: old.toUpperCase(), other: letter.toUpperCase() });
        } else if (!this.greenRow.has(i)) this.greenRow.set(i, row);
        this.greens.set(i, letter);
        shown.set(letter, (shown.get(letter) || 0) + 1);
      } else {
        if (!this.notAt.has(letter)) this.notAt.set(letter, new Set());
        this.notAt.get(letter).add(i);
        if (colours[i] === 0) greyed.add(letter);
        else {
          if (greyed.has(letter)) {
            this.problem(`${this.rowName(row)}: a yellow ${letter.toUpperCase()} cannot follow a grey ${letter.toUpperCase()}`,
              "yellow_grey", [row], { letter: letter.toUpperCase() });
          }
          shown.set(letter, (shown.get(letter) || 0) + 1);
        }
      }
    }
    for (const letter of guess) {
      const n = shown.get(letter) || 0;
      if (n === 0 || greyed.has(letter)) continue;
      const exact = this.exactCounts.get(letter);
      if (exact !== undefined && n > exact) this.clash(letter, this.exactRow.get(letter), exact, true, row, n, false);
      if (n > (this.minCounts.get(letter) || 0)) { this.minCounts.set(letter, n); this.minRow.set(letter, row); }
    }
    for (const letter of greyed) {
      const n = shown.get(letter) || 0;
      const oldCount = this.exactCounts.get(letter);
      if (oldCount !== undefined && oldCount !== n) {
        this.clash(letter, this.exactRow.get(letter), oldCount, true, row, n, true);
        continue;
      }
      const least = this.minCounts.get(letter) || 0;
      if (least > n) { this.clash(letter, this.minRow.get(letter), least, false, row, n, true); continue; }
      if (oldCount === undefined) { this.exactCounts.set(letter, n); this.exactRow.set(letter, row); }
      if (n > least) { this.minCounts.set(letter, n); this.minRow.set(letter, row); }
    }
    const total = Array.from(this.minCounts.values()).reduce((s, n) => s + n, 0);
    if (total > WORD_LENGTH) {
      const rows = Array.from(new Set(Array.from(this.minCounts.keys(), (l) => this.minRow.get(l)))).sort((a, b) => a - b);
      this.problem(`${rows.map((r) => this.rowName(r)).join(" and ")} together show ${total} letters: `
        + `more than ${WORD_LENGTH} letters are known to be in the word`, "too_many", rows, { n: total });
    }
  }

  clash(letter, rowA, nA, exactA, rowB, nB, exactB) {
    if (rowA === rowB) return;
    const [first, second] = [[rowA, nA, exactA], [rowB, nB, exactB]].sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    this.problem(`${this.rowName(first[0])} says ${countFact(letter, first[1], first[2])}, `
      + `but ${this.rowName(second[0])} says ${countFact(letter, second[1], second[2])}`,
    "count", [first[0], second[0]], { letter: letter.toUpperCase() });
  }

  get excluded() {
    return Array.from(this.exactCounts).filter(([, n]) => n === 0).map(([l]) => l).sort();
  }

  /** The API's ``constraints`` object: 1-based positions, letters in order. */
  toDict() {
    const sorted = (m) => Array.from(m).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    const greens = {};
    for (const [i, l] of sorted(this.greens)) greens[String(i + 1)] = l;
    const notAt = {};
    for (const [l, pos] of sorted(this.notAt)) {
      if (this.exactCounts.get(l) !== 0) notAt[l] = Array.from(pos, (i) => i + 1).sort((a, b) => a - b);
    }
    const minCounts = Object.fromEntries(sorted(this.minCounts));
    const exactCounts = Object.fromEntries(sorted(this.exactCounts).filter(([, n]) => n > 0));
    return { greens, not_at: notAt, min_counts: minCounts, exact_counts: exactCounts, excluded: this.excluded };
  }

  /** The API's ``summary``: one English line per kind of fact (Constraints.describe). */
  describe() {
    const lines = [];
    const d = this.toDict();
    if (this.greens.size) {
      let pattern = "";
      for (let i = 0; i < WORD_LENGTH; i++) pattern += this.greens.get(i) || "_";
      lines.push(`greens: ${pattern.toUpperCase()}`);
    }
    for (const [l, pos] of Object.entries(d.not_at)) lines.push(`${l.toUpperCase()} is in the word, not at position ${pos.join(", ")}`);
    for (const [l, n] of Object.entries(d.min_counts)) {
      const exact = this.exactCounts.get(l);
      if (exact !== undefined) lines.push(`${l.toUpperCase()} appears exactly ${exact} time${exact !== 1 ? "s" : ""}`);
      else if (n > 1) lines.push(`${l.toUpperCase()} appears at least ${n} times`);
    }
    if (d.excluded.length) lines.push("not in the word: " + d.excluded.map((x) => x.toUpperCase()).join(" "));
    return lines;
  }
}

// --- the state: history, candidates, fallback (engine/state.py) ------------------------------

/** Where a game stands. ``candidates``: solution indices (columns); ``fallback``: allowed rows
    that fit when no solution does (null otherwise), in allowed (alphabetical) order. */
export class State {
  constructor(list, hard, history, candidates, fallback, warnings) {
    this.list = list;
    this.hard = hard;
    this.history = history || [];
    this.candidates = candidates || Int32Array.from(list.solutions, (_, i) => i);
    this.fallback = fallback || null;
    this.warnings = warnings || [];
  }

  get count() { return this.fallback ? this.fallback.length : this.candidates.length; }

  get solved() { return this.history.length > 0 && this.history[this.history.length - 1][1] === ALL_GREEN; }

  /** The words that could still be the answer, in the list's order. */
  candidateWords() {
    if (this.fallback) return Array.from(this.fallback, (r) => this.list.allowed[r]);
    return Array.from(this.candidates, (s) => this.list.solutions[s]);
  }

  /** The prior weight of each candidate, or null when they are equally likely (a fallback is
      ranked equally likely, as the server does by default: State.answer_weights). */
  answerWeights() {
    const w = this.list.weights;
    if (!w || this.fallback) return null;
    return Float64Array.from(this.candidates, (s) => w[s]);
  }

  /** Allowed rows of the words that could be the answer. */
  candidateRows() {
    if (this.fallback) return Int32Array.from(this.fallback);
    return Int32Array.from(this.candidates, (s) => this.list.solutionRows[s]);
  }

  /** The state after ``guess`` (a-z) showed ``code`` (State.after). */
  after(guess, code) {
    const list = this.list;
    const warnings = this.warnings.slice();
    const row = list.rowOf.get(guess);
    if (row === undefined) warnings.push(`${guess.toUpperCase()} is not in the ${list.name} word list; used anyway`);
    if (this.hard) {
      const reason = hardViolation(guess, this.history);
      if (reason) warnings.push(`${guess.toUpperCase()} breaks hard mode (${reason}); used anyway`);
    }
    const history = [...this.history, [guess, code]];
    let fallback;
    if (!this.fallback) {
      const S = list.solutions.length;
      const kept = [];
      if (row !== undefined) {
        const table = list.table;
        for (const s of this.candidates) if (table[row * S + s] === code) kept.push(s);
      } else {
        const g = lettersOf(guess);
        for (const s of this.candidates) if (pairCode(g, 0, list.letters, list.solutionRows[s] * WORD_LENGTH) === code) kept.push(s);
      }
      if (kept.length) return new State(list, this.hard, history, Int32Array.from(kept), null, warnings);
      fallback = fittingRows(list, allRows(list), history);
    } else {
      fallback = fittingRows(list, this.fallback, [[guess, code]]);
    }
    if (!fallback.length) {
      const { problems, facts } = new Constraints(history);
      const why = problems.length ? `: ${problems[0]}` : "";
      throw new DeviceError(`no word fits these hints${why}; check the colours you entered`, "no_fit",
        { why, ...(facts[0] || {}) });
    }
    if (!this.fallback) {
      const n = fallback.length;  // the words of engine/state.py State.after
      warnings.push(`no ${list.name} solution fits these hints: the answer is probably missing from the list; `
        + `going on with the ${n} allowed ${n !== 1 ? "words that fit" : "word that fits"}`);
    }
    return new State(list, this.hard, history, new Int32Array(0), fallback, warnings);
  }

  /** Whether one candidate weighs at least as much as all the others together: one or two
      candidates left, or under a prior a clear favourite (State.decided). */
  get decided() {
    if (this.count <= 2) return true;
    const w = this.answerWeights();
    if (!w) return false;
    let most = 0;
    for (const x of w) if (x > most) most = x;
    return 2 * most >= pairwiseSum(w);
  }

  /** The rows worth ranking: every allowed word (legal ones in hard mode); when the answer is
      all but known (decided), only the candidates (State.guess_rows). */
  guessRows() {
    if (this.decided) return this.candidateRows();
    if (this.hard && this.history.length) return legalRows(this.list, this.history);
    return allRows(this.list);
  }
}

function allRows(list) {
  return Int32Array.from(list.allowed, (_, i) => i);
}

/** The allowed ``rows`` (in order) whose word would have shown every pattern of ``history``. */
function fittingRows(list, rows, history) {
  const moves = history.map(([g, c]) => [lettersOf(g), c]);
  const out = [];
  for (const r of rows) {
    if (moves.every(([g, c]) => pairCode(g, 0, list.letters, r * WORD_LENGTH) === c)) out.push(r);
  }
  return Int32Array.from(out);
}

// --- the ranking (engine/kernels.py _split_rows, engine/rank.py) -----------------------------

/** ``rint(x * 1e9)``, halves to even: ``np.round(x, 9)`` before its division, which keeps order. */
export function roundKey(x) {
  const y = x * 1e9;
  let r = Math.round(y);  // halves up
  if (r - y === 0.5 && r % 2 !== 0) r -= 1;
  return r;
}

/** How each guess row splits the candidate columns: bits, patterns, largest group and sum of
    squared group sizes, with the compiled kernel's order of sums (bits agree to the last place).
    ``codesOf(g, seen)`` gives row g's codes against the n candidates: written into ``seen``, or
    a view of the table when the candidates are all its columns. */
export function splitStats(list, rows, n, codesOf) {
  const k = rows.length;
  const bits = new Float64Array(k);
  const patterns = new Int32Array(k);
  const largest = new Int32Array(k);
  const sumSq = new Float64Array(k);
  if (!n || !k) return { bits, patterns, largest, sumSq };
  const xlogx = list.xlogx;
  const logN = list.log2[n];
  if (logN === undefined) throw new DeviceError(`no log2 for ${n} candidates in the ${list.name} list file`);
  const counts = new Int32Array(PATTERNS);
  // many candidates: four histograms in turn, so that equal neighbours (all grey, mostly) do
  // not wait on each other's count; they are added up per pattern, integers, so exactly
  const spare = n > PATTERNS ? new Int32Array(3 * PATTERNS) : null;
  const n4 = n - (n % 4);
  const seen = new Uint8Array(n);
  for (let r = 0; r < k; r++) {
    const codes = codesOf(rows[r], seen);
    let acc = 0, npat = 0, big = 0, sq = 0;
    if (spare) {
      for (let j = 0; j < n4; j += 4) {
        counts[codes[j]] += 1;
        spare[codes[j + 1]] += 1;
        spare[PATTERNS + codes[j + 2]] += 1;
        spare[2 * PATTERNS + codes[j + 3]] += 1;
      }
      for (let j = n4; j < n; j++) counts[codes[j]] += 1;
      for (let p = 0; p < PATTERNS; p++) {
        counts[p] += spare[p] + spare[PATTERNS + p] + spare[2 * PATTERNS + p];
      }
      spare.fill(0);
    } else {
      for (let j = 0; j < n; j++) counts[codes[j]] += 1;
    }
    if (n <= PATTERNS) {
      // each group's first member (in column order) adds its c·log2 c, as the kernel does
      for (let j = 0; j < n; j++) {
        const p = codes[j];
        const c = counts[p];
        if (c === 0) continue;
        counts[p] = 0;
        npat += 1; acc += xlogx[c]; sq += c * c; if (c > big) big = c;
      }
    } else {
      for (let p = 0; p < PATTERNS; p++) {
        const c = counts[p];
        if (c === 0) continue;
        counts[p] = 0;
        npat += 1; acc += xlogx[c]; sq += c * c; if (c > big) big = c;
      }
    }
    bits[r] = logN - acc / n;
    patterns[r] = npat;
    largest[r] = big;
    sumSq[r] = sq;
  }
  return { bits, patterns, largest, sumSq };
}

/** ``np.sum`` of a float64 array, in numpy's pairwise order (blocks of 8 partial sums, halves
    above 128), so that weights normalise to the very numbers the server's do. */
export function pairwiseSum(a, lo = 0, n = a.length - lo) {
  if (n < 8) {
    let res = -0.0;
    for (let i = lo; i < lo + n; i++) res += a[i];
    return res;
  }
  if (n <= 128) {
    const r = [a[lo], a[lo + 1], a[lo + 2], a[lo + 3], a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[lo + i + j];
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[lo + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, lo, n2) + pairwiseSum(a, lo + n2, n - n2);
}

/** The weighted split of each guess row (kernels._split_rows_weighted, in its order of sums):
    ``w`` the candidates' weights summing to 1. Bits of the weighted feedback distribution,
    pattern count, largest group (counts) and expected number of candidates left. */
export function weightedSplitStats(list, rows, n, codesOf, w, full) {
  const k = rows.length;
  const bits = new Float64Array(k);
  const patterns = new Int32Array(k);
  const largest = new Int32Array(k);
  const expected = new Float64Array(k);
  if (!n || !k) return { bits, patterns, largest, expected };
  const counts = new Int32Array(4 * PATTERNS);
  const mass = new Float64Array(4 * PATTERNS);
  const n4 = n - (n % 4);
  const seen = new Uint8Array(n);
  for (let r = 0; r < k; r++) {
    const codes = codesOf(rows[r], seen);
    let acc = 0, exp = 0, npat = 0, big = 0;
    if (n <= PATTERNS) {
      for (let j = 0; j < n; j++) { counts[codes[j]] += 1; mass[codes[j]] += w[j]; }
      for (let j = 0; j < n; j++) {
        const p = codes[j];
        const c = counts[p];
        if (c > 0) {
          const m = mass[p];
          counts[p] = 0; mass[p] = 0;
          npat += 1; acc += m * Math.log2(m); exp += m * c; if (c > big) big = c;
        }
      }
    } else {
      if (full) {
        for (let j = 0; j < n4; j += 4) {
          counts[codes[j]] += 1; mass[codes[j]] += w[j];
          counts[PATTERNS + codes[j + 1]] += 1; mass[PATTERNS + codes[j + 1]] += w[j + 1];
          counts[2 * PATTERNS + codes[j + 2]] += 1; mass[2 * PATTERNS + codes[j + 2]] += w[j + 2];
          counts[3 * PATTERNS + codes[j + 3]] += 1; mass[3 * PATTERNS + codes[j + 3]] += w[j + 3];
        }
        for (let j = n4; j < n; j++) { counts[codes[j]] += 1; mass[codes[j]] += w[j]; }
      } else {
        for (let j = 0; j < n; j++) { counts[codes[j]] += 1; mass[codes[j]] += w[j]; }
      }
      for (let p = 0; p < PATTERNS; p++) {
        const c = counts[p] + counts[PATTERNS + p] + counts[2 * PATTERNS + p] + counts[3 * PATTERNS + p];
        if (c > 0) {
          const m = (mass[p] + mass[PATTERNS + p]) + (mass[2 * PATTERNS + p] + mass[3 * PATTERNS + p]);
          for (let h = 0; h < 4; h++) { counts[h * PATTERNS + p] = 0; mass[h * PATTERNS + p] = 0; }
          npat += 1;
          if (m > 0) acc += m * Math.log2(m);
          exp += m * c;
          if (c > big) big = c;
        }
      }
    }
    bits[r] = npat === 1 ? 0 : Math.max(-acc, 0);
    patterns[r] = npat;
    largest[r] = big;
    expected[r] = exp;
  }
  return { bits, patterns, largest, expected };
}

/** ``codesOf`` for a state: table columns of its candidates, or feedback against its fallback. */
function codeReader(state) {
  const list = state.list;
  if (state.fallback) {
    const fb = state.fallback;
    return (g, seen) => {
      for (let j = 0; j < fb.length; j++) seen[j] = pairCode(list.letters, g * WORD_LENGTH, list.letters, fb[j] * WORD_LENGTH);
      return seen;
    };
  }
  const S = list.solutions.length;
  const table = list.table;
  const cols = state.candidates;
  if (cols.length === S) return (g) => table.subarray(g * S, (g + 1) * S);
  return (g, seen) => {
    const o = g * S;
    for (let j = 0; j < cols.length; j++) seen[j] = table[o + cols[j]];
    return seen;
  };
}

/** The ``top`` best guesses of a state by entropy, best first (rank.rank with ``entropy``):
    most bits (at 9 decimals), then words that could be the answer, then alphabetical. */
export function rankState(state, top = MAX_TOP) {
  const n = state.count;
  if (n === 0) throw new DeviceError("no candidates are left to rank guesses against");
  const rows = state.guessRows();
  const weights = state.answerWeights();
  let stats;
  if (weights) {  // rank.split_stats: the weights over the candidates, normalised, then the kernel
    const total = pairwiseSum(weights);
    const w = Float64Array.from(weights, (x) => x / total);
    stats = weightedSplitStats(state.list, rows, n, codeReader(state), w, n === state.list.solutions.length);
  } else {
    stats = splitStats(state.list, rows, n, codeReader(state));
    stats.expected = Float64Array.from(stats.sumSq, (sq) => sq / Math.max(n, 1));
  }
  const mark = new Uint8Array(state.list.allowed.length);
  for (const r of state.candidateRows()) mark[r] = 1;
  const keys = Float64Array.from(stats.bits, roundKey);
  let order = Array.from(rows, (_, i) => i);
  if (state.hard) {  // no 0-bit guess that cannot be the answer while some legal guess splits (rank.rank_table)
    const useful = order.filter((i) => stats.patterns[i] > 1 || mark[rows[i]] === 1);
    if (useful.length && useful.length < order.length) order = useful;
  }
  order.sort((i, j) => (keys[j] - keys[i]) || (mark[rows[j]] - mark[rows[i]]) || (rows[i] - rows[j]));
  if (weights && state.decided) {  // a clear favourite under a prior: the likeliest first (rank.rank)
    const weight = new Map(Array.from(state.candidateRows(), (r, k) => [r, weights[k]]));
    order.sort((i, j) => weight.get(rows[j]) - weight.get(rows[i]));  // stable: the ranking's order on a tie
  }
  return order.slice(0, top).map((i) => ({
    word: state.list.allowed[rows[i]],
    bits: stats.bits[i],
    candidate: mark[rows[i]] === 1,
    patterns: stats.patterns[i],
    largest: stats.largest[i],
    expected_remaining: stats.expected[i],
  }));
}

/** How ``word`` splits the state's candidates, as the API's ``split`` (rank.split_of, service.split_dict). */
export function splitOf(state, word) {
  const list = state.list;
  const row = list.rowOf.get(word);
  const n = state.count;
  const codes = new Uint8Array(n);
  if (!state.fallback && row !== undefined) codes.set(codeReader(state)(row, codes));
  else {
    const g = lettersOf(word);
    state.candidateRows().forEach((r, j) => { codes[j] = pairCode(g, 0, list.letters, r * WORD_LENGTH); });
  }
  const counts = new Int32Array(PATTERNS);
  for (const c of codes) counts[c] += 1;
  const groups = [];
  for (let p = 0; p < PATTERNS; p++) if (counts[p]) groups.push([p, counts[p]]);
  groups.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const rest = groups.slice(SPLIT_GROUPS);
  return {
    word,
    groups: groups.slice(0, SPLIT_GROUPS).map(([p, count]) => ({ pattern: formatPattern(p), count })),
    other_groups: rest.length,
    other_words: rest.reduce((s, g) => s + g[1], 0),
  };
}

// --- the answer of POST /api/hints ------------------------------------------------------------

/** Check a guess the way the server's check_word does (a-z after umlauts), or throw. */
function checkGuess(word) {
  const norm = String(word).trim().toLowerCase()
    .replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
  if (!/^[a-z]{5}$/.test(norm)) throw new DeviceError(`guess: ${JSON.stringify(word)} must be five letters a-z`);
  return norm;
}

/** The book's decision for a state: the opener with no rows, the second guess after the
    opener's row, else null (trees/book.py Book.decision). */
function bookDecision(book, history) {
  if (!book) return null;
  if (!history.length) return book.opener;
  if (history.length === 1 && history[0][0] === book.opener[0]) return book.second[String(history[0][1])] || null;
  return null;
}

/** The ``guarantee`` of /api/hints for ``hints`` of a state, as the server's (safe_hints.guarded_hints)
    where the book decides: the decision, how many covered words fit, and a verdict a hint (the
    book's openers first, the decision when safe; null where the book says nothing). Null when
    the server gives none (solved, no hints), and ``beyond`` true when the book does not hold
    the position: later moves are searched on the server, beyond what this device can check. */
export function bookGuarantee(list, state, hints) {
  if (state.solved || !hints.length) return { guarantee: null, beyond: false };
  const book = list.books[state.hard ? "hard" : "normal"];
  const found = bookDecision(book, state.history);
  if (!found) return { guarantee: null, beyond: true };
  const [guess, safe, over, covered] = found;
  const verdicts = new Map();
  if (!state.history.length) for (const [word, ok, risk] of book.openers) verdicts.set(word, { word, safe: ok, at_risk: risk });
  if (safe && !verdicts.has(guess)) verdicts.set(guess, { word: guess, safe: true, at_risk: 0 });
  return {
    guarantee: {
      limit: book.limit, over: book.over, guess, safe, safe_over: over, covered,
      hints: hints.map((h) => verdicts.get(h.word) || null),
    },
    beyond: false,
  };
}

/** A solver, one word list: states replayed from the empty one, the opener ranking kept. */
export class Solver {
  constructor(list) {
    this.list = list;
    this.openers = null;
  }

  /** The state after ``rows`` ([{guess, pattern}]) in normal or hard mode. */
  state(rows, hard) {
    let state = new State(this.list, Boolean(hard));
    for (const row of rows || []) state = state.after(checkGuess(row.guess), parsePattern(row.pattern));
    return state;
  }

  /** What POST /api/hints answers for ``query`` ({rows, hard, top, limit}; entropy only), and
      ``beyond``: whether the guarantee is beyond what this device can check (bookGuarantee). */
  hints(query) {
    if (!this.list.table) this.list.buildTable();
    const state = this.state(query.rows, query.hard);
    const warnings = state.warnings.slice();
    let hints;
    if (!state.history.length) {
      // the same ranking in hard mode: no history, no rule yet (the server keeps one too)
      if (!this.openers) this.openers = rankState(state);
      hints = this.openers;
    } else if (state.fallback && state.count > FALLBACK_MAX_RANKED) {
      hints = [];
      warnings.push(`${state.count} allowed words fit, too many to rank (at most ${FALLBACK_MAX_RANKED}): add a row`);
    } else {
      hints = rankState(state);
    }
    const constraints = new Constraints(state.history);
    const top = query.top === undefined ? 10 : query.top;
    const limit = query.limit === undefined ? 200 : query.limit;
    const { guarantee, beyond } = bookGuarantee(this.list, state, hints);
    return {
      list: this.list.name,
      prior: this.list.prior,
      count: state.count,
      fallback: Boolean(state.fallback),
      solved: state.solved,
      candidates: state.candidateWords().slice(0, limit),
      hints: hints.slice(0, top),
      split: hints.length ? splitOf(state, hints[0].word) : null,
      constraints: constraints.toDict(),
      summary: constraints.describe(),
      warnings,
      guarantee: guarantee && { ...guarantee, hints: guarantee.hints.slice(0, top) },
      beyond,
    };
  }
}
