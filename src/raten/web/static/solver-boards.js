/* raten solver on several boards (Dordle, Quordle, Octordle): one shared input row, each guess
   played on every board not yet solved, its colours set per board by clicking the tiles.
   The state lives in the URL: ?boards=4&rows=crane01200000002222200010-... (the guess, then five
   digits per board; a board solved before the row keeps 22222 there, which is ignored), and
   &prior=frequency when the prior is not the list's own. */
"use strict";

(function boardsSolverPage() {
  const N = RATEN.boards;
  if (!(N > 1)) return;
  const SYMBOLS = ".?!";
  const MAX_ROWS = 24;
  const params = new URLSearchParams(location.search);
  const el = (id) => document.getElementById(id);
  const state = {
    rows: parseRows(params.get("rows")),
    current: "",
    prior: ["uniform", "frequency"].includes(params.get("prior")) ? params.get("prior") : RATEN.prior,
  };

  function parseRows(text) {
    const rows = [];
    const re = new RegExp("^([a-z]{5})([012]{" + 5 * N + "})$");
    for (const part of (text || "").split("-")) {
      const m = re.exec(part.toLowerCase());
      if (!m) continue;
      const colours = [];
      for (let b = 0; b < N; b++) colours.push(Array.from(m[2].slice(5 * b, 5 * b + 5)).map(Number));
      rows.push({ guess: m[1], colours });
    }
    return rows.slice(0, MAX_ROWS);
  }

  /** The row (0-based) where board b showed all green, or -1. */
  function solvedRow(b) {
    return state.rows.findIndex((r) => r.colours[b].every((c) => c === 2));
  }

  /** Whether row r is played on board b (it is not, once the board was solved by an earlier row). */
  function playsOn(r, b) {
    const at = solvedRow(b);
    return at === -1 || r <= at;
  }

  function writeUrl() {
    const q = new URLSearchParams();
    q.set("list", RATEN.list);
    const lang = params.get("lang");
    if (lang) q.set("lang", lang);
    q.set("boards", String(N));
    if (state.prior !== RATEN.prior) q.set("prior", state.prior);
    if (state.rows.length) {
      q.set("rows", state.rows.map((r, i) => r.guess + r.colours.map((c, b) => (playsOn(i, b) ? c.join("") : "22222")).join("")).join("-"));
    }
    history.replaceState(null, "", location.pathname + "?" + q.toString());
    solverLangLinks(q);
  }

  function renderInput() {
    const board = el("board");
    board.replaceChildren();
    const input = tileRow(state.current, null, false);
    input.id = "input-row";
    input.setAttribute("aria-label", tr("boards_input", { word: state.current.toUpperCase() || "\u2013" }));
    board.appendChild(input);
  }

  function renderBoards() {
    const box = el("boards");
    box.replaceChildren();
    for (let b = 0; b < N; b++) {
      const at = solvedRow(b);
      const wrap = document.createElement("section");
      wrap.className = "mboard" + (at !== -1 ? " solved" : "");
      wrap.dataset.board = String(b + 1);
      const head = document.createElement("h2");
      head.className = "mboard-head";
      head.id = "board-head-" + (b + 1);
      const name = document.createElement("span");
      name.textContent = tr("board_n", { n: b + 1 });
      const status = document.createElement("span");
      status.className = "mboard-status";
      status.id = "board-status-" + (b + 1);
      if (at !== -1) status.textContent = "\u2713 " + tr("board_solved_in", { n: at + 1 });
      head.append(name, status);
      wrap.setAttribute("aria-labelledby", head.id);
      wrap.appendChild(head);
      const grid = document.createElement("div");
      grid.className = "mgrid";
      state.rows.forEach((row, r) => {
        if (!playsOn(r, b)) return;
        const line = tileRow(row.guess, row.colours[b], true);
        line.classList.add("done");
        line.dataset.row = String(r);
        line.setAttribute("role", "group");
        line.setAttribute("aria-label", tr("board_n", { n: b + 1 }) + ", " + tr("row_label", { n: r + 1, word: row.guess.toUpperCase() }));
        line.querySelectorAll(".tile").forEach((tile, i) => {
          tile.title = tr("tile_click");
          tile.addEventListener("click", (e) => {
            row.colours[b][i] = (row.colours[b][i] + 1) % 3;
            row.fresh = false;
            const fromKeyboard = e.detail === 0;
            changed();
            if (fromKeyboard) {
              const again = el("boards").querySelector('.mboard[data-board="' + (b + 1) + '"] .row[data-row="' + r + '"]');
              if (again) again.querySelectorAll(".tile")[i].focus();
            }
            announce(tr("board_n", { n: b + 1 }) + ": " + tileLabel(row.guess[i], row.colours[b][i]));
          });
        });
        grid.appendChild(line);
      });
      wrap.appendChild(grid);
      box.appendChild(wrap);
    }
  }

  function render() {
    renderInput();
    renderBoards();
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
  window.addEventListener("resize", fitBoards);

  function changed() {
    writeUrl();
    render();
    refresh();
  }

  function requestBody() {
    return {
      list: RATEN.list,
      boards: N,
      rows: state.rows.map((r, i) => ({
        guess: r.guess,
        patterns: r.colours.map((c, b) => (playsOn(i, b) ? c.map((x) => SYMBOLS[x]).join("") : null)),
      })),
      top: 10,
      limit: 30,
      strategy: "finish",  // the best of raten bench --boards (README): a determined answer first
      prior: state.prior,
    };
  }

  /** After an error: no hints or counts of the state before. */
  function clearResults() {
    el("hints-section").hidden = true;
    el("count").textContent = "";
  }

  function show(data) {
    for (const b of data.board) {
      const status = el("board-status-" + b.board);
      if (!status) continue;
      if (b.solved) status.textContent = "\u2713 " + tr("board_solved_in", { n: b.solved_at });
      else if (b.count === 1) status.textContent = tr("board_one", { word: b.candidates[0].toUpperCase() });
      else status.textContent = tr("board_left", { n: b.count });
      status.closest(".mboard").dataset.count = String(b.count);
    }
    const best = data.hints.length ? data.hints[0].word.toUpperCase() : "";
    const open = data.board.filter((b) => !b.solved);
    let text;
    if (data.done) text = tr("boards_solved", { n: data.turns });
    else text = open.map((b) => b.board + ": " + b.count).join(" \u00b7 ");
    el("count").textContent = text;
    // beside the input: the best guess (each board's count is in its head)
    el("summary").textContent = best && !data.done ? tr("best_guess", { word: best }) : text;
    el("summary").classList.remove("busy");
    el("hints-section").hidden = data.done || !data.hints.length;
    el("hints-heading").textContent = tr(state.rows.length ? "hints_heading" : "openers_heading");
    fillHints(data.hints, (word) => { state.current = word; renderInput(); }, (h) => [
      [h.bits.toFixed(2), "num"],
      [h.answer_on.join(", "), "mark"],
      [h.expected_remaining.toFixed(1), "num"],
    ]);
  }

  /** A new row's colours on each board: green where that board showed the letter green before. */
  function certainColours(word) {
    const out = [];
    for (let b = 0; b < N; b++) {
      out.push(Array.from(word).map((ch, i) =>
        (state.rows.some((r, k) => playsOn(k, b) && r.guess[i] === ch && r.colours[b][i] === 2) ? 2 : 0)));
    }
    return out;
  }

  function onKey(key) {
    solverKey(state, key, MAX_ROWS, () => {
      const open = Array.from({ length: N }, (_, b) => b).filter((b) => solvedRow(b) === -1);
      if (!open.length) return;
      const colours = certainColours(state.current);
      for (let b = 0; b < N; b++) if (!open.includes(b)) colours[b] = [2, 2, 2, 2, 2];
      solverAddRow(state, colours, changed);
    }, renderInput);
  }

  makeKeyboard(el("keyboard"), onKey);
  listenKeys(onKey);
  const refresh = solverHintsCycle({ body: requestBody, show, clear: clearResults, lastRow: () => state.rows[state.rows.length - 1] });
  wireSolverTools(state, changed);
  el("prior").value = state.prior;
  el("prior").addEventListener("change", () => { state.prior = el("prior").value; changed(); });
  writeUrl();
  render();
  refresh();
})();
