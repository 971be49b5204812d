/* raten on the device: the Web Worker that answers the solver page's hint requests with
   engine.js, off the page's thread. One message in: {id, words (the list file's URL), query}
   (the body of POST /api/hints); out: {id, type: "progress", done, total} while the table is
   built, then {id, ok: true, data, ms} or {id, ok: false, error: {message, key, params}}.
   Requests are answered in order; the page ignores answers it no longer waits for. */

// the engine's URL (with its content hash) comes in this worker's own URL, from the page's config
const engine = import(new URL(self.location.href).searchParams.get("engine") || "./engine.js");
const solvers = new Map();  // words URL -> Promise<Solver>

async function solverFor(url, id) {
  if (!solvers.has(url)) {
    const made = (async () => {
      const { Solver, WordList } = await engine;
      let response = null;
      try { response = await fetch(url); } catch (e) { /* no connection, and not kept by the service worker */ }
      if (!response || !response.ok) {
        const error = new Error(`the word list ${url} could not be loaded`);
        error.key = "network";  // the page says it in its language: the server did not answer
        throw error;
      }
      const list = new WordList(await response.json());
      list.buildTable((done, total) => self.postMessage({ id, type: "progress", done, total }));
      return new Solver(list);
    })();
    solvers.set(url, made);
    made.catch(() => solvers.delete(url));  // a failed load is tried again next time
  }
  return solvers.get(url);
}

self.addEventListener("message", async (event) => {
  const { id, words, query } = event.data;
  const start = performance.now();
  try {
    const solver = await solverFor(words, id);
    const data = solver.hints(query);
    self.postMessage({ id, ok: true, data, ms: performance.now() - start });
  } catch (e) {
    self.postMessage({ id, ok: false, error: { message: String(e.message || e), key: e.key || "invalid", params: e.params || {} } });
  }
});
