/* raten: the solver's hints for the state as it is now (asked for anew on each change, debounced,
   stale answers dropped, an error said with a retry) and the hints table. */
import { retryable } from "./api.js";
import { tr } from "./config.js";
import { solverHints } from "./device/client.js";
import { announce, showError } from "./ui.js";

const el = (id) => document.getElementById(id);

/** The hints of the state as it is now. `opts.body()` is the request, `opts.show(data)` draws the
    answer, `opts.clear()` empties every result after an error, `opts.lastRow()` is the newest row
    (a fresh row refused with 400 asks for its colours). Returns `refresh()`: ask again. */
export function hintsCycle(opts) {
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
      const data = await solverHints(opts.body(), { signal: mine.signal });  // the server, or the device
      if (mine !== controller) return;
      el("error").hidden = true;
      opts.show(data);
      el("summary").classList.remove("busy");
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

/** The hints table (#hints-section): hidden when `hidden`, headed as openers before the first row
    (`opening`); a row a hint, its rank, its word as a button that makes it the next guess
    (`use(word)`), then `cells(h)`: [content, class, title?] each. */
export function showHints(hints, { hidden, opening, use, cells }) {
  el("hints-section").hidden = hidden;
  el("hints-heading").textContent = tr(opening ? "openers_heading" : "hints_heading");
  const tbody = el("hints").querySelector("tbody");
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
