"""A throwaway Redis server for the tests, from Debian's ``redis-server`` package.

It lives in a temporary folder and listens on a free loopback port (or on a unix socket there
only); nothing is saved to disk. Readiness is polled, never waited for by time."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

READY_WITHIN = 30.0  # seconds a start may take before the tests give up on it (polled, not slept)


def binary() -> str | None:
    """Debian's redis-server, if installed."""
    return shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One running redis-server: ``url`` to reach it; ``stop()`` and ``start()`` again (the same port)."""

    def __init__(self, path: str, port: int | None = None) -> None:
        self.binary = path
        self.root = Path(tempfile.mkdtemp(prefix="raten-redis-"))
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and poll until it answers PING."""
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", str(self.root), "--logfile", str(self.root / "redis.log"), "--daemonize", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root)
        deadline = time.monotonic() + READY_WITHIN
        while not self.ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.root / "redis.log"
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server did not start: {tail}")
            time.sleep(0.05)

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running(port: int | None = None) -> Iterator[Server]:
    """A started server, stopped and removed on leaving; FileNotFoundError if redis-server is not installed."""
    path = binary()
    if path is None:
        raise FileNotFoundError("redis-server is not installed (`make redis` installs Debian's redis-server)")
    server = Server(path, port)
    try:
        server.start()
        yield server
    finally:
        server.remove()
