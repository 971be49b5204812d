/* raten: the exact review of a finished game (docs/review.md), drawn into the panel of
   templates/review_panel.html on the game page and the solver page. The figures are the
   library's (GET /api/games/{id}/review, POST /api/review): this only words and draws them. */
import { retryable } from "./api.js";
import { formatNumber, tr } from "./config.js";
import { squares } from "./tiles.js";
import { announce, showError } from "./ui.js";

/** A sign for the eye (≥, ≤, ?) with its words for screen readers. */
function reviewMark(symbol, words) {
  const frag = document.createDocumentFragment();
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = symbol;
  const said = document.createElement("span");
  said.className = "sr-only";
  said.textContent = words + " ";
  frag.append(shown, said);
  return frag;
}

/** Guesses lost as a number: two decimals, three when two would round a loss to 0 ("0.004"). */
function reviewLost(regret) {
  if (regret === 0) return "0";
  return formatNumber(regret, Math.abs(regret) < 0.005 ? 3 : 2);
}

/** The guesses lost by a move, honest about bounds: "0", "0.50", "≥0.25", "≤0.30" or "?". */
function reviewRegret(regret, kind) {
  const frag = document.createDocumentFragment();
  if (regret === null || kind === "unknown") {
    frag.append(reviewMark("?", tr("review_unknown")));
    return frag;
  }
  if (kind === "at least") frag.append(reviewMark("\u2265", tr("review_at_least")));
  else if (kind === "at most") frag.append(reviewMark("\u2264", tr("review_at_most")));
  frag.append(reviewLost(regret));
  return frag;
}

/** A score 0-99, or a dash said as "not known exactly" when the regret is only bounded. */
function reviewScore(score) {
  if (score === null || score === undefined) return reviewMark("\u2013", tr("review_not_exact"));
  return document.createTextNode(String(score));
}

/** The sign of a bounded figure ("at least", "at most" as the API's kinds say), "" when exact. */
const REVIEW_SIGNS = { "at least": ["\u2265", "review_at_least"], "at most": ["\u2264", "review_at_most"] };

/** A game's figure honest about its bound: "0.50", "≥0.50", "≤87" or "–" (`kind` unknown or no value). */
function reviewBounded(value, kind, format) {
  const frag = document.createDocumentFragment();
  if (value === null || value === undefined || kind === "unknown") {
    frag.append(reviewMark("\u2013", tr("review_not_exact")));
    return frag;
  }
  const sign = REVIEW_SIGNS[kind];
  if (sign) frag.append(reviewMark(sign[0], tr(sign[1])));
  frag.append(format(value));
  return frag;
}

/** The same figure in words for the announcer: "87", "at most 87", "–". */
function reviewBoundedWords(value, kind) {
  if (value === null || value === undefined || kind === "unknown") return "\u2013";
  const sign = REVIEW_SIGNS[kind];
  return sign ? tr(sign[1]) + " " + value : String(value);
}

/** The guarantee's verdict of a move (docs/safe-play.md): "safe", or how many covered words it
    could send past the limit with the best safe guess below; null when the guarantee is off. */
function reviewSafety(s, limit) {
  const frag = document.createDocumentFragment();
  if (!s) {
    frag.append("\u2013");
    return frag;
  }
  const words = {
    safe: tr("review_safe"),
    unsafe: tr("review_at_risk", { n: s.at_risk, k: limit + 1 }),
    undecided: tr("review_undecided"),
    unchecked: tr("review_unchecked"),
    uncovered: tr("review_uncovered"),
  };
  frag.append(words[s.status] || s.status);
  if (s.status !== "safe" && s.best) {
    const sub = document.createElement("span");
    sub.className = "sub";
    sub.textContent = tr(s.best_safe ? "review_safe_instead" : "review_none_safe", { word: s.best.toUpperCase() });
    frag.append(" ", sub);
  }
  return frag;
}

/** A cell: a td (or a th for the row's header) with a class and content. */
function reviewCell(tag, cls, ...content) {
  const cell = document.createElement(tag);
  if (cls) cell.className = cls;
  cell.append(...content);
  return cell;
}

