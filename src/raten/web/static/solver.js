/* raten solver page: type guesses, click tiles to set their colours, see the best next guesses.
   The rows live in the URL (?rows=crane01200-slate00000), so a state can be shared and reloaded. */
"use strict";

(function solverPage() {
  if (RATEN.boards > 1) return;  // several boards: solver-boards.js
  const SYMBOLS = ".?!";
  const MAX_ROWS = 20;
  const params = new URLSearchParams(location.search);
  const state = {
    rows: parseRows(params.get("rows")),
    current: (params.get("next") || "").toLowerCase().replace(/[^a-z]/g, "").slice(0, 5),
    hard: params.get("hard") === "1",
    prior: ["uniform", "frequency"].includes(params.get("prior")) ? params.get("prior") : RATEN.prior,
    answersOnly: params.get("answers") === "1",
  };
  const el = (id) => document.getElementById(id);

  function parseRows(text) {
    const rows = [];
    for (const part of (text || "").split("-")) {
      const m = /^([a-z]{5})([012]{5})$/.exec(part.toLowerCase());
      if (m) rows.push({ guess: m[1], colours: Array.from(m[2]).map(Number) });
    }
    return rows.slice(0, MAX_ROWS);
  }

  function writeUrl() {
    const q = new URLSearchParams();
    q.set("list", RATEN.list);
    const lang = params.get("lang");
    if (lang) q.set("lang", lang);
    if (state.hard) q.set("hard", "1");
    if (state.prior !== RATEN.prior) q.set("prior", state.prior);
    if (state.answersOnly) q.set("answers", "1");
    if (state.rows.length) q.set("rows", state.rows.map((r) => r.guess + r.colours.join("")).join("-"));
    history.replaceState(null, "", location.pathname + "?" + q.toString());
    solverLangLinks(q);  // the language switch keeps the rows and hard mode
  }

  function renderBoard() {
    const board = el("board");
    board.replaceChildren();
    state.rows.forEach((row, r) => {
      const line = tileRow(row.guess, row.colours, true);
      line.dataset.row = r;
      line.classList.add("done");
      line.setAttribute("role", "group");
      line.setAttribute("aria-label", tr("row_label", { n: r + 1, word: row.guess.toUpperCase() }));
      line.querySelectorAll(".tile").forEach((tile, i) => {
        tile.title = tr("tile_click");
        tile.addEventListener("click", (e) => {
          row.colours[i] = (row.colours[i] + 1) % 3;
          row.fresh = false;
          const fromKeyboard = e.detail === 0;
          changed();
          // the board is drawn anew: keep a keyboard user's focus on the same tile
          if (fromKeyboard) el("board").querySelectorAll(".row.done")[r].querySelectorAll(".tile")[i].focus();
          announce(tileLabel(row.guess[i], row.colours[i]));
        });
      });
      board.appendChild(line);
    });
    if (state.rows.length < MAX_ROWS) {
      const input = tileRow(state.current, null, false);
      input.id = "input-row";
      input.setAttribute("aria-label", tr("input_row", { word: state.current.toUpperCase() || "–" }));
      board.appendChild(input);
    }
    for (let i = state.rows.length + 1; i < 6; i++) {
      const empty = tileRow("", null, false);
      empty.setAttribute("aria-hidden", "true");
      board.appendChild(empty);
    }
    const known = {};
    for (const row of state.rows) {
      row.colours.forEach((c, i) => {
        const ch = row.guess[i];
        known[ch] = Math.max(known[ch] === undefined ? 0 : known[ch], c);
      });
    }
    const names = ["absent", "present", "correct"];
    keyboard.setStates(Object.fromEntries(Object.entries(known).map(([k, c]) => [k, names[c]])));
    fitBoard();
  }

  function changed() {
    writeUrl();
    renderBoard();
    refresh();
    offerReview();
  }

  /** "Review this game" is offered once the last row is all green; a changed game hides its review. */
  function offerReview() {
    const last = state.rows[state.rows.length - 1];
    el("review-game").hidden = !(last && last.colours.every((c) => c === 2));
    review.hide();
  }

  function reviewGame() {
    const rows = state.rows.map((r) => ({ guess: r.guess, pattern: r.colours.map((c) => SYMBOLS[c]).join("") }));
    const body = { list: RATEN.list, guesses: rows.map((r) => r.guess), patterns: rows.map((r) => r.pattern), hard: state.hard };
    if (state.prior !== RATEN.prior) body.prior = state.prior;  // the prior menu's, when not the list's own
    review.show(rows, (signal) => api("/api/review", { method: "POST", body, signal }));
    el("review-heading").focus();
  }

  function requestBody() {
    const body = {
      list: RATEN.list,
      rows: state.rows.map((r) => ({ guess: r.guess, pattern: r.colours.map((c) => SYMBOLS[c]).join("") })),
      hard: state.hard,
      top: 10,
      limit: 300,
    };
    // named only when not the classic setting, so a plain body can still be answered on the device
    if (state.prior !== "uniform" || state.prior !== RATEN.prior) body.prior = state.prior;
    if (state.answersOnly) body.answers_only = true;
    return body;
  }

  /** Empty every result, so that nothing of an earlier state is shown after an error. */
  function clearResults() {
    el("count").textContent = "";
    delete el("count").dataset.count;
    el("warnings").replaceChildren();
    el("hints-section").hidden = true;
    el("hints").querySelector("tbody").replaceChildren();
    el("candidates").hidden = true;
    el("candidate-words").textContent = "";
    el("constraints-section").hidden = true;
    el("constraints").replaceChildren();
    el("split-heading").textContent = "";
    el("split-heading").hidden = true;
    el("split").replaceChildren();
  }

  /** A warning of the server in the page's language: the engine words them in English. */
  function translateWarning(w) {
    let m = /^([A-Z]+) is not in the (\S+) word list; used anyway$/.exec(w);
    if (m) return tr("w_not_in_list", { word: m[1], list: m[2] });
    m = /^([A-Z]+) breaks hard mode/.exec(w);
    if (m) return tr("w_breaks_hard", { word: m[1] });
    m = /^(\d+) allowed words fit, too many to rank/.exec(w);
    if (m) return tr("w_too_many", { n: m[1] });
    return w;
  }

  function show(data) {
    const n = data.count;
    let text;
    if (data.solved) text = tr("solved", { n: state.rows.length });
    else if (n === 1) text = tr("candidate_left", { word: data.candidates[0].toUpperCase() });
    else text = tr("candidates_left", { n });
    el("count").textContent = text;
    el("count").dataset.count = n;
    const best = !data.solved && n > 1 && data.hints.length ? data.hints[0].word.toUpperCase() : "";
    el("summary").textContent = best ? text + " · " + tr("best_guess", { word: best }) : text;
    el("summary").classList.remove("busy");
    fitBoard();

    const warnings = el("warnings");
    warnings.replaceChildren();
    // The fallback is said once, with the count of this state (the engine's own sentence
    // keeps the count of the row where the fallback began).
    const notes = (data.fallback ? [tr(n === 1 ? "fallback_one" : "fallback", { n })] : []).concat(
      (data.notices || (data.warnings || []).map((w) => ({ key: "warning", params: {}, text: w })))
        .filter((w) => w.key !== "fallback")
        .map((w) => (RATEN.text["w_" + w.key] ? tr("w_" + w.key, w.params) : translateWarning(w.text))));
    for (const w of notes) {
      const li = document.createElement("li");
      li.textContent = w;
      warnings.appendChild(li);
    }

    el("hints-section").hidden = data.solved || !data.hints.length;
    el("constraints-section").hidden = false;
    el("candidates").hidden = data.solved;
    el("hints-heading").textContent = tr(state.rows.length ? "hints_heading" : "openers_heading");
    fillHints(data.hints, (word) => { state.current = word; renderBoard(); }, (h) => [
      [h.bits.toFixed(3), "num"],
      [h.candidate ? "\u2713" : "", "mark", h.candidate ? tr("answer_mark_title") : ""],
      [String(h.largest), "num wide"],
      [h.expected_remaining.toFixed(1), "num wide"],
    ]);

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
  }

  /** The constraint summary in the page's language. */
  function describe(c) {
    const lines = [];
    const greens = Object.keys(c.greens);
    if (greens.length) {
      let pattern = "";
      for (let i = 1; i <= 5; i++) pattern += (c.greens[String(i)] || "_").toUpperCase();
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

  /** Colours a new row must have: green where an earlier row showed the same letter green. */
  function certainColours(word) {
    return Array.from(word).map((ch, i) =>
      (state.rows.some((r) => r.guess[i] === ch && r.colours[i] === 2) ? 2 : 0));
  }

  function onKey(key) {
    solverKey(state, key, MAX_ROWS, () => solverAddRow(state, certainColours(state.current), changed), renderBoard);
  }

  const keyboard = makeKeyboard(el("keyboard"), onKey);
  const refresh = solverHintsCycle({ body: requestBody, show, clear: clearResults, lastRow: () => state.rows[state.rows.length - 1] });
  const review = reviewPanel(el("review-panel"), el("review-panel"));
  listenKeys(onKey);
  el("review-game").addEventListener("click", reviewGame);
  device.wireToggle(refresh);
  device.keepForOffline();
  el("hard").checked = state.hard;
  el("hard").addEventListener("change", () => { state.hard = el("hard").checked; changed(); });
  el("prior").value = state.prior;
  el("prior").addEventListener("change", () => { state.prior = el("prior").value; changed(); });
  el("answers-only").checked = state.answersOnly;
  el("answers-only").addEventListener("change", () => { state.answersOnly = el("answers-only").checked; changed(); });
  wireSolverTools(state, changed);
  writeUrl();
  renderBoard();
  refresh();
  offerReview();
})();
