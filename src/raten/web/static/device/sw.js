/* raten's service worker (served as /sw.js, scope /): keeps the solver page, its scripts and the
   word list for offline use, so that the page loads without the server and computes on the
   device. Pages: network first, the kept copy when the server is out of reach. Scripts, styles
   and word lists (their URLs carry a version): the kept copy first. The API and the game are
   never kept: the game stays on the server, and hints are either fresh or computed here. */

const VERSION = new URL(self.location.href).searchParams.get("v") || "0";  // the hash of this file
const CACHE = "raten-" + VERSION;
/** Pages kept for offline use; /play is not among them (its answer stays on the server). */
const PAGES = new Set(["/", "/solver"]);

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("raten-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** The key a page is kept under: its path with the list and language, not the rows. */
function pageKey(url) {
  const key = new URL(url.pathname, url.origin);
  for (const name of ["list", "lang", "boards"]) if (url.searchParams.get(name)) key.searchParams.set(name, url.searchParams.get(name));
  return key.href;
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
    for (const href of event.data.urls) {
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) continue;
      const key = PAGES.has(url.pathname) ? pageKey(url) : url.href;
      if (await cache.match(key)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (response.ok) await cache.put(key, response);
      } catch (e) { /* offline already: kept next time */ }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (PAGES.has(url.pathname) && request.mode === "navigate") {
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(pageKey(url), response.clone());
        return response;
      } catch (e) {
        return (await cache.match(pageKey(url))) || (await cache.match(request, { ignoreSearch: true }))
          || (await cache.match(new URL("/solver", url.origin).href, { ignoreSearch: true }))
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
