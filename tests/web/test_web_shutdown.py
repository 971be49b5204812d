"""`raten serve` stopped as an operator or a service manager stops it (SIGTERM, SIGINT to the
server process alone): its rank worker processes end with it, none is left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from test_web_kill import free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc"),
]


def _processes_where(field: int, value: int) -> set[int]:
    """The living processes whose /proc stat ``field`` (counted after the name: 1 parent,
    3 session) is ``value``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            after = stat.rsplit(")", 1)[1].split()
            if int(after[field]) == value and after[0] != "Z":
                found.add(int(entry.name))
    return found


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    return _processes_where(1, pid)


def in_session(sid: int) -> set[int]:
    """Every process of the session ``sid``: the server and whatever it started, even processes
    started after the signal, whose parent is gone."""
    return _processes_where(3, sid)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.1)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_server_ends_its_rank_workers(tmp_path, sig) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "raten", "serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3")]
    cmd += ["--lists", "6mal5", "--rank-workers", "2", "--log-level", "warning"]
    # a session of its own: the signal reaches the server only, as `kill PID` or systemd sends it
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    workers: set[int] = set()
    try:

        def up() -> bool:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            try:
                return httpx.get(f"http://127.0.0.1:{port}/api/lists", timeout=2).status_code == 200
            except httpx.TransportError:
                return False

        wait_for(up, 120, "raten serve answers")
        workers = children(proc.pid)
        assert len(workers) >= 2, workers  # the two rank workers (and multiprocessing's resource tracker)
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        wait_for(lambda: not any(alive(p) for p in workers), 15, f"the workers {workers} end")
        wait_for(lambda: not in_session(proc.pid), 15, "no process of the server's session is left")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        for pid in workers | in_session(proc.pid):  # a failed run leaves none behind either
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.stderr.close()
