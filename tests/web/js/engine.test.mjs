// The device engine (src/raten/web/static/device/engine.js) against slow, obvious references
// written here from the rules, and against the figures others published for the original
// English lists (tests/published.py, read from that file; skipped when ../shared/data is absent).
// The engine's agreement with the Python engine itself is tests/e2e/test_device.py's job.
// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  Constraints, DeviceError, Solver, State, WordList, coloursOf, feedback, formatPattern, hardViolation,
  legalRows, listData, pairCode, parsePattern, rankState, roundKey,
} from "../../../src/raten/web/static/device/engine.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..", "..");
const SHARED = path.resolve(REPO, "..", "shared", "data");

// --- references, written from the rules ------------------------------------------------------

/** Colours by the two-pass rule, as feedback.py's reference states it. */
function coloursRef(guess, answer) {
  const colours = [0, 0, 0, 0, 0];
  const left = {};
  for (let i = 0; i < 5; i++) if (guess[i] !== answer[i]) left[answer[i]] = (left[answer[i]] || 0) + 1;
  for (let i = 0; i < 5; i++) if (guess[i] === answer[i]) colours[i] = 2;
  for (let i = 0; i < 5; i++) {
    if (colours[i] !== 2 && (left[guess[i]] || 0) > 0) { colours[i] = 1; left[guess[i]] -= 1; }
  }
  return colours;
}
const codeRef = (g, a) => coloursRef(g, a).reduce((c, x) => c * 3 + x, 0);

/** Entropy, pattern count, largest group and expected size of a guess over candidates. */
function splitRef(guess, candidates) {
  const groups = new Map();
  for (const a of candidates) { const c = codeRef(guess, a); groups.set(c, (groups.get(c) || 0) + 1); }
  const n = candidates.length;
  let bits = 0, largest = 0, sq = 0;
  for (const c of groups.values()) { bits -= (c / n) * Math.log2(c / n); largest = Math.max(largest, c); sq += c * c; }
  return { bits, patterns: groups.size, largest, expected: sq / n };
}

/** Hard mode from its statement: greens kept, every shown letter as often as shown. */
function legalRef(word, history) {
  for (const [g, code] of history) {
    const colours = coloursOf(code);
    const shown = {};
    for (let i = 0; i < 5; i++) {
      if (colours[i] === 2 && word[i] !== g[i]) return false;
      if (colours[i] > 0) shown[g[i]] = (shown[g[i]] || 0) + 1;
    }
    for (const [l, n] of Object.entries(shown)) if (Array.from(word).filter((x) => x === l).length < n) return false;
  }
  return true;
}