/** A library note in the page's language, its first letter capitalised. */
function reviewNote(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The exact review panel of one game. `panel` is the element of templates/review_panel.html;
    `host` gets data-review = busy | ready | error (tests and styles wait on it). */
export function reviewPanel(panel, host) {
  const part = (name) => panel.querySelector("[data-part=" + name + "]");
  let controller = null;

  function setState(state) {
    host.dataset.review = state;
    panel.dataset.review = state;
    part("busy").hidden = state !== "busy";
    part("table").setAttribute("aria-busy", state === "busy" ? "true" : "false");
  }

  /** The rows at once, tiles and words, their figures to come (the review keeps feeling instant). */
  function drawRows(rows) {
    const tbody = part("table").querySelector("tbody");
    tbody.replaceChildren();
    for (const row of rows) {
      const tr_ = document.createElement("tr");
      const head = reviewCell("th", "word", squares(row.pattern), " " + row.guess.toUpperCase());
      head.scope = "row";
      tr_.appendChild(head);
      for (const cls of ["num skill", "num luck", "num lost", "num left", "best", "safe"]) {
        tr_.appendChild(reviewCell("td", cls + " pending", "\u2026"));
      }
      tbody.appendChild(tr_);
    }
  }

  function clear() {
    for (const name of ["game", "notes", "solver"]) part(name).replaceChildren();
    part("solver-section").hidden = true;
    part("error").hidden = true;
  }

  /** The figures of the review, row by row and for the whole game. */
  function draw(review) {
    drawRows(review.moves);
    const rows = part("table").querySelectorAll("tbody tr");
    review.moves.forEach((m, i) => {
      const cells = rows[i].querySelectorAll("td");
      const left = document.createDocumentFragment();
      left.append(String(m.after));
      if (m.best_after !== null && m.best_after !== undefined) {
        const best = document.createElement("span");
        best.className = "sub";
        best.textContent = tr("review_best_left", { n: m.best_after });
        left.append(" ", best);
      }
      const best = document.createDocumentFragment();
      if (m.best) {
        best.append(m.best.toUpperCase());
        if (m.regret === 0 && m.regret_kind === "exact") {
          const same = document.createElement("span");
          same.className = "sub";
          same.textContent = m.best === m.guess ? tr("review_yours_best") : tr("review_as_good");
          best.append(" ", same);
        }
      } else {
        best.append(reviewMark("\u2013", tr("review_not_exact")));
      }
      const guarded = review.guarantee !== null && review.guarantee !== undefined;
      const safety = guarded ? reviewSafety(m.safety, review.guarantee) : document.createTextNode("");
      const contents = [reviewScore(m.skill), reviewScore(m.luck), reviewRegret(m.regret, m.regret_kind), left, best, safety];
      cells.forEach((cell, k) => {
        cell.classList.remove("pending");
        cell.replaceChildren(contents[k]);
      });
      cells[5].hidden = !guarded;
      if (m.safety) rows[i].dataset.safety = m.safety.status;
      if (guarded) {
        // a phone has no room for the column: the verdict stands under the guess (raten.css)
        const under = document.createElement("span");
        under.className = "sub safety-under";
        under.append(reviewSafety(m.safety, review.guarantee));
        rows[i].querySelector("th").append(under);
      }
      if (m.skill !== null) rows[i].dataset.skill = String(m.skill);
    });

    part("safe-col").hidden = review.guarantee === null || review.guarantee === undefined;

    const game = part("game");
    game.replaceChildren();
    const expected = review.expected === null ? null
      : (review.expected_exact ? "" : "\u2265") + formatNumber(review.expected, 2);
    const facts = [
      ["skill", tr("review_col_skill"), reviewBounded(review.skill, review.skill_kind || "exact", String)],
      ["luck", tr("review_col_luck"), reviewScore(review.luck)],
      ["guesses", tr("review_guesses"), document.createTextNode(
        review.solved ? String(review.guesses) : tr("review_not_solved", { n: review.guesses }))],
      ["expected", tr("review_expected"), expected === null ? reviewMark("\u2013", tr("review_not_exact"))
        : document.createTextNode(expected)],
      ["lost", tr("review_total_lost"), reviewBounded(review.total_regret, review.total_kind || "exact", reviewLost)],
    ];
    for (const [key, name, value] of facts) {
      const box = document.createElement("div");
      box.dataset.fact = key;
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.append(value);
      box.append(dt, dd);
      game.appendChild(box);
    }

    const notes = part("notes");
    notes.replaceChildren();
    const said = review.notes.concat(...review.moves.map((m) => m.notes.map((n) => tr("review_note_guess", { n: m.number, note: n }))));
    if (review.hard) said.unshift(tr("review_hard"));
    for (const text of said) {
      const li = document.createElement("li");
      li.textContent = reviewNote(text);
      notes.appendChild(li);
    }

    const solver = part("solver");
    solver.replaceChildren();
    for (const r of review.solver) {
      const line = document.createElement("div");
      line.className = "mini-row";
      line.append(squares(r.pattern), " " + r.guess.toUpperCase());
      solver.appendChild(line);
    }
    part("solver-section").hidden = !review.solver.length;
  }

  return {
    /** Fetch and draw a review: `rows` ({guess, pattern}) are drawn at once, `request(signal)` gives the review. */
    async show(rows, request) {
      if (controller) controller.abort();
      controller = new AbortController();
      const mine = controller;
      panel.hidden = false;
      clear();
      drawRows(rows);
      setState("busy");
      try {
        const review = await request(mine.signal);
        if (mine !== controller) return;
        draw(review);
        setState("ready");
        announce(tr("review_ready", { skill: reviewBoundedWords(review.skill, review.skill_kind || "exact"),
          luck: review.luck === null ? "\u2013" : review.luck }));
      } catch (e) {
        if (e.name === "AbortError" || mine !== controller) return;
        part("table").querySelector("tbody").replaceChildren();
        showError(part("error"), e.message, retryable(e) ? () => this.show(rows, request) : null, "review-retry");
        setState("error");
      }
    },
    /** Hide the panel and drop any review in flight (the game it judged has changed). */
    hide() {
      if (controller) controller.abort();
      controller = null;
      panel.hidden = true;
      delete host.dataset.review;
      delete panel.dataset.review;
    },
  };
}
