/* raten statistics dialog (issue 12 item 5), opened from the header on every page: played,
   win %, streaks, the guess distribution with today's bar marked, the countdown to the next
   daily word and Share. Daily and practice apart, per variant (1, 2 or 4 boards). */
import { api } from "./api.js";
import { RATEN, tr } from "./config.js";
import { share } from "./share.js";

const VARIANTS = [1, 2, 4];
const el = (id) => document.getElementById(id);
const view = {
  boards: VARIANTS.includes(RATEN.boards) ? RATEN.boards : 1,
  mode: new URLSearchParams(location.search).get("mode") === "practice" ? "practice" : "daily",
};
let dialog = null;
let opener = null;
let byPointer = false;
let ticker = null;
let data = null;
let loaded = 0;

function make(tag, props, children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const c of children || []) node.append(c);
  return node;
}

function choice(id, label, options, current, pick) {
  const group = make("div", { id, className: "stats-choice" });
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", label);
  for (const [value, text] of options) {
    const b = make("button", { type: "button", textContent: text });
    b.dataset.value = String(value);
    b.setAttribute("aria-pressed", String(value === current));
    b.addEventListener("click", () => pick(value));
    group.appendChild(b);
  }
  return group;
}

function build() {
  dialog = make("dialog", { id: "stats-dialog", className: "dialog stats-dialog" });
  dialog.setAttribute("aria-labelledby", "stats-title");
  const close = make("button", { type: "button", id: "stats-close", className: "stats-close", textContent: "\u00d7" });
  close.setAttribute("aria-label", tr("stats_close"));
  close.addEventListener("click", () => dialog.close());
  const head = make("div", { className: "stats-head" }, [make("h2", { id: "stats-title", textContent: tr("stats_title") }), close]);
  const choices = make("div", { className: "stats-choices" }, [
    choice("stats-variant", tr("variant_label"), VARIANTS.map((n) => [n, RATEN.variants[String(n)]]), view.boards,
      (n) => { view.boards = n; load(); }),
    choice("stats-mode", tr("daily") + " / " + tr("practice"), [["daily", tr("daily")], ["practice", tr("practice")]],
      view.mode, (m) => { view.mode = m; load(); }),
  ]);
  const body = make("div", { id: "stats-body" });
  dialog.append(head, choices, body);
  dialog.addEventListener("close", () => {
    clearInterval(ticker);
    // Focus goes back to the opener; after a click it is left on the page instead, so that
    // Enter types the word rather than opening the dialog again (as settings.js does).
    if (!opener || !document.contains(opener)) return;
    if (byPointer) opener.blur(); else opener.focus({ preventScroll: true });
  });
  // a click on the backdrop (outside the dialog's box) closes it too
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  document.body.appendChild(dialog);
}

function render() {
  const body = el("stats-body");
  body.replaceChildren();
  for (const [id, value] of [["stats-variant", view.boards], ["stats-mode", view.mode]]) {
    for (const b of el(id).querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.value === String(value)));
  }
  if (!data) return;
  const numbers = make("dl", { className: "stats" });
  for (const [key, value, id] of [["stat_played", data.played, "stats-played"], ["stat_win", data.win_percent, "stats-win"],
    ["stat_streak", data.current_streak, "stats-streak"], ["stat_max", data.max_streak, "stats-max"]]) {
    numbers.appendChild(make("div", {}, [make("dt", { textContent: tr(key) }), make("dd", { id, textContent: String(value) })]));
  }
  body.appendChild(numbers);
  body.appendChild(make("h3", { textContent: tr("distribution") }));
  const dist = make("ol", { id: "stats-dist", className: "stats-dist" });
  const max = Math.max(1, ...data.distribution);
  data.distribution.forEach((count, i) => {
    const today = data.marked === i + 1;
    const bar = make("span", { className: "dist-bar", textContent: String(count) });
    bar.style.width = Math.max(8, (100 * count) / max).toFixed(1) + "%";
    const item = make("li", { className: "dist-row" + (today ? " today" : "") }, [make("span", { className: "dist-n", textContent: String(i + 1) }), bar]);
    if (today) {
      item.setAttribute("aria-current", "true");
      item.appendChild(make("span", { className: "sr-only", textContent: " (" + tr("stats_today") + ")" }));
    }
    dist.appendChild(item);
  });
  body.appendChild(dist);
  if (!data.played) body.appendChild(make("p", { className: "more", textContent: tr("stats_none") }));
  const countdown = make("time", { id: "stats-countdown" });
  body.appendChild(make("p", { className: "stats-next" }, [tr("stats_next") + " ", countdown]));
  tick();
  clearInterval(ticker);
  ticker = setInterval(tick, 1000);
  if (data.share) {
    const button = make("button", { type: "button", id: "stats-share", textContent: tr("stats_share") });
    const status = make("p", { id: "stats-status", className: "share-status" });
    status.setAttribute("role", "status");
    const fallback = make("textarea", { id: "stats-fallback", className: "share-fallback", readOnly: true, rows: 6, hidden: true });
    fallback.setAttribute("aria-label", tr("stats_fallback"));
    button.addEventListener("click", () => share(data.share, status, fallback));
    body.append(button, status, fallback);
  }
}

function tick() {
  const out = el("stats-countdown");
  if (!out || !data) return;
  const left = Math.max(0, data.next_daily_seconds - Math.floor((Date.now() - loaded) / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  out.textContent = pad(Math.floor(left / 3600)) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
  out.dateTime = "PT" + left + "S";
}

async function load() {
  const q = new URLSearchParams({ list: RATEN.list, boards: String(view.boards), mode: view.mode });
  dialog.dataset.state = "loading";
  render();
  try {
    data = await api("/api/stats?" + q.toString());
    loaded = Date.now();
    render();
    dialog.dataset.state = "ready";
  } catch (e) {
    data = null;
    render();
    el("stats-body").appendChild(make("p", { className: "error", textContent: e.message }));
    dialog.dataset.state = "error";
  }
}

/** Open the dialog (optionally on a variant and mode; `pointer`: opened by a click); focus goes
    to its close button and comes back to what had it when the dialog closes (Escape, the
    button or the backdrop). */
export function openStats(options) {
  const opts = options || {};
  byPointer = Boolean(opts.pointer);
  if (VARIANTS.includes(opts.boards)) view.boards = opts.boards;
  if (opts.mode === "daily" || opts.mode === "practice") view.mode = opts.mode;
  if (!dialog) build();
  opener = document.activeElement;
  data = null;
  if (!dialog.open) dialog.showModal();
  el("stats-close").focus();
  load();
}
