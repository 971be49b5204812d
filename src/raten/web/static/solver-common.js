/* raten: what the solver on one board (solver.js) and on several (solver-boards.js) share, so each
   exists once: the language links, the hints request (debounced, stale answers dropped, busy, an
   error with a retry), the hints table, typing a word, and the toolbar. */
"use strict";

/** Point the language switch at this state: `q` is the page's query, its lang set per link. */
function solverLangLinks(q) {
  for (const code of ["en", "de"]) {
    const link = document.getElementById("lang-" + code);
    if (!link) continue;
    q.set("lang", code);
    link.href = location.pathname + "?" + q.toString();
  }
}

/** The hints of the state as it is now. `opts.body()` is the request, `opts.show(data)` draws the
    answer, `opts.clear()` empties every result after an error, `opts.lastRow()` is the newest row
    (a fresh row refused with 400 asks for its colours). Returns `refresh()`: ask again. */
function solverHintsCycle(opts) {
  const el = (id) => document.getElementById(id);
  const results = el("results");
  let controller = null;
  let debounce = null;
  let loadingTimer = null;

  function refresh() {
    results.dataset.state = "pending";
    el("summary").classList.add("busy");
    // A change makes any answer in flight stale at once, not only when the debounced load
    // starts: an answer arriving within the debounce would otherwise be shown as ready.
    if (controller) controller.abort();
    controller = null;
    clearTimeout(debounce);
    debounce = setTimeout(load, 60);
  }

  function fail(e) {
    opts.clear();  // nothing of the state before stays on show: no old hints, candidates or constraints
    const last = opts.lastRow();
    const error = el("error");
    const info = Boolean(last && last.fresh && e.status === 400);
    showError(error, info ? tr("set_colours", { word: last.guess.toUpperCase() }) : e.message,
      retryable(e) ? refresh : null);
    error.classList.toggle("info", info);
    el("summary").textContent = error.firstChild.textContent;
    el("summary").classList.remove("busy");
    results.dataset.state = "error";
  }

  async function load() {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = controller;
    clearTimeout(loadingTimer);
    loadingTimer = setTimeout(() => { el("loading").hidden = false; results.classList.add("busy"); }, 120);
    results.setAttribute("aria-busy", "true");
    try {
      const data = await solverHints(opts.body(), { signal: mine.signal });  // the server, or device/client.js
      if (mine !== controller) return;
      el("error").hidden = true;
      opts.show(data);
      results.dataset.state = "ready";
      announce(el("summary").textContent);
    } catch (e) {
      if (e.name === "AbortError" || mine !== controller) return;
      fail(e);
    } finally {
      if (mine === controller) {
        clearTimeout(loadingTimer);
        el("loading").hidden = true;
        results.classList.remove("busy");
        results.removeAttribute("aria-busy");
      }
    }
  }

  return refresh;
}

/** The hints table: a row a hint, its rank, its word as a button that makes it the next guess
    (`use(word)`), then `cells(h)`: [content, class, title?] each. */
function fillHints(hints, use, cells) {
  const tbody = document.getElementById("hints").querySelector("tbody");
  tbody.replaceChildren();
  hints.forEach((h, i) => {
    const row = document.createElement("tr");
    const word = document.createElement("button");
    word.type = "button";
    word.textContent = h.word.toUpperCase();
    word.title = tr("use_hint", { word: h.word.toUpperCase() });
    word.addEventListener("click", () => use(h.word));
    for (const [content, cls, title] of [[String(i + 1), ""], [word, "word"], ...cells(h)]) {
      const td = document.createElement("td");
      if (cls) td.className = cls;
      if (title) td.title = title;
      td.append(content);
      row.appendChild(td);
    }
    tbody.appendChild(row);
  });
}

/** A key typed on the solver: letters and Backspace edit `state.current` (then `redraw()`); Enter
    with five letters calls `enter()` while fewer than `maxRows` rows are there. */
function solverKey(state, key, maxRows, enter, redraw) {
  if (key === "enter") {
    if (state.current.length < 5) { toast(tr("too_short")); return; }
    if (state.rows.length >= maxRows) return;
    enter();
  } else if (key === "backspace") {
    state.current = state.current.slice(0, -1);
    redraw();
  } else if (state.current.length < 5) {
    state.current += key;
    redraw();
  }
}

/** Add the typed word as a new row with `colours`, and say so. */
function solverAddRow(state, colours, changed) {
  state.rows.push({ guess: state.current, colours, fresh: true });
  state.current = "";
  changed();
  announce(tr("row_added", { word: state.rows[state.rows.length - 1].guess.toUpperCase() }));
}

/** The toolbar's Undo, Start over and Copy link. */
function wireSolverTools(state, changed) {
  const el = (id) => document.getElementById(id);
  el("undo").addEventListener("click", () => { state.rows.pop(); changed(); });
  el("clear").addEventListener("click", () => { state.rows = []; state.current = ""; changed(); });
  el("copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); toast(tr("link_copied")); } catch (e) { toast(location.href); }
  });
}
