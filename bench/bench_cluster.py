"""Several nodes behind nginx, and slow-connection floods, on one machine (deploy/localcluster.py:
nginx + 3 nodes + PostgreSQL + Redis on loopback ports, list 6mal5).

``scale``: players play practice games through nginx with 1, 2 and 3 nodes behind it, in one
run: moves per second, the moves' p50 and p99, and the CPU seconds of the servers (nodes with
their workers, nginx, PostgreSQL, Redis) and of this client beside the wall time. Each player
has its own loopback address and pauses ``--think`` seconds between moves (a player's rate
limit is 30 requests per 3 s); ``--players`` of them keep the servers busy.

``floods``: 1,000 connections from one address that (``slow-body``) send a whole head and then
one body byte every 2 s, (``slow-head``) send the head one byte every 2 s, or (``idle``) send
nothing; each reconnects 1 s after the server closes it. Meanwhile ``--flood-players`` players
(from other addresses) play; reported: how many of their moves succeed and their p50 and p99,
against raten alone (one node with its defaults: 64 connections per address, head and body
within 10 s) and behind nginx (3 nodes).

    .venv/bin/python bench/bench_cluster.py                 # both, as docs/deploy.md reports
    .venv/bin/python bench/bench_cluster.py scale --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))

import localcluster
from raten.engine.state import State
from raten.wordlists.presets import load_words

LIST = "6mal5"
FLOOD_CONNECTIONS = 1000


@dataclass
class Moves:
    """The moves sent within a measuring window: latencies of those answered 200, and how many were not."""

    opens: float
    closes: float
    seconds: list[float] = field(default_factory=list)
    failed: int = 0

    def count(self, sent: float, took: float | None) -> None:
        """One move sent at ``sent`` (monotonic) that took ``took`` seconds, or failed (None)."""
        if self.opens <= sent < self.closes:
            if took is None:
                self.failed += 1
            else:
                self.seconds.append(took)

    def row(self, seconds: float) -> dict:
        done = len(self.seconds)
        q = statistics.quantiles(self.seconds, n=100) if done >= 2 else [float("nan")] * 99
        total = done + self.failed
        return {
            "moves": done,
            "per_s": done / seconds,
            "ok_pct": 100.0 * done / total if total else float("nan"),
            "p50_ms": 1000 * q[49],
            "p99_ms": 1000 * q[98],
        }


async def play(base: str, address: str, think: float, moves: Moves, start: State) -> None:
    """Practice games, one after another, until the window closes."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        while time.monotonic() < moves.closes:
            sent = time.monotonic()
            try:
                r = await client.post("/api/games", json={"list": LIST, "mode": "practice"})
            except httpx.TransportError:
                r = None
            if r is None or r.status_code != 200:
                moves.count(sent, None)
                await asyncio.sleep(think)
                continue
            game, state = r.json(), start
            while game["status"] == "playing" and time.monotonic() < moves.closes:
                await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
                guess, row = random.choice(state.candidate_words), len(game["rows"])
                sent = time.monotonic()
                try:
                    r = await client.post(f"/api/games/{game['id']}/guesses", json={"guess": guess, "row": row})
                except httpx.TransportError:
                    r = None
                if r is None or r.status_code != 200:
                    moves.count(sent, None)
                    continue
                moves.count(sent, time.monotonic() - sent)
                game = r.json()
                state = state.after(guess, game["rows"][row]["pattern"])


def warmed(base: str) -> None:
    """Wait until the node's background warm-up has loaded the list's other prior (it takes the CPU
    for a while after the start), polled."""
    url = f"{base}/api/openers?list={LIST}&prior=frequency&top=1"
    while httpx.get(url, timeout=30).status_code != 200:
        time.sleep(0.5)


def addresses(n: int, third: int) -> list[str]:
    return [f"127.0.{third}.{i % 250 + 2}" for i in range(n)]


