/* raten offline: the page the service worker (sw.js) shows in place of a page it cannot serve
   without the server (the game, the openers, the solver for a list or a board count not kept
   on this device), at the URL asked for, which stays as it was (its list, its rows). It says
   why in that page's language (its ?lang=, else its list's) and links the solver for each list
   kept here, which works offline. Its texts, in every language, are in #raten-offline. */

const CONFIG = JSON.parse(document.getElementById("raten-offline").textContent);
const asked = new URLSearchParams(location.search);
const listName = asked.get("list") || CONFIG.default;
const listLang = (CONFIG.lists.find((l) => l.name === listName) || {}).language;
const lang = [asked.get("lang"), listLang].find((code) => code in CONFIG.texts) || "en";
const el = (id) => document.getElementById(id);

function tr(key, params) {
  let text = CONFIG.texts[lang][key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}

/** Why this page needs the server. */
function why() {
  if (location.pathname === "/play") return tr("offline_play");
  if (location.pathname === "/" || location.pathname === "/solver") {
    return Number(asked.get("boards")) > 1 ? tr("offline_boards") : tr("offline_list", { list: listName });
  }
  return tr("offline_page");
}

/** The lists whose solver page the service worker keeps (sw.js's page keys: one board only). */
async function keptLists() {
  const lists = new Set();
  if (!("caches" in window)) return lists;
  for (const name of await caches.keys()) {
    if (!name.startsWith("raten-")) continue;
    for (const request of await (await caches.open(name)).keys()) {
      const url = new URL(request.url);
      if (url.pathname === "/solver" && url.searchParams.get("list")) lists.add(url.searchParams.get("list"));
    }
  }
  return lists;
}

/** The solver of `list` in the language asked for. */
function solverLink(list) {
  const q = new URLSearchParams({ list });
  if (asked.get("lang")) q.set("lang", asked.get("lang"));
  return "/solver?" + q.toString();
}

async function show() {
  document.documentElement.lang = lang;
  document.title = tr("offline_title") + " \u00b7 raten";
  el("offline-title").textContent = tr("offline_title");
  el("offline-why").textContent = why();
  el("offline-retry").textContent = tr("retry");
  el("offline-retry").addEventListener("click", () => location.reload());
  el("offline-langs").setAttribute("aria-label", tr("lang_label"));
  for (const link of el("offline-langs").querySelectorAll("a")) {
    const q = new URLSearchParams(asked);
    q.set("lang", link.hreflang);
    link.href = location.pathname + "?" + q.toString();  // this page again, offline too
    if (link.hreflang === lang) link.setAttribute("aria-current", "true"); else link.removeAttribute("aria-current");
  }
  // the list asked for first (a game's list), then the others kept here
  const kept = Array.from(await keptLists()).sort((a, b) => (b === listName) - (a === listName) || a.localeCompare(b));
  el("offline-solver").textContent = tr(kept.length ? "offline_solver" : "offline_none");
  el("offline-links").replaceChildren(...kept.map((list) => {
    const a = document.createElement("a");
    a.href = solverLink(list);
    a.textContent = tr("offline_solver_list", { list });
    const li = document.createElement("li");
    li.appendChild(a);
    return li;
  }));
  el("offline-brand").href = solverLink(kept[0] || listName);
  document.body.dataset.state = "ready";
}

show();
