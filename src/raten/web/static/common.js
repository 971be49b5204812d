/* raten: what the solver and game pages share: config, text, API calls, tiles, keyboard. */
"use strict";

const RATEN = JSON.parse(document.getElementById("raten-config").textContent);

/** A UI string in the page's language, with {name} placeholders filled in. */
function tr(key, params) {
  let text = RATEN.text[key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}

class ApiError extends Error {
  constructor(message, status, code) { super(message); this.status = status; this.code = code; }
}

/** How long a request may take before the page gives up on it and offers a retry. */
const API_TIMEOUT_MS = 15000;

/** Whether the high-contrast palette is on: <html data-contrast="high">, set from localStorage["raten.contrast"]. */
function highContrast() {
  if (document.documentElement.dataset.contrast === "high") return true;
  try { return localStorage.getItem("raten.contrast") === "high"; } catch (e) { return false; }
}

/** Call the JSON API; resolves to the answer, or rejects with an ApiError carrying the server's message.
    A request that takes longer than options.timeout (default API_TIMEOUT_MS) is given up with the code
    "timeout"; one cancelled through options.signal rejects with an AbortError. */
async function api(path, options) {
  const opts = options || {};
  // The share texts of games and statistics are built on the server: with the high-contrast
  // setting (<html data-contrast="high">) they use its orange and blue squares.
  if (highContrast() && /^\/api\/(games|stats)/.test(path)) {
    path += (path.includes("?") ? "&" : "?") + "palette=high";
  }
  const own = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; own.abort(); }, opts.timeout || API_TIMEOUT_MS);
  const onAbort = () => own.abort();
  if (opts.signal) {
    if (opts.signal.aborted) own.abort();
    else opts.signal.addEventListener("abort", onAbort);
  }
  const init = { method: opts.method || "GET", headers: { "Accept-Language": RATEN.lang }, signal: own.signal };
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  try {
    let response;
    let data = null;
    try {
      response = await fetch(path, init);
      try { data = await response.json(); } catch (e) { data = null; }
    } catch (e) {
      if (timedOut) throw new ApiError(tr("timeout"), 0, "timeout");
      if (e.name === "AbortError") throw e;
      throw new ApiError(tr("network_error"), 0, "network");
    }
    if (timedOut) throw new ApiError(tr("timeout"), 0, "timeout");
    if (!response.ok) {
      throw new ApiError((data && data.error) || tr("network_error"), response.status, data && data.code);
    }
    return data;
  } finally {
    clearTimeout(timer);
    if (opts.signal) opts.signal.removeEventListener("abort", onAbort);
  }
}

/** Whether a failed request may succeed if tried again: no answer, a rate limit, a busy or failing server. */
function retryable(e) {
  return e.status === 0 || e.status === 429 || e.status === 503 || e.status >= 500;
}

/** Show `message` in the error box `box`, with a button (id `id`, default "retry") that hides the box
    and runs `again`; no button when `again` is null. */
function showError(box, message, again, id) {
  box.replaceChildren(message);
  if (again) {
    const retry = document.createElement("button");
    retry.type = "button";
    retry.id = id || "retry";
    retry.textContent = tr("retry");
    retry.addEventListener("click", () => { box.hidden = true; again(); });
    box.append(" ", retry);
  }
  box.hidden = false;
}

/** The name of a colour 0/1/2 in the page's language ("grey", "gelb", ...). */
function colourName(c) {
  return tr(["state_absent", "state_present", "state_correct"][c]);
}

/** The accessible name of a tile: its letter and, when coloured, its colour ("C, grey"). */
function tileLabel(letter, colour) {
  if (!letter) return tr("tile_empty");
  const up = letter.toUpperCase();
  return colour === null || colour === undefined ? up : up + ", " + colourName(colour);
}

/** Say something to screen readers without showing it (the page's polite live region). */
function announce(message) {
  const el = document.getElementById("announcer");
  if (!el) return;
  el.textContent = "";
  // a new text node after a tick, so the same sentence twice is read twice
  setTimeout(() => { el.textContent = message; }, 50);
}

