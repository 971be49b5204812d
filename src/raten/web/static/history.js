/* raten: your games (issue 24 item 6), in the dialog of templates/history_dialog.html on the game
   page. Every game stored for this browser, newest first (GET /api/history); one opened shows its
   rows and its exact review, made in the background on the server and shown when it is ready
   (GET /api/games/{id}/review?wait=false answers 202 until then). Below, the finished games go to
   another browser as a file (GET /api/export) or a code (POST /api/export/code), and come in
   from one (POST /api/import), merged by game id on the server. */
import { api, retryable } from "./api.js";
import { RATEN, tr } from "./config.js";
import { reviewPanel } from "./review.js";
import { coloursOf, tileRow } from "./tiles.js";
import { showError } from "./ui.js";

const el = (id) => document.getElementById(id);
/** How long to wait before asking again for a review still being made (the server's Retry-After). */
const REVIEW_POLL_MS = 1000;
let games = [];
let review = null;
let loading = null;

function variantName(boards) {
  return RATEN.variants[String(boards)] || String(boards);
}

function dateOf(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleDateString(RATEN.lang, { year: "numeric", month: "short", day: "numeric" });
}

function resultOf(game) {
  if (game.status === "playing") return tr("history_playing");
  if (game.status === "abandoned") return tr("history_given_up");
  return (game.status === "won" ? String(game.rows.length) : "X") + "/" + game.max_tries;
}

function modeOf(game) {
  return game.mode === "daily" ? tr("history_daily", { n: game.number }) : tr("history_practice");
}

/** One game of the list: a button that opens it, saying date, list, variant, mode and result. */
function item(game) {
  const li = document.createElement("li");
  li.className = "history-item";
  li.dataset.status = game.status;
  const open = document.createElement("button");
  open.type = "button";
  open.className = "history-game";
  open.dataset.id = game.id;
  const parts = [
    ["history-date", dateOf(game.created)],
    ["history-what", game.list + " · " + (game.boards > 1 ? variantName(game.boards) + " · " : "") + modeOf(game)],
    ["history-result", resultOf(game)],
  ];
  parts.forEach(([cls, text], i) => {
    if (i) open.appendChild(Object.assign(document.createElement("span"), { className: "sr-only", textContent: ", " }));
    open.appendChild(Object.assign(document.createElement("span"), { className: cls, textContent: text }));
  });
  open.addEventListener("click", () => show(game));
  li.appendChild(open);
  return li;
}

async function load() {
  const list = el("history-list");
  el("history-error").hidden = true;
  el("history-busy").hidden = false;
  el("history").dataset.state = "loading";
  try {
    const answer = await api("/api/history");
    games = answer.games;
    list.replaceChildren(...games.map(item));
    el("history-empty").hidden = games.length > 0;
    el("history-more").hidden = !answer.more;
    el("history-more").textContent = tr("history_more", { n: games.length });
    el("history").dataset.state = "ready";
  } catch (e) {
    showError(el("history-error"), e.message, retryable(e) ? load : null, "history-retry");
    el("history").dataset.state = "error";
  } finally {
    el("history-busy").hidden = true;
  }
}

/** The review of a stored game: asked with wait=false, and again while the server is making it. */
async function reviewOf(id, signal) {
  for (;;) {
    const answer = await api("/api/games/" + encodeURIComponent(id) + "/review?wait=false", { signal });
    if (answer.status !== "pending") return answer;
    el("history-note").textContent = tr("history_pending");
    el("history-note").hidden = false;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, REVIEW_POLL_MS);
      signal.addEventListener("abort", () => { clearTimeout(timer); reject(new DOMException("aborted", "AbortError")); }, { once: true });
    });
  }
}

/** One game: its rows (each board's on many), its answers, and its review when it has one. */
function show(game) {
  el("history-games").hidden = true;
  el("history-detail").hidden = false;
  el("history").dataset.view = "game";
  el("history-game-title").textContent = game.list + " · " + variantName(game.boards) + " · " + modeOf(game) + " · " + resultOf(game);
  const board = el("history-board");
  board.replaceChildren();
  for (const row of game.rows) {
    const patterns = row.patterns || [row.pattern];
    const line = document.createElement("div");
    line.className = "history-row";
    for (const p of patterns) line.appendChild(tileRow(p ? row.guess : "", p ? coloursOf(p) : null));
    board.appendChild(line);
  }
  el("history-answer").textContent = game.answers_written ? tr("history_answer", { words: game.answers_written.map((w) => w.toUpperCase()).join(", ") }) : "";
  const note = el("history-note");
  note.hidden = game.review !== "unavailable";
  note.textContent = game.review === "unavailable" ? tr("history_no_review") : "";
  if (game.review === "unavailable") review.hide();
  else {
    review.show(game.rows, (signal) => reviewOf(game.id, signal)).then(() => {
      if (el("history-review-panel").dataset.review === "ready") note.hidden = true;
    });
  }
  el("history-game-title").focus();
}

function back() {
  review.hide();
  el("history-detail").hidden = true;
  el("history-games").hidden = false;
  delete el("history").dataset.view;
  const opened = document.querySelector(".history-game:focus, .history-game");
  if (opened) opened.focus();
}

async function makeCode() {
  const out = el("export-code-out");
  out.textContent = "";
  try {
    const answer = await api("/api/export/code", { method: "POST" });
    const [before, after] = tr("transfer_code_shown", { code: "\u0000", hours: Math.round(answer.expires_in / 3600) }).split("\u0000");
    const code = document.createElement("strong");
    code.id = "export-code-value";
    code.textContent = answer.code;
    out.replaceChildren(before, code, after);
  } catch (e) {
    out.textContent = e.message;
  }
}

async function bring(body) {
  const status = el("import-status");
  status.textContent = tr("import_busy");
  status.dataset.state = "busy";
  try {
    const answer = await api("/api/import", { method: "POST", body, timeout: 60000 });
    status.textContent = tr("import_done", answer);
    status.dataset.state = "done";
    load();
  } catch (e) {
    status.textContent = e.message;
    status.dataset.state = "error";
  }
}

function wire() {
  const dialog = el("history");
  if (!dialog) return;
  review = reviewPanel(el("history-review-panel"), el("history-detail"));
  el("open-history").addEventListener("click", () => {
    back();
    if (!loading) loading = load().finally(() => { loading = null; });
  });
  el("history-back").addEventListener("click", back);
  dialog.addEventListener("close", () => review.hide());
  el("export-code").addEventListener("click", makeCode);
  el("import-code-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = el("import-code").value.trim();
    if (code) bring({ code });
  });
  el("import-file").addEventListener("change", async () => {
    const file = el("import-file").files[0];
    if (!file) return;
    let data;
    try { data = JSON.parse(await file.text()); } catch (e) { data = { format: null }; }
    el("import-file").value = "";
    bring({ file: data });
  });
}

wire();
