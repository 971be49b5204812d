/* raten: the small parts of every page: the toast, the screen readers' announcer, an error box
   with its retry, a bar chart, and the language links that keep the page's state. */
import { tr } from "./config.js";

let toastTimer = null;
/** A short message at the top of the screen. */
export function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 2500);
}

/** Say something to screen readers without showing it (the page's polite live region). */
export function announce(message) {
  const el = document.getElementById("announcer");
  if (!el) return;
  el.textContent = "";
  // a new text node after a tick, so the same sentence twice is read twice
  setTimeout(() => { el.textContent = message; }, 50);
}

/** Show `message` in the error box `box`, with a button (id `id`, default "retry") that hides the box
    and runs `again`; no button when `again` is null. */
export function showError(box, message, again, id) {
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

/** A horizontal bar chart: rows of [label element, value]. */
export function barChart(container, rows, extraText) {
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

/** Point the header's language switch at this state: `q` is the page's query, its lang set per link. */
export function langLinks(q) {
  for (const code of ["en", "de"]) {
    const link = document.getElementById("lang-" + code);
    if (!link) continue;
    q.set("lang", code);
    link.href = location.pathname + "?" + q.toString();
  }
}