/** Colours 0/1/2 from a .?! pattern string. */
function coloursOf(pattern) {
  return Array.from(pattern).map((ch) => (ch === "!" ? 2 : ch === "?" ? 1 : 0));
}

/** Small coloured squares for a .?! pattern (bar charts, review). */
function squares(pattern) {
  const span = document.createElement("span");
  span.className = "squares";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", coloursOf(pattern).map(colourName).join(", "));
  for (const c of coloursOf(pattern)) {
    const sq = document.createElement("span");
    sq.className = "sq c" + c;
    span.appendChild(sq);
  }
  return span;
}

/** A horizontal bar chart: rows of [label element, value]. */
function barChart(container, rows, extraText) {
  container.replaceChildren();
  const max = Math.max(1, ...rows.map((r) => r[1]));
  for (const [label, value] of rows) {
    const row = document.createElement("div");
    row.className = "bar-row";
    const lab = document.createElement("span");
    lab.append(label);
    const track = document.createElement("span");
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.display = "block";
    bar.style.width = (100 * value / max).toFixed(1) + "%";
    track.appendChild(bar);
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = value;
    row.append(lab, track, n);
    container.appendChild(row);
  }
  if (extraText) {
    const more = document.createElement("p");
    more.className = "more";
    more.textContent = extraText;
    container.appendChild(more);
  }
}

let toastTimer = null;
/** A short message at the top of the screen. */
function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 2500);
}

/** The on-screen keyboard; onKey gets a letter, "enter" or "backspace". */
function makeKeyboard(container, onKey) {
  container.replaceChildren();
  const keys = {};
  for (const line of RATEN.keyboard) {
    const row = document.createElement("div");
    row.className = "krow";
    for (const ch of line) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "key";
      if (ch === "+") {
        b.textContent = "\u21b5";
        b.setAttribute("aria-label", tr("enter"));
        b.classList.add("wide");
        b.dataset.key = "enter";
      } else if (ch === "-") {
        b.textContent = "\u232b";
        b.setAttribute("aria-label", tr("backspace"));
        b.classList.add("wide");
        b.dataset.key = "backspace";
      } else {
        b.textContent = ch;
        b.dataset.key = ch;
        b.setAttribute("aria-label", ch.toUpperCase());
        keys[ch] = b;
      }
      // the key keeps focus (a keyboard user may press it again); Enter there types the word
      b.addEventListener("click", () => onKey(b.dataset.key));
      row.appendChild(b);
    }
    container.appendChild(row);
  }
  return {
    /** Colour the keys: {letter: "absent" | "present" | "correct"}. */
    setStates(states) {
      for (const [ch, b] of Object.entries(keys)) {
        b.classList.remove("absent", "present", "correct");
        if (states[ch]) b.classList.add(states[ch]);
        b.setAttribute("aria-label", ch.toUpperCase() + (states[ch] ? ", " + tr("state_" + states[ch]) : ""));
      }
    },
  };
}

const UMLAUTS = { "\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue", "\u00df": "ss" };

/** Where Enter types the word: the page itself, the board or the on-screen keys. Everywhere else
    (buttons, links, the candidates' summary, form fields) Enter does what it does natively. */
function entersWord(target) {
  if (!target || target === document.body || target === document.documentElement) return true;
  return Boolean(target.closest && target.closest("#board, #keyboard"));
}

/** Typing on the physical keyboard: letters (umlauts as two), Enter, Backspace. A letter typed
    while a button or link has focus moves focus to the board, so the Enter after the word types
    it instead of pressing that button again. */
