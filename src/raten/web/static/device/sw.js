/* raten's service worker (served as /sw.js, scope /): keeps the solver page, its scripts and the
   word list for offline use, so that the page loads without the server and computes on the
   device. Pages: network first, the kept copy when the server is out of reach. Scripts, styles
   and word lists (their URLs carry a version): the kept copy first. The API and the game are
   never kept: the game stays on the server, and hints are either fresh or computed here.
   Offline, a page not kept (the game, the openers, the solver of several boards or of a list
   not kept here) is answered with the offline page (/offline, static/device/offline.js): the
   URL stays as asked, and that page says why in its language and links the lists kept. */

const VERSION = new URL(self.location.href).searchParams.get("v") || "0";  // the hash of this file
const CACHE = "raten-" + VERSION;
/** The solver's paths ("/" is the solver too); /play is not kept (its answer stays on the server). */
const PAGES = new Set(["/", "/solver"]);
const OFFLINE = "/offline";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("raten-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** A solver page the device can answer: one board (several boards need the server). */
function solverPage(url) {
  return PAGES.has(url.pathname) && !(Number(url.searchParams.get("boards")) > 1);
}

/** The key a solver page is kept under: /solver with the list and language, not the rows. */
function pageKey(url) {
  const key = new URL("/solver", url.origin);
  for (const name of ["list", "lang"]) if (url.searchParams.get(name)) key.searchParams.set(name, url.searchParams.get(name));
  return key.href;
}

/** The kept solver page for `url`: of its list (in its language if kept, else in another);
    for a link that names no list, of any list. Never another list's: its rows would be ranked
    against the wrong words. */
async function keptPage(cache, url) {
  const exact = await cache.match(pageKey(url));
  if (exact) return exact;
  const list = url.searchParams.get("list");
  const lang = url.searchParams.get("lang") || "";
  let best = null;
  for (const request of await cache.keys()) {
    const key = new URL(request.url);
    if (key.pathname !== "/solver" || (list && key.searchParams.get("list") !== list)) continue;
    if (!best || (key.searchParams.get("lang") || "") === lang) best = request;
  }
  return best ? cache.match(best) : null;
}

function kept(url) {
  return url.pathname.startsWith("/static/") || url.pathname.startsWith("/device/");
}

/** The page asks to keep what it needs: itself, its scripts and its word list; other versions
    of the same files (an earlier release's hashes) are dropped. */
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "keep") return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const wanted = new Set(event.data.urls);
    const paths = new Set(event.data.urls.map((u) => new URL(u, self.location.origin).pathname));
    for (const old of await cache.keys()) {
      const url = new URL(old.url);
      if (kept(url) && paths.has(url.pathname) && !wanted.has(url.href)) await cache.delete(old);
    }
    const queue = [...event.data.urls];
    for (const href of queue) {
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) continue;
      const key = PAGES.has(url.pathname) ? pageKey(url) : url.href;
      // the offline page is never visited online, where it would be kept anew: fetched each time
      if (url.pathname !== OFFLINE && await cache.match(key)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (!response.ok) continue;
        if (url.pathname === OFFLINE) {  // with its own script, style and icon
          for (const m of (await response.clone().text()).matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)) queue.push(m[1]);
        }
        await cache.put(key, response);
      } catch (e) { /* offline already: kept next time */ }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok && solverPage(url)) await cache.put(pageKey(url), response.clone());
        return response;
      } catch (e) {
        return (solverPage(url) && (await keptPage(cache, url))) || (await cache.match(new URL(OFFLINE, url.origin).href))
          || Response.error();
      }
    })());
  } else if (kept(url)) {
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(request);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok && url.search) await cache.put(request, response.clone());
      return response;
    })());
  }
});
