"""The solver on the device: the browser's engine (static/device/engine.js) in headless Debian
chromium, side by side with the server's ranking of the same states, in one run.

    .venv/bin/python bench/bench_device.py              # 5 runs of each, median and min
    .venv/bin/python bench/bench_device.py --runs 9 --lists en

For each list, in the page (Playwright's page.evaluate, the engine module imported as the worker
imports it): the table (allowed × solutions, built from the list file in blocks; beside it, twice,
the same table by the plain two-pass rule cell by cell, checked equal), the opener
ranking over it, and the next hint after one guess (the state replayed from the empty one, then
ranked: what each later request costs). "opener total" is table plus ranking: what a player
waits for before the first hints of a fresh page on the device. Then the worker's own first and
later answers (postMessage to answer, the list file fetched and the table built in the first).
The server's side: ``Lists.rank`` in this process (uncached, numba warm) and ``POST /api/hints``
over loopback (its first call for a state is uncached; the openers are ranked at start-up).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
#: The guess after which the next hint is timed, per list: (row, what it showed).
AFTER = {"en": [("soare", "....."), ("crane", "..?!.")], "de": [("tarne", "....."), ("tarne", ".?..!")]}

PAGE_TIMES = """async ({engine, words, after, runs}) => {
  const { Solver, WordList, pairCode } = await import(engine);
  const data = await (await fetch(words)).json();
  const out = { table: [], openers: [], next: {}, plain: [], same: true };
  // the yardstick: the same table by the plain two-pass rule, cell by cell (and equal to it)
  for (let r = 0; r < 2; r++) {
    const list = new WordList(data);
    const S = list.solutions.length, G = list.allowed.length;
    const plain = new Uint8Array(G * S);
    const t = performance.now();
    for (let g = 0; g < G; g++) {
      for (let s = 0; s < S; s++) {
        plain[g * S + s] = pairCode(list.letters, g * 5, list.letters, list.solutionRows[s] * 5);
      }
    }
    out.plain.push(performance.now() - t);
    const fast = list.buildTable();
    out.same = out.same && fast.every((c, i) => c === plain[i]);
  }
  for (const [guess, pattern] of after) out.next[guess + "=" + pattern] = [];
  for (let r = 0; r < runs; r++) {
    const list = new WordList(data);
    let t = performance.now();
    list.buildTable();
    out.table.push(performance.now() - t);
    const solver = new Solver(list);
    t = performance.now();
    solver.hints({ rows: [], top: 10 });
    out.openers.push(performance.now() - t);
    for (const [guess, pattern] of after) {
      t = performance.now();
      solver.hints({ rows: [{ guess, pattern }], top: 10, limit: 300 });
      out.next[guess + "=" + pattern].push(performance.now() - t);
    }
  }
  return out;
}"""

WORKER_TIMES = """async ({worker, words, after, runs}) => {
  const w = new Worker(worker, { type: "module" });
  let id = 0;
  const ask = (query) => new Promise((resolve, reject) => {
    const mine = ++id;
    const t = performance.now();
    const on = (e) => {
      if (e.data.id !== mine || e.data.type === "progress") return;
      w.removeEventListener("message", on);
      if (e.data.ok) resolve(performance.now() - t); else reject(new Error(e.data.error.message));
    };
    w.addEventListener("message", on);
    w.postMessage({ id: mine, words, query });
  });
  const first = await ask({ rows: [], top: 10 });
  const later = [];
  const next = { rows: [{ guess: after[0], pattern: after[1] }], top: 10, limit: 300 };
  for (let r = 0; r < runs; r++) later.push(await ask(next));
  w.terminate();
  return { first, later };
}"""


def serve(lists):
    import uvicorn

    from raten.web import create_app

    app = create_app(lists=lists, db_path=Path(tempfile.mkdtemp()) / "bench.sqlite3", daily_secret="bench")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values):8.1f} {min(values):8.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lists", default="en,de")
    args = parser.parse_args()
    names = args.lists.split(",")

    import httpx
    from playwright.sync_api import sync_playwright

    from raten.web.service import HintQuery, Lists

    lists = Lists.load(names)
    server, url = serve(lists)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs; ms, median and min")
    print(f"{'list':5} {'what':34} {'median':>8} {'min':>8}")
    try:
        with sync_playwright() as p, httpx.Client(base_url=url, timeout=60) as client:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            for name in names:
                page.goto(f"{url}/solver?list={name}")
                page.wait_for_selector("#results[data-state=ready]")
                config = page.evaluate("JSON.parse(document.getElementById('raten-config').textContent).device")
                device = page.evaluate(
                    PAGE_TIMES,
                    {"engine": config["engine"], "words": config["words"], "after": AFTER[name], "runs": args.runs},
                )
                total = [a + b for a, b in zip(device["table"], device["openers"])]
                same = "equal" if device["same"] else "DIFFERENT"
                print(f"{name:5} {'device: table, plain rule per cell':34} {fmt(device['plain'])}  ({same})")
                print(f"{name:5} {'device: table':34} {fmt(device['table'])}")
                print(f"{name:5} {'device: opener ranking':34} {fmt(device['openers'])}")
                print(f"{name:5} {'device: opener total (table + rank)':34} {fmt(total)}")
                for row, times in device["next"].items():
                    print(f"{name:5} {'device: next hint after ' + row:34} {fmt(times)}")
                worker = page.evaluate(
                    WORKER_TIMES,
                    {"worker": config["worker"], "words": config["words"], "after": AFTER[name][0], "runs": args.runs},
                )
                print(f"{name:5} {'worker: first answer (fetch+all)':34} {worker['first']:8.1f}")
                print(f"{name:5} {'worker: next hint after ' + '='.join(AFTER[name][0]):34} {fmt(worker['later'])}")
                # the server: the same states, ranked in this process, then over HTTP
                opener = []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    lists.get(name).start.hints(top=50)  # what the server does once at start-up
                    opener.append((time.perf_counter() - t) * 1000)
                print(f"{name:5} {'server: opener ranking (matrix warm)':34} {fmt(opener)}")
                for guess, pat in AFTER[name]:
                    query = lists.resolved(HintQuery(name=name, rows=((guess, pat),), top=10, limit=300))
                    ranked = []
                    for _ in range(args.runs):
                        t = time.perf_counter()
                        lists.rank(query)
                        ranked.append((time.perf_counter() - t) * 1000)
                    print(f"{name:5} {'server: rank after ' + guess + '=' + pat:34} {fmt(ranked)}")
                body = {"list": name, "rows": [{"guess": AFTER[name][1][0], "pattern": AFTER[name][1][1]}]}
                http = []
                for i in range(args.runs):
                    body["hard"] = bool(i % 2)  # alternate, so that the first two calls are uncached
                    t = time.perf_counter()
                    client.post("/api/hints", json=body).raise_for_status()
                    http.append((time.perf_counter() - t) * 1000)
                print(f"{name:5} {'server: POST /api/hints first call':34} {http[0]:8.1f}")
                print(f"{name:5} {'server: POST /api/hints cached':34} {fmt(http[2:] or http)}")
            browser.close()
    finally:
        server.should_exit = True


if __name__ == "__main__":
    main()
