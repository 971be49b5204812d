"""The first frequency-prior review on a cold server (an empty matrix cache: de's 9514 x 9514
table must be built) leaves other players' moves fast: p99 under 1 s while it is answered 503
``warming_up`` and then, once the warm-up has built the table, 200."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
from test_web_kill import free_port

pytestmark = pytest.mark.slow


def test_the_first_frequency_review_on_a_cold_server_leaves_players_fast(tmp_path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "RATEN_CACHE_DIR": str(tmp_path / "cache")}
    cmd = [sys.executable, "-m", "raten", "serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3")]
    proc = subprocess.Popen([*cmd, "--lists", "de", "--log-level", "warning"], env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            try:
                if httpx.get(f"{base}/api/lists", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "raten serve did not start"
            time.sleep(0.2)
        seconds: list[float] = []
        errors: list[str] = []
        done = threading.Event()

        def player() -> None:  # 4 players at 4 requests a second: within one address's rate
            with httpx.Client(base_url=base, timeout=30) as c:
                game = c.post("/api/games", json={"list": "de", "mode": "practice"}).json()
                while not done.is_set():
                    t = time.monotonic()
                    r = c.get(f"/api/games/{game['id']}")
                    seconds.append(time.monotonic() - t)
                    if r.status_code != 200:
                        errors.append(r.text)
                    time.sleep(0.25)

        players = [threading.Thread(target=player) for _ in range(4)]
        for p in players:
            p.start()
        review = {"list": "de", "guesses": ["raten", "tasse"], "answer": "tasse", "prior": "frequency"}
        statuses = []
        with httpx.Client(base_url=base, timeout=120) as c:
            deadline = time.monotonic() + 300
            while True:
                r = c.post("/api/review", json=review)
                statuses.append(r.status_code)
                if r.status_code != 503:
                    break
                assert r.json()["code"] == "warming_up" and time.monotonic() < deadline
                time.sleep(float(r.headers["Retry-After"]))
        done.set()
        for p in players:
            p.join(30)
        assert statuses[-1] == 200 and set(statuses) <= {200, 503}, r.text
        assert not errors, errors[:3]
        seconds.sort()
        p99 = seconds[int(len(seconds) * 0.99)]
        assert p99 < 1.0, f"players' p99 {p99:.3f} s over {len(seconds)} moves"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()
