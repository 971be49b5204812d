/* The page scripts are ES modules that share nothing through the page's globals: read from their
   text (no browser), every import names a file and a name it exports, nothing is put on window,
   no module is left out of the pages' graphs, the graphs have no circle (raten.web.assets could
   not version one), and the two variants of each page answer the same calls. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const STATIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "src", "raten", "web", "static");
/** Scripts that are not page modules: theme.js runs in <head> before the first paint (a classic
    script, no names of its own); the service worker and the engine's worker run apart. */
const NOT_MODULES = new Set(["theme.js", "device/sw.js", "device/worker.js"]);
/** The pages' modules (common.js alone on a page without its own; the offline page's) and the
    engine, which the device's worker imports by its versioned URL. */
const ENTRIES = ["solver.js", "play.js", "openers.js", "common.js", "device/engine.js", "device/offline.js"];

const files = new Map();
(function read(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) read(full);
    else if (entry.name.endsWith(".js")) files.set(path.relative(STATIC, full).split(path.sep).join("/"), fs.readFileSync(full, "utf8"));
  }
})(STATIC);

function exportsOf(text) {
  const names = new Set(Array.from(text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)/gm), (m) => m[1]));
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1].split(",")) if (part.trim()) names.add(part.trim().split(/\s+as\s+/).pop());
  }
  return names;
}

/** [module name, [imported names] or null for a namespace or bare import] of each static import. */
function importsOf(name) {
  return Array.from(files.get(name).matchAll(/^import\s*(?:\{([^}]*)\}\s*from\s*|\*\s*as\s+\w+\s+from\s*|)"(\.\.?\/[^"]+)"/gm), (m) => [
    path.posix.normalize(path.posix.join(path.posix.dirname(name), m[2])),
    m[1] ? m[1].split(",").map((s) => s.trim().split(/\s+as\s+/)[0]).filter(Boolean) : null,
  ]);
}

const modules = Array.from(files.keys()).filter((n) => !NOT_MODULES.has(n));

test("every import names a file and what that file exports", () => {
  for (const name of modules) {
    for (const [dep, names] of importsOf(name)) {
      assert.ok(files.has(dep), `${name} imports ${dep}, which is not there`);
      const exported = exportsOf(files.get(dep));
      for (const n of names || []) assert.ok(exported.has(n), `${name} imports ${n} from ${dep}, which does not export it`);
    }
  }
});

test("no page-global names: nothing put on window, no top-level var", () => {
  for (const name of [...modules, "theme.js"]) {
    const text = files.get(name);
    assert.doesNotMatch(text, /\bwindow\.\w+\s*=[^=]/, `${name} puts a name on window`);
    assert.doesNotMatch(text, /^var\s/m, `${name} has a top-level var`);
    if (name !== "theme.js") assert.doesNotMatch(text, /^"use strict"/m, `${name}: a module is strict anyway`);
  }
});

test("every page module is in a page's graph, and no graph has a circle", () => {
  const reached = new Set();
  function walk(name, path_) {
    assert.ok(!path_.includes(name), "an import circle: " + [...path_, name].join(" -> "));
    reached.add(name);
    for (const [dep] of importsOf(name)) walk(dep, [...path_, name]);
  }
  for (const entry of ENTRIES) walk(entry, []);
  assert.deepEqual(modules.filter((n) => !reached.has(n)), []);
});

test("the one-board and the many-board parts of a page answer the same calls", () => {
  for (const [one, many] of [["solver-one.js", "solver-boards.js"], ["play-one.js", "play-boards.js"]]) {
    assert.deepEqual([...exportsOf(files.get(one))].sort(), [...exportsOf(files.get(many))].sort(), `${one} and ${many}`);
  }
});