function listenKeys(onKey) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (document.querySelector("dialog[open]")) return;  // a dialog (settings, help, statistics) has the keys
    const target = e.target;
    const typing = target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA"
      || (target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(target.type)));
    if (typing) return;
    const k = e.key.toLowerCase();
    const board = document.getElementById("board");
    // Typing on the physical keyboard while an on-screen key has focus (it keeps focus after a tap)
    // would draw the focus ring on that key (keyboard use makes :focus-visible match): leave it.
    const onScreenKey = target && target.closest && target.closest("#keyboard");
    if (onScreenKey && (k === "enter" || k === "backspace" || /^[a-z]$/.test(k) || UMLAUTS[k])) target.blur();
    if (k === "enter") {
      if (!entersWord(target)) return;
      e.preventDefault();
      onKey("enter");
    } else if (k === "backspace") {
      e.preventDefault();
      onKey("backspace");
    } else if (/^[a-z]$/.test(k) || UMLAUTS[k]) {
      if (!entersWord(target) && board) board.focus({ preventScroll: true });
      if (UMLAUTS[k]) { for (const ch of UMLAUTS[k]) onKey(ch); } else onKey(k);
    }
  });
  // A button clicked with the mouse or a finger gives focus back to the page, so that Enter
  // afterwards types the word; one pressed from the keyboard keeps focus (detail 0).
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("button");
    if (button && e.detail > 0 && !button.closest("#keyboard, dialog, [data-dialog]")) button.blur();
  });
}

/** A row of five tiles; letters and colours (or null for uncoloured). */
function tileRow(word, colours, clickable) {
  const row = document.createElement("div");
  row.className = "row";
  for (let i = 0; i < 5; i++) {
    const tile = document.createElement(clickable ? "button" : "div");
    if (clickable) tile.type = "button";
    tile.className = "tile";
    const ch = word[i] || "";
    tile.textContent = ch;
    if (ch) tile.classList.add("filled");
    if (colours) tile.classList.add("c" + colours[i]);
    if (clickable) tile.setAttribute("aria-label", tileLabel(ch, colours ? colours[i] : null));
    else {
      tile.setAttribute("role", "img");
      tile.setAttribute("aria-label", tileLabel(ch, colours ? colours[i] : null));
    }
    tile.dataset.col = i;
    row.appendChild(tile);
  }
  return row;
}

/** Size the tiles so that the board's rows and the whole keyboard fit the window's height
    (phones: nothing of the keyboard below the fold). Sets --fit, which caps --tile in the CSS. */
function fitBoard() {
  const board = document.getElementById("board");
  const keyboard = document.getElementById("keyboard");
  if (!board || !keyboard) return;
  const rows = Math.max(6, board.children.length);
  const top = board.getBoundingClientRect().top + window.scrollY;
  const kbBottom = keyboard.getBoundingClientRect().bottom + window.scrollY;
  const boardHeight = board.getBoundingClientRect().height;
  const below = kbBottom - (top + boardHeight);  // summary, messages, keyboard and their margins
  const gap = parseFloat(getComputedStyle(board).rowGap) || 4;
  const room = window.innerHeight - top - below - 6;
  const tile = Math.floor((room - gap * (rows - 1)) / rows);
  document.documentElement.style.setProperty("--fit", Math.max(30, tile) + "px");
}
window.addEventListener("resize", fitBoard);

/** Keep the list switch in the header: changing the list reloads the page for that list. */
(function wireListSelect() {
  const select = document.getElementById("list-select");
  if (select) select.addEventListener("change", () => select.form.submit());
})();

/** Many boards (issue 14): size the tiles of the boards in `box` (a grid of boards) so that they
    and the whole keyboard fit the window's height and width. `rows(cols)` says how many tile rows
    are stacked when the grid shows `cols` boards a line. Sets --mtile on `box`. */
function fitManyBoards(box, rows) {
  const keyboard = document.getElementById("keyboard");
  if (!box || !keyboard) return;
  const gap = 2;
  const cols = Math.max(1, getComputedStyle(box).gridTemplateColumns.split(" ").filter(Boolean).length);
  const stacked = rows(cols);
  if (!stacked) return;
  const tile = box.querySelector(".tile");
  const tileNow = tile ? tile.getBoundingClientRect().height : 0;
  const rect = box.getBoundingClientRect();
  const other = rect.height - stacked * (tileNow + gap);  // heads and gaps: what the tiles do not take
  const top = rect.top + window.scrollY;
  const below = keyboard.getBoundingClientRect().bottom - rect.bottom;
  const room = window.innerHeight - top - below - other - 6;
  const byHeight = Math.floor(room / stacked - gap);
  const colGap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const byWidth = Math.floor((box.clientWidth - colGap * (cols - 1)) / (5 * cols) - gap);
  box.style.setProperty("--mtile", Math.max(14, Math.min(44, byHeight, byWidth)) + "px");
}
