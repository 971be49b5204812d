"""Load benchmark of the web app: many concurrent clients asking for hints after one guess.

Starts ``raten serve`` on a free loopback port (or uses ``--url``, loopback only), then runs
``--clients`` asyncio clients (httpx) for ``--duration`` seconds. Each client sends
``POST /api/hints`` for one guess and its colours, waits for the answer, optionally thinks
for ``--think`` seconds, and goes again. Prints throughput, errors and latency percentiles.

    .venv/bin/python bench/bench_load.py                    # 100 clients x 30 s on en
    .venv/bin/python bench/bench_load.py --clients 20 --duration 5 --states random

``--states openers`` (default): the guess is one of the list's 50 best openers and the colours
those of a random answer, as people use the solver (about 7000 different states, so the
server's answer cache helps). ``--states random``: any allowed word against a random answer,
almost every request a new state (the ranking is computed each time).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx

from raten.compat import feedback
from raten.engine.state import State
from raten.wordlists.presets import load_words

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(list_name: str, workers: int = 1):
    """``raten serve`` in its own process on a free loopback port; its base URL and pid."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "raten",
            "serve",
            "--port",
            str(port),
            "--lists",
            list_name,
            "--db",
            str(Path(tmp) / "bench.sqlite3"),
            "--log-level",
            "warning",
            "--workers",
            str(workers),
        ]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"raten serve exited with {proc.returncode}")
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"{url}/api/lists", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise SystemExit("raten serve did not start within 120 s")
                time.sleep(0.2)
            yield url, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time so far of a process and all its descendants (Linux /proc),
    or None elsewhere."""
    stats = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    if pid not in stats:
        return None
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, (ppid, _) in stats.items() if ppid == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(stats[p][1] for p in tree) / os.sysconf("SC_CLK_TCK")


def make_bodies(list_name: str, states: str, n: int, seed: int) -> list[bytes]:
    """``n`` request bodies: one guess and the colours it shows against a random answer."""
    words = load_words(list_name)
    rng = random.Random(seed)
    pool = [h.word for h in State(words).hints(top=50)] if states == "openers" else list(words.allowed)
    bodies = []
    for _ in range(n):
        guess, answer = rng.choice(pool), rng.choice(words.solutions)
        body = {"list": list_name, "rows": [{"guess": guess, "pattern": feedback(guess, answer)}], "top": 10}
        bodies.append(json.dumps(body).encode())
    return bodies


class RawClient:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams, one connection per user.

    httpx spends about 2.5 ms of CPU per request here, three times what the server spends, so
    with it the benchmark mostly measures itself; this one costs a tenth of that.
    """

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        try:
            self.writer.write(head + body)
            status_line = await self.reader.readline()
            status = int(status_line.split()[1])
            length, close = None, False
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b""):
                    break
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection" and value.strip().lower() == b"close":
                    close = True
            if length is None:
                raise ValueError("no Content-Length in the answer")
            content = await self.reader.readexactly(length)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            await self.close()
            raise
        if close:
            await self.close()
        return status, content

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def client(
    kind: str, http: httpx.AsyncClient, url: str, bodies: list[bytes], stop: float, think: float, seed: int, out: dict
) -> None:
    """One user: ask, wait for the answer, (think), repeat until ``stop``."""
    rng = random.Random(seed)
    raw = RawClient(url) if kind == "raw" else None
    while time.perf_counter() < stop:
        body = rng.choice(bodies)
        t0 = time.perf_counter()
        try:
            if raw is not None:
                status, content = await raw.post("/api/hints", body)
            else:
                r = await http.post(f"{url}/api/hints", content=body, headers={"Content-Type": "application/json"})
                status, content = r.status_code, r.content
            ok = status == 200 and "hints" in json.loads(content)
        except (httpx.HTTPError, OSError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
            ok = False
            out["messages"].append(repr(e))
        elapsed = time.perf_counter() - t0
        if ok:
            out["latencies"].append(elapsed)
        else:
            out["errors"] += 1
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
    if raw is not None:
        await raw.close()


async def run(
    kind: str,
    url: str,
    clients: int,
    duration: float,
    think: float,
    bodies: list[bytes],
    warmup: float,
    pid: int | None,
) -> dict:
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        if warmup:
            warm = {"latencies": [], "errors": 0, "messages": []}
            stop = time.perf_counter() + warmup
            await asyncio.gather(*(client(kind, http, url, bodies, stop, think, -i, warm) for i in range(clients)))
        out = {"latencies": [], "errors": 0, "messages": []}
        server_cpu = cpu_seconds(pid) if pid else None
        client_cpu = time.process_time()
        start = time.perf_counter()
        stop = start + duration
        await asyncio.gather(*(client(kind, http, url, bodies, stop, think, i, out) for i in range(clients)))
        out["wall"] = time.perf_counter() - start
        out["client_cpu"] = time.process_time() - client_cpu
        if server_cpu is not None:
            out["server_cpu"] = cpu_seconds(pid) - server_cpu
    return out


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=100, help="concurrent clients (default 100)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured (default 30)")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of load before measuring (default 2)")
    ap.add_argument("--think", type=float, default=0.0, help="mean pause of a client between requests, s (default 0)")
    ap.add_argument("--list", default="en", help="word list (default en)")
    ap.add_argument("--states", choices=["openers", "random"], default="openers", help="which first guesses")
    ap.add_argument("--url", help="an already running server on the loopback address (default: start one)")
    ap.add_argument("--bodies", type=int, default=5000, help="distinct requests drawn from (default 5000)")
    ap.add_argument("--workers", type=int, default=1, help="server processes when starting one (default 1)")
    ap.add_argument("--client", choices=["raw", "httpx"], default="raw", help="HTTP client (default: raw, cheap)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.clients < 1 or not 0 < args.duration <= 600:
        raise SystemExit("--clients must be at least 1 and --duration between 0 and 600 s")
    if args.url and urlparse(args.url).hostname not in LOOPBACK:
        raise SystemExit("this benchmark only sends traffic to the loopback address")

    bodies = make_bodies(args.list, args.states, args.bodies, args.seed)
    with contextlib.ExitStack() as stack:
        url, pid = (args.url.rstrip("/"), None) if args.url else stack.enter_context(served(args.list, args.workers))
        out = asyncio.run(run(args.client, url, args.clients, args.duration, args.think, bodies, args.warmup, pid))

    lat = sorted(out["latencies"])
    n = len(lat)
    ms = [1000 * x for x in lat]
    print(
        f"{args.clients} clients ({args.client}) x {args.duration:g} s, list {args.list}, states {args.states}, "
        f"think {args.think:g} s, {args.workers if not args.url else '?'} server worker(s)"
    )
    print(f"requests {n + out['errors']}, errors {out['errors']}, throughput {n / out['wall']:.0f}/s")
    if n:
        print(
            f"latency ms: median {statistics.median(ms):.1f}, p90 {percentile(ms, 90):.1f}, "
            f"p99 {percentile(ms, 99):.1f}, max {ms[-1]:.1f}"
        )
    if n:
        cpu = f"client {1000 * out['client_cpu'] / n:.2f}"
        if "server_cpu" in out:
            cpu = f"server {1000 * out['server_cpu'] / n:.2f}, " + cpu
        print(f"CPU ms per request: {cpu}")
    for message in out["messages"][:5]:
        print("error:", message)
    if out["errors"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