async def players(base: str, n: int, moves: Moves, think: float, start: State, third: int = 1) -> Moves:
    """``n`` players from their own addresses (127.0.THIRD.x) until ``moves`` closes."""
    await asyncio.gather(*(play(base, a, think, moves, start) for a in addresses(n, third)))
    return moves


# --- floods -------------------------------------------------------------------------------------

HEAD = b"POST /api/hints HTTP/1.1\r\nHost: raten\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"


async def flood_one(kind: str, host: str, port: int, until: float, seen: dict) -> None:
    """One abusive connection, opened again 1 s after the server closes it, until ``until``."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=("127.0.0.1", 0))
        except OSError:
            seen["refused_connect"] += 1
            await asyncio.sleep(1)
            continue
        seen["opened"] += 1
        sent = 0
        if kind == "slow-body":
            writer.write(HEAD)
        try:
            while time.monotonic() < until:
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=2.0)
                except TimeoutError:
                    if kind == "slow-body":
                        writer.write(b" ")
                    elif kind == "slow-head":
                        writer.write(HEAD[sent % len(HEAD) : sent % len(HEAD) + 1])
                        sent += 1
                    await writer.drain()
                    continue
                if not data:
                    break
                status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "?"
                seen[status] = seen.get(status, 0) + 1
        except OSError:
            pass
        finally:
            writer.close()
            seen["closed"] += 1
        await asyncio.sleep(1)


async def flooded(kind: str | None, base: str, n_players: int, moves: Moves, think: float, start: State) -> dict:
    """Players' moves while ``kind`` floods ``base`` (None: no flood); what the flood connections got."""
    host, port = base.removeprefix("http://").split(":")
    seen = {"opened": 0, "closed": 0, "refused_connect": 0}
    floods = []
    if kind is not None:
        for _ in range(FLOOD_CONNECTIONS):
            floods.append(asyncio.ensure_future(flood_one(kind, host, int(port), moves.closes, seen)))
            await asyncio.sleep(0.002)  # 1,000 connections within 2 s
    await players(base, n_players, moves, think, start, third=3)
    await asyncio.gather(*floods)
    return seen


# --- measuring ----------------------------------------------------------------------------------


def _cpu(proc: psutil.Process) -> float:
    """CPU seconds of one process (0 once it is gone)."""
    with contextlib.suppress(psutil.NoSuchProcess):
        t = proc.cpu_times()
        return t.user + t.system
    return 0.0


def server_cpu(cluster: localcluster.Cluster, extra: list[localcluster.Node]) -> float:
    """CPU seconds so far of every server process (nodes and their children, nginx, PostgreSQL,
    Redis; a process that ended meanwhile is not counted)."""
    roots = [n.process.pid for n in [*cluster.nodes, *extra] if n.process and n.process.poll() is None]
    roots += [p.process.pid for p in (cluster.nginx, cluster.redis) if p and p.process]
    procs: dict[int, psutil.Process] = {}
    for pid in roots:
        with contextlib.suppress(psutil.NoSuchProcess):
            for proc in [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]:
                procs[proc.pid] = proc
    for proc in psutil.process_iter(["cmdline"]):  # PostgreSQL's processes (another user's)
        if str(cluster.root) in " ".join(proc.info["cmdline"] or []):
            procs[proc.pid] = proc
            with contextlib.suppress(psutil.NoSuchProcess):
                procs.update((c.pid, c) for c in proc.children(recursive=True))
    return sum(_cpu(p) for p in procs.values())


def measured(cluster, extra, warm: float, seconds: float, run) -> tuple:
    """``run(moves)`` (a coroutine function) with a window opening after ``warm`` seconds and
    lasting ``seconds``: its result, the moves, and the server's and this client's CPU seconds
    within the window."""
    now = time.monotonic()
    moves = Moves(now + warm, now + warm + seconds)
    cpu: dict[str, float] = {}

    def sample(when: str) -> None:
        cpu[when] = server_cpu(cluster, extra)
        cpu[when + "_me"] = time.process_time()

    async def main():
        loop = asyncio.get_running_loop()
        loop.call_later(warm, sample, "open")
        loop.call_later(warm + seconds, sample, "close")
        return await run(moves)

    result = asyncio.run(main())
    return result, moves, cpu["close"] - cpu["open"], cpu["close_me"] - cpu["open_me"]


