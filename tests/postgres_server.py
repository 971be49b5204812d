"""A throwaway PostgreSQL server for the store's tests, from Debian's ``postgresql`` package.

It lives in a temporary folder and listens on a unix socket there only (no TCP port to clash);
PostgreSQL refuses to run as root, so under root it runs as an unprivileged user (``postgres``
when the package made one, else ``nobody``). Readiness is polled, never waited for by time."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

PORT = 5432  # of the socket file's name only: the server listens on no TCP port
READY_WITHIN = 60.0  # seconds a start may take before the tests give up on it (polled, not slept)


def binaries() -> Path | None:
    """The newest installed ``/usr/lib/postgresql/<version>/bin`` with initdb, pg_ctl and postgres."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        folder = Path(initdb).parent
        version = folder.parent.name
        if (folder / "pg_ctl").exists() and (folder / "postgres").exists() and version.isdigit():
            found.append((int(version), folder))
    return max(found)[1] if found else None


def _user() -> str | None:
    """Whom to run the server as: None for the current user, unless that is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and no unprivileged user (postgres, nobody) to start PostgreSQL as")


class Server:
    """One running server: ``url(db)`` for a database in it, ``create()`` for a fresh one."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.user = _user()
        self.root = Path(tempfile.mkdtemp(prefix="raten-pg-"))
        self.data = self.root / "data"
        self.socket = self.root
        self.log = self.root / "server.log"
        self._count = 0
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.role = "raten"

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=self.root)

    def start(self) -> None:
        """initdb, then start it on the socket and poll until it takes connections."""
        done = self._run("initdb", "-D", str(self.data), "-U", self.role, "--auth=trust", "-E", "UTF8", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
        options = f"-k {self.socket} -p {PORT} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        done = self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-o", options)
        if done.returncode:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr[-2000:]} {self._log_tail()}")
        self._wait_ready()

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text()[-2000:]
        return ""

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + READY_WITHIN
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"PostgreSQL did not start: {self._log_tail()}") from None
            ready = [str(self.bin / "pg_isready"), "-h", str(self.socket), "-p", str(PORT), "-t", "1"]
            subprocess.run(ready, capture_output=True, timeout=10, check=False)  # waits up to 1 s for the socket

    def url(self, db: str) -> str:
        """A URL of database ``db`` over the server's socket."""
        return f"postgresql://{self.role}@/{db}?host={self.socket}&port={PORT}"

    def create(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        self._count += 1
        name = f"t{self._count}_{os.getpid()}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running() -> Iterator[Server]:
    """A started server, stopped and removed on leaving; RuntimeError if PostgreSQL is not installed."""
    bin_dir = binaries()
    if bin_dir is None:
        raise FileNotFoundError("PostgreSQL is not installed (/usr/lib/postgresql/*/bin; `make postgres` installs it)")
    server = Server(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()
