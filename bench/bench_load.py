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

``--flood N``: the attack of issue 11. ``--players`` (default 10) play practice games, a guess
every ``--think`` seconds (default 0.2), while N attackers send the most expensive hint requests
back to back (look-ahead with varying ``top`` and ``limit``, states that rule out every solution)
and ignore every refusal. Each client connects from its own loopback address (127.0.1.x for the
players, 127.0.2.x for the attackers). Prints the game moves' latency, what the attackers got,
and the server's CPU time and peak memory.

    .venv/bin/python bench/bench_load.py --flood 40 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
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
import numpy as np

from raten.compat import feedback
from raten.engine.state import State
from raten.wordlists.presets import load_words

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(list_name: str, workers: int = 1, extra: list[str] | None = None):
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
            *(extra or []),
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

    def __init__(self, url: str, source: str | None = None) -> None:
        """``source``: the loopback address to connect from (127.0.0.0/8 is all loopback on Linux)."""
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.source = source
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        return await self.request("POST", path, body)

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """One request on the kept connection; keeps the player cookie the server sets."""
        if self.writer is None:
            local = (self.source, 0) if self.source else None
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local)
        cookie = f"Cookie: {self.cookie}\r\n" if self.cookie else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
            f"{cookie}Content-Length: {len(body)}\r\n\r\n"
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
                elif name == b"set-cookie":
                    self.cookie = value.strip().split(b";")[0].decode()
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


def flood_bodies(list_name: str, n: int, seed: int) -> list[bytes]:
    """``n`` of the most expensive hint requests: look-ahead from the start or after one guess,
    and states that rule out every solution (the fallback over allowed words), each with its own
    ``top`` and ``limit`` so that a cache keyed on them would miss every time."""
    from raten.engine.feedback import format_pattern
    from raten.engine.matrix import feedback_against

    words = load_words(list_name)
    rng = random.Random(seed)
    start = State(words)
    fallbacks = []
    for guess in rng.sample(list(words.allowed), 40):
        seen = set(start.matrix.data[words.allowed_index[guess]].tolist())
        codes = np.asarray(feedback_against(guess, list(words.allowed)))
        values, counts = np.unique(codes, return_counts=True)
        for code, count in zip(values.tolist(), counts.tolist(), strict=True):
            if code not in seen and count >= 200:
                fallbacks.append(((guess, format_pattern(code)), count))
    fallbacks.sort(key=lambda fc: -fc[1])
    fallbacks = [rows for rows, _ in fallbacks[:20]] or [("xylyl", "!!!!!")]
    bodies = []
    for i in range(n):
        kind = i % 3
        if kind == 0:
            rows = []
        elif kind == 1:
            guess, answer = rng.choice(words.allowed), rng.choice(words.solutions)
            rows = [{"guess": guess, "pattern": feedback(guess, answer)}]
        else:
            guess, pattern = rng.choice(fallbacks)
            rows = [{"guess": guess, "pattern": pattern}]
        body = {
            "list": list_name,
            "rows": rows,
            "strategy": "lookahead" if kind != 2 or rng.random() < 0.5 else "entropy",
            "top": rng.randint(1, 50),
            "limit": rng.randint(0, 20000),
        }
        bodies.append(json.dumps(body).encode())
    return bodies


async def flooder(url: str, bodies: list[bytes], stop: float, source: str, seed: int, out: dict) -> None:
    """One attacker: the most expensive hint requests back to back, refusals ignored."""
    rng = random.Random(seed)
    raw = RawClient(url, source)
    while time.perf_counter() < stop:
        try:
            status, _ = await raw.post("/api/hints", rng.choice(bodies))
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
            status = type(e).__name__
            await asyncio.sleep(0.01)  # the connection was closed: reconnect, but do not spin
        out["flood"][status] = out["flood"].get(status, 0) + 1
    await raw.close()


def flood_process(url: str, list_name: str, floods: int, duration: float, seed: int, nice: int, results) -> None:
    """The attackers in their own process: signal ready, flood for ``duration``, send the counts.

    ``nice``: the attackers' own priority; on one machine their client's CPU would otherwise be
    taken from the server, which a real attack from elsewhere does not do."""
    os.nice(nice)
    bodies = flood_bodies(list_name, 3000, seed)
    out: dict = {"flood": {}}
    results.put(True)
    stop = time.perf_counter() + duration

    async def attack() -> None:
        await asyncio.gather(*(flooder(url, bodies, stop, f"127.0.2.{i + 1}", seed - i, out) for i in range(floods)))

    asyncio.run(attack())
    results.put(out["flood"])