/** A seeded generator (mulberry32), so a failure can be run again. */
function random(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words over a small alphabet, so that repeated letters and shared letters are common. */
function words(rand, count, alphabet = "aeinrst") {
  const out = new Set();
  while (out.size < count) {
    let w = "";
    for (let i = 0; i < 5; i++) w += alphabet[Math.floor(rand() * alphabet.length)];
    out.add(w);
  }
  return Array.from(out).sort();
}

function smallList(seed, nAllowed = 400, nSolutions = 150, alphabet = "aeilnorst") {
  const rand = random(seed);
  const allowed = words(rand, nAllowed, alphabet);
  const solutions = allowed.filter(() => rand() < nSolutions / nAllowed);
  return new WordList(listData("small", solutions, allowed));
}

// --- feedback --------------------------------------------------------------------------------

test("the code of ?.?!! is 98 and all green is 242 (the design's examples)", () => {
  assert.equal(parsePattern("?.?!!"), 98);
  assert.equal(parsePattern("!!!!!"), 242);
  assert.equal(formatPattern(98), "?.?!!");
  assert.equal(parsePattern("10122"), 98);
});

test("feedback follows the two-pass rule on every pair of words with repeated letters", () => {
  const rand = random(1);
  const sample = words(rand, 300, "aeslt");
  for (const g of sample) for (const a of sample) assert.equal(feedback(g, a), codeRef(g, a), `${g} vs ${a}`);
});

test("greens consume their letter before yellows: SPEED against ABIDE, EERIE and the like", () => {
  for (const [g, a] of [["speed", "abide"], ["eerie", "sheep"], ["llama", "hello"], ["geese", "eerie"], ["abbey", "babes"]]) {
    assert.deepEqual(coloursOf(feedback(g, a)), coloursRef(g, a), `${g} vs ${a}`);
  }
});

test("the table's fast paths give pairCode's codes for every cell", () => {
  const list = smallList(2, 500, 200, "abelst");
  const table = list.buildTable(null, 37);
  const S = list.solutions.length;
  list.allowed.forEach((g, r) => list.solutions.forEach((a, s) => assert.equal(table[r * S + s], codeRef(g, a), `${g} vs ${a}`)));
});

test("a pattern in another notation or of another length is refused", () => {
  assert.throws(() => parsePattern("..?!"), DeviceError);
  assert.throws(() => parsePattern(".?!.z"), DeviceError);
});

// --- the ranking -----------------------------------------------------------------------------

test("bits, patterns, largest group and expected size match the reference, small and large states", () => {
  for (const [seed, nAllowed, nSolutions] of [[3, 300, 60], [4, 600, 500]]) {
    const list = smallList(seed, nAllowed, nSolutions);
    list.buildTable();
    const state = new State(list, false);
    const hints = rankState(state, list.allowed.length);
    assert.equal(hints.length, list.allowed.length);
    for (const h of hints) {
      const ref = splitRef(h.word, list.solutions);
      assert.ok(Math.abs(h.bits - ref.bits) < 1e-12, `${h.word}: ${h.bits} vs ${ref.bits}`);
      assert.equal(h.patterns, ref.patterns);
      assert.equal(h.largest, ref.largest);
      assert.ok(Math.abs(h.expected_remaining - ref.expected) < 1e-12);
      assert.equal(h.candidate, list.solutions.includes(h.word));
    }
  }
});

test("the order: more bits at 9 decimals first, then words that could be the answer, then A-Z", () => {
  const list = smallList(5, 400, 120);
  list.buildTable();
  const state = new State(list, false).after(list.allowed[7], 0);
  const cands = state.candidateWords();
  const hints = rankState(state, list.allowed.length);
  const key = (w) => Math.round(splitRef(w, cands).bits * 1e9);
  const expected = [...list.allowed].sort((x, y) => key(y) - key(x)
    || Number(cands.includes(y)) - Number(cands.includes(x)) || (x < y ? -1 : 1));
  // equal keys of the reference and the engine may differ only at an exact .5; none is here
  assert.deepEqual(hints.map((h) => h.word), expected);
});

test("roundKey rounds halves to even, as numpy's round does", () => {
  assert.equal(roundKey(2.5e-9), 2);
  assert.equal(roundKey(3.5e-9), 4);
  assert.equal(roundKey(-2.5e-9), -2);
  assert.equal(roundKey(1.0000000004), 1000000000);
  assert.equal(roundKey(1.0000000006), 1000000001);
  // bits a last place apart (another CPU's log2 or order of sums, issue 27) are one key: a tie
  assert.equal(roundKey(3.578317118493435), roundKey(3.5783171184934344));
});

test("with one or two candidates left only they are ranked (the endgame rule)", () => {
  const list = smallList(6, 400, 150);
  list.buildTable();
  const solver = new Solver(list);
  for (const answer of list.solutions.slice(0, 40)) {
    let state = new State(list, false);
    while (state.count > 2) {
      const best = rankState(state, 1)[0].word;
      state = state.after(best, feedback(best, answer));
    }
    const words = state.candidateWords();
    const hints = rankState(state);
    assert.deepEqual(hints.map((h) => h.word).sort(), [...words].sort());
    assert.ok(hints.every((h) => h.candidate));
    const rows = state.history.map(([guess, code]) => ({ guess, pattern: formatPattern(code) }));
    assert.deepEqual(solver.hints({ rows }).hints.map((h) => h.word), hints.map((h) => h.word));
  }
});

// --- the filter, hard mode, the fallback --------------------------------------------------------

test("candidates after a history are the solutions that would have shown every pattern", () => {
  const list = smallList(7, 400, 150);
  list.buildTable();
  const rand = random(7);
  for (let t = 0; t < 60; t++) {
    const answer = list.solutions[Math.floor(rand() * list.solutions.length)];
    let state = new State(list, false);
    const history = [];
    for (let turn = 0; turn < 3 && state.count > 0; turn++) {
      const guess = list.allowed[Math.floor(rand() * list.allowed.length)];
      history.push([guess, feedback(guess, answer)]);
      state = state.after(guess, feedback(guess, answer));
      const expected = list.solutions.filter((w) => history.every(([g, c]) => codeRef(g, w) === c));
      assert.deepEqual(state.candidateWords(), expected);
    }
  }
});

test("hard mode: the legal guesses are those that keep every green and shown letter", () => {
  const list = smallList(8, 400, 150);
  const rand = random(8);
  for (let t = 0; t < 40; t++) {
    const answer = list.solutions[Math.floor(rand() * list.solutions.length)];
    const history = [0, 1].map(() => { const g = list.allowed[Math.floor(rand() * list.allowed.length)]; return [g, feedback(g, answer)]; });
    const legal = Array.from(legalRows(list, history), (r) => list.allowed[r]);
    assert.deepEqual(legal, list.allowed.filter((w) => legalRef(w, history)));
    for (const w of list.allowed.slice(0, 50)) assert.equal(hardViolation(w, history) === null, legalRef(w, history));
  }
});

test("hard mode says why a guess breaks it, in the engine's words", () => {
  const history = [["crane", parsePattern("..!?.")]];
  assert.equal(hardViolation("spine", history), "3rd letter must be A");
  assert.equal(hardViolation("slate", history), "guess must contain N");
  assert.equal(hardViolation("spawn", history), null);
  assert.equal(hardViolation("stomp", [["sassy", parsePattern("!.?..")]]), "guess must contain S 2 times");
  assert.equal(hardViolation("spots", [["sassy", parsePattern("!.?..")]]), null);
});

test("hard mode ranks only legal guesses, and warns of a guess that broke it", () => {
  const list = smallList(9, 400, 150);
  list.buildTable();
  const answer = list.solutions[3];
  const first = list.allowed[10];
  const history = [[first, feedback(first, answer)]];
  const state = new State(list, true).after(first, feedback(first, answer));
  for (const h of rankState(state, 1000)) assert.ok(legalRef(h.word, history), h.word);
  const illegal = list.allowed.find((w) => !legalRef(w, history));
  if (illegal) {
    const next = state.after(illegal, feedback(illegal, answer));
    assert.match(next.warnings.at(-1), new RegExp(`^${illegal.toUpperCase()} breaks hard mode \\(.+\\); used anyway$`));
  }
});

test("a guess outside the list is used anyway, with the engine's warning", () => {
  const list = smallList(10, 300, 100);
  list.buildTable();
  const answer = list.solutions[0];
  const state = new State(list, false).after("zzzzz", feedback("zzzzz", answer));
  assert.deepEqual(state.warnings, ["ZZZZZ is not in the small word list; used anyway"]);
  assert.equal(state.count, list.solutions.length);
});

test("when no solution fits, the allowed words that do stand in; when none does, the error says why", () => {
  const list = smallList(11, 400, 60);
  list.buildTable();
  const outsider = list.allowed.find((w) => !list.solutions.includes(w));
  const guess = list.allowed[0];
  const state = new State(list, false).after(guess, feedback(guess, outsider));
  const expected = list.allowed.filter((w) => codeRef(guess, w) === feedback(guess, outsider));
  if (!list.solutions.some((w) => codeRef(guess, w) === feedback(guess, outsider))) {
    assert.ok(state.fallback);
    assert.deepEqual(state.candidateWords(), expected);
    assert.match(state.warnings.at(-1),
      /^no small solution fits these hints: the answer is probably missing from the list; going on with the \d+ allowed words? that fits?$/);
  }
  const solver = new Solver(list);
  assert.throws(() => solver.hints({ rows: [{ guess: "aaaaa", pattern: "!...." }, { guess: "eeeee", pattern: "!...." }] }),
    (e) => e.key === "no_fit" && /position 1 cannot be both A and E/.test(e.message));
});

// --- constraints --------------------------------------------------------------------------------

test("constraints: greens, places ruled out, counts and excluded letters, 1-based", () => {
  const c = new Constraints([["speed", parsePattern("!.?.?")], ["sheep", parsePattern("!.!..")]]);
  assert.deepEqual(c.toDict(), {
    greens: { 1: "s", 3: "e" },
    not_at: { d: [5], e: [3, 4] },
    min_counts: { d: 1, e: 1, s: 1 },
    exact_counts: { e: 1 },
    excluded: ["h", "p"],
  });
  assert.deepEqual(c.problems, []);
  assert.deepEqual(new Constraints([["tests", parsePattern("?....")]]).problems.length, 0);
  assert.match(new Constraints([["eerie", parsePattern(".?...")]]).problems[0], /a yellow E cannot follow a grey E/);
});

// --- the published English figures --------------------------------------------------------------

function published(name) {
  const text = fs.readFileSync(path.join(REPO, "tests", "published.py"), "utf8");
  const block = text.split(`${name} = [`)[1].split("]")[0];
  return Array.from(block.matchAll(/\("([a-z]{5})", ([\d.]+)\)/g), (m) => [m[1], Number(m[2])]);
}

function englishList(t) {
  const answers = path.join(SHARED, "en", "answers.txt");
  if (!fs.existsSync(answers)) { t.skip(`${answers} is not present`); return null; }
  const read = (f) => fs.readFileSync(path.join(SHARED, "en", f), "utf8").split(/\s+/).filter(Boolean);
  const solutions = read("answers.txt").sort();
  const allowed = Array.from(new Set([...read("allowed.txt"), ...solutions])).sort();
  return new WordList(listData("en", solutions, allowed));
}

test("the English openers and the hints after CRANE are the published ones", (t) => {
  const list = englishList(t);
  if (!list) return;
  const solver = new Solver(list);
  const openers = solver.hints({ rows: [], top: 10 }).hints;
  assert.deepEqual(openers.map((h) => [h.word, Number(h.bits.toFixed(4))]), published("EN_OPENERS"));
  const after = solver.hints({ rows: [{ guess: "crane", pattern: "..?!." }], top: 4 });
  assert.equal(after.count, 20);
  assert.deepEqual(after.hints.map((h) => [h.word, Number(h.bits.toFixed(4))]), published("EN_AFTER_CRANE"));
  assert.equal(pairCode(list.letters, 0, list.letters, 0), 242);
});

test("the guarantee comes from the book for the first two moves, and is 'beyond' after them", () => {
  const sols = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"];
  const data = listData("t", sols, [...sols, "slate"].sort());
  const second = String(feedback("slate", "awake"));
  data.books = {
    normal: {
      limit: 6, over: "all", opener: ["slate", true, "all", 9],
      openers: [["slate", true, 0], ["cigar", false, 2]],
      second: { [second]: ["awake", true, "all", 1] },
    },
  };
  const solver = new Solver(new WordList(data));
  const first = solver.hints({ rows: [] });
  assert.equal(first.beyond, false);
  assert.deepEqual({ ...first.guarantee, hints: undefined },
    { limit: 6, over: "all", guess: "slate", safe: true, safe_over: "all", covered: 9, hints: undefined });
  for (const [h, v] of first.hints.map((h, i) => [h, first.guarantee.hints[i]])) {
    const want = { slate: { word: "slate", safe: true, at_risk: 0 }, cigar: { word: "cigar", safe: false, at_risk: 2 } };
    assert.deepEqual(v, want[h.word] || null);
  }
  const pattern = formatPattern(Number(second));
  const next = solver.hints({ rows: [{ guess: "slate", pattern }] });
  assert.equal(next.guarantee.guess, "awake");
  assert.equal(next.guarantee.covered, 1);
  next.hints.forEach((h, i) => assert.deepEqual(next.guarantee.hints[i], h.word === "awake" ? { word: "awake", safe: true, at_risk: 0 } : null));
  // beyond the book: a third row, another opener, hard mode without a hard book; solved: none
  const rows = [{ guess: "slate", pattern }, { guess: "cigar", pattern: formatPattern(feedback("cigar", "awake")) }];
  for (const q of [{ rows }, { rows: [{ guess: "cigar", pattern: "....." }] }, { rows: [], hard: true }]) {
    const a = solver.hints(q);
    assert.ok(a.hints.length && !a.solved, JSON.stringify(q));
    assert.deepEqual([a.guarantee, a.beyond], [null, true], JSON.stringify(q));
  }
  const solved = solver.hints({ rows: [{ guess: "slate", pattern: "!!!!!" }] });
  assert.deepEqual([solved.guarantee, solved.beyond], [null, false]);
});
