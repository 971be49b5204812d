"""The first ``GET /api/openers?prior=frequency`` of a list against the hints of others: a real
``raten serve`` on 127.0.0.1, an uncached ``POST /api/hints`` timed alone, then while the first
frequency-openers call of ``--list`` runs, then the openers call again (cached), side by side.

    python bench/bench_openers_prior.py --list de [--cold]

``--cold`` gives the server an empty matrix cache, so the first call also builds the list's
allowed x allowed table. Loopback only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROWS = [("crane", "..?!."), ("slate", ".?..."), ("pious", "....."), ("dough", "?...."), ("fjord", ".....")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url: str, body: dict | None = None, timeout: float = 300.0) -> tuple[float, int]:
    """Seconds and status of one request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    return time.perf_counter() - t, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", default="de", help="the list whose frequency openers are asked for")
    parser.add_argument("--cold", action="store_true", help="start with an empty matrix cache")
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ)
    tmp = tempfile.TemporaryDirectory()
    env["RATEN_DB"] = str(Path(tmp.name) / "bench.sqlite")
    if args.cold:
        env["RATEN_CACHE_DIR"] = str(Path(tmp.name) / "cache")
    lists = ",".join(sorted({"en", args.list}))
    raten = Path(sys.executable).with_name("raten")
    server = subprocess.Popen(
        [str(raten), "serve", "--port", str(port), "--lists", lists],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # at most a minute to start
            try:
                call(f"{base}/api/lists", timeout=1.0)
                break
            except OSError:
                time.sleep(0.1)
        else:
            print("the server did not start")
            return 1

        def hints(i: int) -> tuple[float, int]:
            guess, pat = ROWS[i]
            return call(f"{base}/api/hints", {"list": "en", "rows": [{"guess": guess, "pattern": pat}]})

        alone = hints(0)
        print(f"uncached /api/hints (en, one row) alone: {alone[0] * 1000:.0f} ms ({alone[1]})")
        openers: dict[str, tuple[float, int]] = {}
        url = f"{base}/api/openers?list={args.list}&prior=frequency&top=5"
        thread = threading.Thread(target=lambda: openers.setdefault("first", call(url)))
        thread.start()
        time.sleep(0.2)
        during = [hints(i) for i in range(1, 4)]
        thread.join()
        first = openers["first"]
        print(f"first /api/openers?list={args.list}&prior=frequency: {first[0]:.2f} s ({first[1]})")
        for i, (seconds, status) in enumerate(during, start=1):
            print(f"uncached /api/hints #{i} started 0.2 s into it: {seconds * 1000:.0f} ms ({status})")
        again = call(url)
        print(f"the same openers call again: {again[0] * 1000:.0f} ms ({again[1]})")
    finally:
        server.terminate()
        server.wait(timeout=30)
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
