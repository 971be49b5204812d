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

/** Call the JSON API; resolves to the answer, or rejects with an ApiError carrying the server's message. */
async function api(path, options) {
  const opts = options || {};
  const init = { method: opts.method || "GET", headers: { "Accept-Language": RATEN.lang }, signal: opts.signal };
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(tr("network_error"), 0, "network");
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new ApiError((data && data.error) || tr("network_error"), response.status, data && data.code);
  }
  return data;
}

/** Colours 0/1/2 from a .?! pattern string. */
function coloursOf(pattern) {
  return Array.from(pattern).map((ch) => (ch === "!" ? 2 : ch === "?" ? 1 : 0));
}

/** Small coloured squares for a .?! pattern (bar charts, review). */
function squares(pattern) {
  const span = document.createElement("span");
  span.className = "squares";
  span.setAttribute("aria-label", pattern);
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
        keys[ch] = b;
      }
      b.addEventListener("click", () => { onKey(b.dataset.key); b.blur(); });
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
      }
    },
  };
}

const UMLAUTS = { "\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue", "\u00df": "ss" };

/** Typing on the physical keyboard: letters (umlauts as two), Enter, Backspace. */
function listenKeys(onKey) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    const typing = target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA"
      || (target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(target.type)));
    if (typing) return;
    const k = e.key.toLowerCase();
    if (k === "enter") {
      if (target && target.tagName === "BUTTON" && !target.classList.contains("key")) return;
      e.preventDefault();
      onKey("enter");
    } else if (k === "backspace") {
      e.preventDefault();
      onKey("backspace");
    } else if (/^[a-z]$/.test(k)) {
      onKey(k);
    } else if (UMLAUTS[k]) {
      for (const ch of UMLAUTS[k]) onKey(ch);
    }
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
    tile.dataset.col = i;
    row.appendChild(tile);
  }
  return row;
}

/** Keep the list switch in the header: changing the list reloads the page for that list. */
(function wireListSelect() {
  const select = document.getElementById("list-select");
  if (select) select.addEventListener("change", () => select.form.submit());
})();