def show(title: str, header: list[str], rows: list[list[str]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def scale(cluster, args, start: State) -> None:
    rows = []
    for count in (1, 2, 3):
        cluster.front(count)
        _, moves, cpu, me = measured(
            cluster, [], args.warm, args.seconds, lambda m: players(cluster.url, args.players, m, args.think, start)
        )
        r = moves.row(args.seconds)
        figures = [r["moves"], f"{r['per_s']:.0f}", f"{r['ok_pct']:.2f} %", f"{r['p50_ms']:.0f}", f"{r['p99_ms']:.0f}"]
        rows.append([str(count), *map(str, figures), f"{args.seconds:g}", f"{cpu:.1f}", f"{me:.1f}"])
    show(
        f"moves through nginx, {args.players} players pausing {args.think} s (list {LIST})",
        ["nodes", "moves", "moves/s", "answered", "p50 ms", "p99 ms", "wall s", "server CPU s", "client CPU s"],
        rows,
    )


def floods(cluster, args, start: State) -> None:
    alone = localcluster.Node(
        cluster.root, localcluster.free_port(), cluster.db, cluster.redis.url,
        ["--lists", LIST, "--connections-per-address", "64"],
    )  # fmt: skip
    alone.start()
    try:
        alone.wait_ready()
        warmed(alone.url)
        cluster.front(3)
        rows = []
        for target, base in (("raten alone", alone.url), ("behind nginx", cluster.url)):
            for kind in (None, "slow-body", "slow-head", "idle"):
                seen, moves, cpu, me = measured(
                    cluster, [alone], args.warm, args.seconds,
                    lambda m, k=kind, b=base: flooded(k, b, args.flood_players, m, args.think, start),
                )  # fmt: skip
                r = moves.row(args.seconds)
                got = ", ".join(f"{k} {v}" for k, v in sorted(seen.items()) if v and k not in ("opened", "closed"))
                rows.append([target, kind or "none", f"{r['moves']}", f"{r['ok_pct']:.2f} %", f"{r['p50_ms']:.0f}",
                             f"{r['p99_ms']:.0f}", f"{seen['opened']}", got or "-", f"{args.seconds:g}", f"{cpu:.1f}",
                             f"{me:.1f}"])  # fmt: skip
        show(
            f"{args.flood_players} players' moves while {FLOOD_CONNECTIONS} connections from one address flood "
            f"(each reopened 1 s after it is closed)",
            [
                "target",
                "flood",
                "moves",
                "succeeded",
                "p50 ms",
                "p99 ms",
                "flood connections opened",
                "flood answers",
                "wall s",
                "server CPU s",
                "client CPU s",
            ],
            rows,
        )
    finally:
        alone.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", nargs="?", choices=["scale", "floods", "all"], default="all")
    parser.add_argument("--seconds", type=float, default=20.0, help="each measurement's length")
    parser.add_argument("--warm", type=float, default=8.0, help="seconds of play before each measurement")
    parser.add_argument("--players", type=int, default=150, help="players in the scale runs")
    parser.add_argument("--flood-players", type=int, default=20, help="players during the floods")
    parser.add_argument("--think", type=float, default=0.15, help="a player's mean pause between moves (s)")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))  # 1,000 sockets here, inherited
    start = State(load_words(LIST))  # each player's guesses fit what it was told
    print(f"machine: {os.cpu_count()} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with localcluster.Cluster(3, node_args=["--lists", LIST]) as cluster:
        for node in cluster.nodes:
            warmed(node.url)
        if args.part in ("scale", "all"):
            scale(cluster, args, start)
        if args.part in ("floods", "all"):
            floods(cluster, args, start)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