async def player(url: str, words, stop: float, think: float, source: str, seed: int, out: dict) -> None:
    """One player: practice games, a guess every ``think`` seconds; times each move."""
    rng = random.Random(seed)
    raw = RawClient(url, source)
    game_id, tries = None, 0
    while time.perf_counter() < stop:
        t0 = time.perf_counter()
        try:
            if game_id is None:
                status, content = await raw.post("/api/games", b'{"list": "en", "mode": "practice"}')
                game_id = json.loads(content)["id"] if status == 200 else None
                tries = 0
                kind = "start"
            else:
                body = json.dumps({"guess": rng.choice(words.solutions)}).encode()
                status, content = await raw.post(f"/api/games/{game_id}/guesses", body)
                tries += 1
                if status != 200 or json.loads(content)["status"] != "playing":
                    game_id = None
                kind = "move"
        except (OSError, ValueError, KeyError, IndexError, asyncio.IncompleteReadError) as e:
            status, kind, game_id = type(e).__name__, "move", None
            await raw.close()
        elapsed = time.perf_counter() - t0
        if status == 200:
            out[kind].append(elapsed)
        else:
            out["errors"] += 1
            if len(out["messages"]) < 5:
                out["messages"].append(f"{kind}: {status}")
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
    await raw.close()


async def run_flood(
    url: str,
    list_name: str,
    players: int,
    floods: int,
    duration: float,
    think: float,
    pid: int | None,
    seed: int,
    nice: int = 10,
) -> dict:
    """Players making game moves while ``floods`` attackers send the most expensive requests;
    each from its own loopback address, so a limit per address cannot simply lump them together."""
    words = load_words(list_name)
    out = {"move": [], "start": [], "errors": 0, "messages": [], "flood": {}}
    # The attackers run in a process of their own, so their load does not delay the players'
    # client loop (that would be measured as server latency).
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    attack = ctx.Process(target=flood_process, args=(url, list_name, floods, duration, seed, nice, results))
    attack.start()
    if not results.get(timeout=300):  # the attackers are ready
        raise SystemExit("the attackers could not start")
    server_cpu = cpu_seconds(pid) if pid else None
    start = time.perf_counter()
    stop = start + duration
    await asyncio.gather(*(player(url, words, stop, think, f"127.0.1.{i + 1}", seed + i, out) for i in range(players)))
    out["wall"] = time.perf_counter() - start
    out["flood"] = results.get(timeout=60)
    attack.join(timeout=30)
    if server_cpu is not None:
        out["server_cpu"] = cpu_seconds(pid) - server_cpu
        out["server_peak_mb"] = peak_rss_mb(pid)
    return out


def peak_rss_mb(pid: int) -> float | None:
    """The peak resident memory of a process (Linux /proc, VmHWM), MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def report_flood(args: argparse.Namespace, out: dict) -> None:
    """Game moves' latency during the flood, and what the attackers got."""
    print(
        f"flood: {args.players} players (a move every ~{args.think:g} s) and {args.flood} attackers x "
        f"{args.duration:g} s, list {args.list}"
    )
    for kind in ("move", "start"):
        ms = sorted(1000 * x for x in out[kind])
        if ms:
            print(
                f"game {kind}s: {len(ms)}, median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 99):.1f} ms, "
                f"max {ms[-1]:.1f} ms"
            )
    print(f"player errors: {out['errors']}")
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(out["flood"].items(), key=lambda kv: str(kv[0])))
    print(f"attack requests: {sum(out['flood'].values())} ({answers})")
    if out.get("server_peak_mb"):
        print(f"server: {out['server_cpu']:.1f} s CPU, peak memory {out['server_peak_mb']:.0f} MB")
    for message in out["messages"]:
        print("error:", message)


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
    ap.add_argument(
        "--flood",
        type=int,
        default=0,
        help="attackers sending the most expensive hint requests while --players make game moves (max 100)",
    )
    ap.add_argument("--players", type=int, default=10, help="players making game moves during --flood (default 10)")
    ap.add_argument("--attack-nice", type=int, default=10, help="the attackers' process priority (default 10)")
    ap.add_argument("--serve-args", default="", help="extra options for raten serve, e.g. '--max-queue 4'")
    args = ap.parse_args()
    if not 0 <= args.flood <= 100 or not 0 <= args.players <= 100:
        raise SystemExit("--flood and --players must be between 0 and 100")
    if args.clients < 1 or not 0 < args.duration <= 600:
        raise SystemExit("--clients must be at least 1 and --duration between 0 and 600 s")
    if args.url and urlparse(args.url).hostname not in LOOPBACK:
        raise SystemExit("this benchmark only sends traffic to the loopback address")

    with contextlib.ExitStack() as stack:
        url, pid = (
            (args.url.rstrip("/"), None)
            if args.url
            else stack.enter_context(served(args.list, args.workers, args.serve_args.split()))
        )
        if args.flood:
            think = args.think or 0.2
            args.think = think
            out = asyncio.run(
                run_flood(
                    url, args.list, args.players, args.flood, args.duration, think, pid, args.seed, args.attack_nice
                )
            )
            report_flood(args, out)
            return
        bodies = make_bodies(args.list, args.states, args.bodies, args.seed)
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
