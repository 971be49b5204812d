"""`raten serve` as a real process: statistics and a game in progress survive SIGKILL, on SQLite
(its write-ahead log) and on PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(db: Path | str, workers: int = 1):
    """``raten serve`` on a free loopback port, until the block ends (or the test kills it)."""
    port = free_port()
    cmd = [sys.executable, "-m", "raten", "serve", "--port", str(port), "--db", str(db), "--lists", "en"]
    cmd += ["--workers", str(workers), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"raten serve exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{base}/api/lists", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("raten serve did not start within 90 s")
            time.sleep(0.2)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        proc.stderr.close()


def answer(db: Path | str, game_id: str) -> str:
    """Read straight from the database (SQLite's WAL lets a reader in while the server writes)."""
    from raten.web.store.core import connect

    engine = connect(db)
    try:
        return engine.read("SELECT answer FROM games WHERE id = ?", (game_id,))[0][0]
    finally:
        engine.close()


@pytest.mark.slow
def test_statistics_survive_sigkill_mid_game(store_target):
    db = store_target
    client = httpx.Client(timeout=10)
    with server(db) as (proc, base):
        first = client.post(f"{base}/api/games", json={"list": "en", "mode": "practice"}).json()
        word = answer(db, first["id"])
        other = "crane" if word != "crane" else "slate"
        client.post(f"{base}/api/games/{first['id']}/guesses", json={"guess": other})
        won = client.post(f"{base}/api/games/{first['id']}/guesses", json={"guess": word}).json()
        assert won["status"] == "won" and won["stats"]["played"] == 1
        second = client.post(f"{base}/api/games", json={"list": "en", "mode": "practice"}).json()
        word2 = answer(db, second["id"])
        other2 = "pious" if word2 != "pious" else "dumpy"
        r = client.post(f"{base}/api/games/{second['id']}/guesses", json={"guess": other2})
        assert r.status_code == 200
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL
    if isinstance(db, Path):
        with contextlib.closing(sqlite3.connect(db)) as con:
            assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with server(db, workers=2) as (_, base):  # two processes on one database now
        stats = client.get(f"{base}/api/stats", params={"list": "en", "mode": "practice"}).json()
        assert stats["played"] == 1 and stats["wins"] == 1 and stats["distribution"][1] == 1
        resumed = client.get(f"{base}/api/games/{second['id']}").json()
        assert resumed["status"] == "playing" and [r["guess"] for r in resumed["rows"]] == [other2]
        done = client.post(f"{base}/api/games/{second['id']}/guesses", json={"guess": word2}).json()
        assert done["status"] == "won" and done["stats"]["played"] == 2 and done["stats"]["current_streak"] == 2
    client.close()
