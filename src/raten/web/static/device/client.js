/* raten on the device, the page's side: the solver asks for hints here (solverHints). They come
   from the server, or from the engine in a Web Worker (worker.js, engine.js) when the player
   chose "on this device" or the server cannot be reached; the badge says which. Registers the
   service worker (/sw.js) that keeps the solver page, its scripts and the word list for offline
   use, and the offline page shown for the pages that need the server. One board only: a
   request with several boards (or any field it does not know) goes to the server, and so does a
   prior the device has no list file for (config.priors: each other prior whose table the device
   can build).
   The browser tests call solverHints through import() of this module's URL, which the page
   lists in its <link rel="modulepreload"> tags (so they share the page's own module). */
import { ApiError, api } from "../api.js";
import { RATEN, tr } from "../config.js";

const DEVICE_KEY = "raten.onDevice";
const config = RATEN.device || null;
let worker = null;
let nextId = 1;
const waiting = new Map();

function always() {
  try { return localStorage.getItem(DEVICE_KEY) === "1"; } catch (e) { return false; }
}

function setAlways(on) {
  try { if (on) localStorage.setItem(DEVICE_KEY, "1"); else localStorage.removeItem(DEVICE_KEY); } catch (e) { /* private mode */ }
}

function start() {
  if (worker) return worker;
  worker = new Worker(config.worker, { type: "module" });
  worker.addEventListener("message", (event) => {
    const msg = event.data;
    const job = waiting.get(msg.id);
    if (!job) return;
    if (msg.type === "progress") return;
    waiting.delete(msg.id);
    if (msg.ok) job.resolve(msg.data);
    else job.reject(msg.error);
  });
  worker.addEventListener("error", (event) => {
    for (const job of waiting.values()) job.reject({ message: event.message || "worker failed", key: "invalid", params: {} });
    waiting.clear();
    worker = null;
  });
  return worker;
}

/** The list file for a body's prior: the list's own, or another prior's (config.priors). */
function wordsFor(body) {
  if (body.prior === undefined || body.prior === config.prior) return config.words;
  return (config.priors || {})[body.prior] || null;
}

/** The answer of the engine in the worker for an /api/hints body. */
function compute(body) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    start().postMessage({ id, words: wordsFor(body), query: body });
  }).catch((error) => {
    // in the page's language when the text table has the key, as the server words it
    if (error.key === "network") throw new ApiError(tr("network_error"), 0, "device");
    // a contradiction with its facts (kind, letter, position) has a text of its own in every language
    const key = error.params && RATEN.text["err_" + error.key + "_" + error.params.kind]
      ? error.key + "_" + error.params.kind : error.key;
    const text = key && RATEN.text["err_" + key] ? tr("err_" + key, error.params) : error.message;
    throw new ApiError(text, 400, "bad_request");
  });
}

function badge(on) {
  const el = document.getElementById("device-badge");
  if (el) el.hidden = !on;
}

/** What the engine here reads of a body; a body with anything else (several boards, a prior,
    options added to the API later) goes to the server, which knows them. */
const KNOWN = new Set(["list", "rows", "hard", "top", "limit", "strategy", "boards", "prior"]);

/** Whether the engine here can answer this body: one board, entropy, a prior it has a list
    file for, nothing it does not know. */
function fits(body) {
  return Boolean(config) && typeof Worker !== "undefined" && Object.keys(body).every((k) => KNOWN.has(k))
    && Boolean(wordsFor(body))
    && (body.boards === undefined || body.boards === 1)
    && (body.strategy === undefined || body.strategy === "entropy");
}

/** The server is out of reach (no connection) or says it cannot answer now (a gateway or a
    full queue). A request that timed out is not: the server is there but slow, and the page
    offers to try again. */
function offline(e) {
  return e instanceof ApiError && ((e.status === 0 && e.code === "network") || e.status === 502 || e.status === 503 || e.status === 504);
}

/** The solver's one way to its hints: for an /api/hints body, from the server, or on the device
    if chosen or if the server is out of reach. */
export async function solverHints(body, options) {
  if (fits(body) && (always() || navigator.onLine === false)) {
    const data = await compute(body);
    badge(true);
    return data;
  }
  try {
    const path = body.boards > 1 ? "/api/hints/boards" : "/api/hints";  // several boards: their own endpoint
    const data = await api(path, { method: "POST", body, signal: options && options.signal });
    badge(false);
    return data;
  } catch (e) {
    if (!fits(body) || !offline(e)) throw e;
    const data = await compute(body);
    badge(true);
    return data;
  }
}

export function wireDeviceToggle(onChange) {
  const box = document.getElementById("on-device");
  if (!box) return;
  if (!config) { box.closest("label").hidden = true; return; }
  box.checked = always();
  box.addEventListener("change", () => { setAlways(box.checked); onChange(); });
}

/** Register the service worker and have it keep what this page needs offline: the page (in
    its list's language and in each of the language switch's, so that the switch works offline),
    its scripts and the modules they import (the modulepreload links), its style, the engine and
    lists, and the offline page it shows for a page it cannot serve (sw.js). */
export function keepForOffline() {
  if (!config || !("serviceWorker" in navigator)) return;
  const langs = [null, ...Array.from(document.querySelectorAll(".lang-switch a[hreflang]"), (a) => a.hreflang)];
  const pages = langs.map((lang) => {
    const page = new URL("/solver", location.origin);
    page.searchParams.set("list", RATEN.list);
    if (lang) page.searchParams.set("lang", lang);
    return page.href;
  });
  const assets = Array.from(document.querySelectorAll("script[src], link[rel=modulepreload], link[rel=stylesheet], link[rel=icon]"),
    (n) => n.src || n.href);
  const lists = [config.words, ...Object.values(config.priors || {})];
  const urls = [...pages, ...assets, config.worker, config.engine, ...lists, "/offline"].map((u) => new URL(u, location.href).href);
  const keep = (sw) => { if (sw) sw.postMessage({ type: "keep", urls }); };
  // a new release's worker takes over with an empty cache: ask it again
  navigator.serviceWorker.addEventListener("controllerchange", () => keep(navigator.serviceWorker.controller));
  navigator.serviceWorker.register(config.sw, { scope: "/" }).then(() => navigator.serviceWorker.ready)
    .then((reg) => keep(reg.active))
    .catch(() => { /* no service worker (private mode, http on a LAN address): online only */ });
}
