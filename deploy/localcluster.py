"""A whole raten deployment on one machine, on loopback ports, in a temporary folder: PostgreSQL,
Redis, any number of nodes (``raten serve``) and nginx in front of them (the same
``deploy/nginx/raten.conf.template`` a host copies), to try it (``deploy/try-cluster``) and for
the tests and benchmarks of several nodes.

Every server comes from Debian's packages (postgresql, redis-server, nginx) and runs as a child
of this process in the temporary folder; the packages' own services are never used. Readiness is
polled (ports, ``/api/health``), never waited for by time. Only the standard library is used, so
this file runs with any Python that can run raten.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "nginx" / "raten.conf.template"
#: Seconds a server may take to start before giving up (polled, not slept): raten's first start
#: on a fresh cache builds its tables, several nodes at once on two shared cores.
READY_WITHIN = 300.0
#: The PostgreSQL socket's port number (it listens on no TCP port).
PG_PORT = 5432


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _unprivileged_user() -> str | None:
    """Whom to run PostgreSQL and nginx's workers as: None for the current user, unless that is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and no unprivileged user (postgres, nobody) to start PostgreSQL as")


def _tail(path: Path, size: int = 2000) -> str:
    with contextlib.suppress(OSError):
        return path.read_text(errors="replace")[-size:]
    return ""


def _get(url: str, timeout: float = 2.0) -> int | None:
    """The status of GET ``url``, or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return e.code
    except (OSError, urllib.error.URLError):
        return None


def _end(process: subprocess.Popen | None, sig: int = signal.SIGTERM, grace: float = 20.0, group: bool = False) -> None:
    """Send ``sig`` (to the process group with ``group``), then SIGKILL after ``grace`` seconds."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig) if group else process.send_signal(sig)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL) if group else process.kill()
        process.wait(timeout=30)


# --- PostgreSQL ---------------------------------------------------------------------------------


def postgres_binaries() -> Path | None:
    """The newest installed ``/usr/lib/postgresql/<version>/bin`` with initdb, pg_ctl and postgres."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        folder = Path(initdb).parent
        version = folder.parent.name
        if (folder / "pg_ctl").exists() and (folder / "postgres").exists() and version.isdigit():
            found.append((int(version), folder))
    return max(found)[1] if found else None


class Postgres:
    """A throwaway PostgreSQL on a unix socket in its own folder (no TCP port to clash);
    PostgreSQL refuses to run as root, so under root it runs as an unprivileged user."""

    def __init__(self, bin_dir: Path, root: Path | None = None) -> None:
        self.bin = bin_dir
        self.user = _unprivileged_user()
        self.root = root or Path(tempfile.mkdtemp(prefix="raten-pg-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.data = self.root / "data"
        self.socket = self.root
        self.log = self.root / "server.log"
        self.role = "raten"
        self._count = 0
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=self.root)

    def start(self) -> None:
        """initdb, then start it and poll until it takes connections."""
        done = self._run("initdb", "-D", str(self.data), "-U", self.role, "--auth=trust", "-E", "UTF8", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
        self.resume()

    def resume(self) -> None:
        """Start the server on its data (again) and poll until it takes connections."""
        options = f"-k {self.socket} -p {PG_PORT} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        done = self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-o", options)
        if done.returncode:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr[-2000:]} {_tail(self.log)}")
        deadline = time.monotonic() + READY_WITHIN
        ready = [str(self.bin / "pg_isready"), "-h", str(self.socket), "-p", str(PG_PORT), "-t", "1"]
        while subprocess.run(ready, capture_output=True, timeout=10, check=False).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {_tail(self.log)}")

    def pause(self) -> None:
        """Stop the server (its data stays), as an operator's mistake or a crash would."""
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast")

    def url(self, db: str) -> str:
        """A URL of database ``db`` over the server's socket."""
        return f"postgresql://{self.role}@/{db}?host={self.socket}&port={PG_PORT}"

    def create(self, name: str | None = None) -> str:
        """A new empty database (``name``, else a fresh one); its URL."""
        self._count += 1
        name = name or f"t{self._count}_{os.getpid()}"
        done = self._run("psql", "-h", str(self.socket), "-p", str(PG_PORT), "-U", self.role, "-d", "postgres",
                         "-v", "ON_ERROR_STOP=1", "-c", f'CREATE DATABASE "{name}"')  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"CREATE DATABASE failed: {done.stderr[-2000:]}")
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_postgres(root: Path | None = None) -> Iterator[Postgres]:
    """A started PostgreSQL, stopped and removed on leaving; FileNotFoundError if it is not installed."""
    bin_dir = postgres_binaries()
    if bin_dir is None:
        raise FileNotFoundError("PostgreSQL is not installed (/usr/lib/postgresql/*/bin; `make postgres` installs it)")
    server = Postgres(bin_dir, root)
    try:
        server.start()
        yield server
    finally:
        server.stop()


# --- Redis --------------------------------------------------------------------------------------


def redis_binary() -> str | None:
    """Debian's redis-server, if installed."""
    return shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


class Redis:
    """A throwaway redis-server on a free loopback port; nothing is saved to disk. ``stop()`` and
    ``start()`` again keep the port (a fault and its end)."""

    def __init__(self, binary: str, root: Path | None = None, port: int | None = None) -> None:
        self.binary = binary
        self.root = root or Path(tempfile.mkdtemp(prefix="raten-redis-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.log = self.root / "redis.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and poll until it answers PING."""
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", str(self.root), "--logfile", str(self.log), "--daemonize", "no"]
        command += ["--maxmemory", "256mb", "--maxmemory-policy", "volatile-lru"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root)
        deadline = time.monotonic() + READY_WITHIN
        while not self.ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: {_tail(self.log)}")
            time.sleep(0.05)

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        _end(self.process, grace=10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_redis(root: Path | None = None, port: int | None = None) -> Iterator[Redis]:
    """A started redis-server, stopped and removed on leaving; FileNotFoundError if it is not installed."""
    binary = redis_binary()
    if binary is None:
        raise FileNotFoundError("redis-server is not installed (`make redis` installs Debian's redis-server)")
    server = Redis(binary, root, port)
    try:
        server.start()
        yield server
    finally:
        server.remove()


# --- raten nodes --------------------------------------------------------------------------------


class Node:
    """One ``raten serve`` behind the proxy, in its own process group (with its rank workers)."""

    def __init__(self, root: Path, port: int, db: str, redis: str, args: Sequence[str] = ()) -> None:
        self.root = root
        self.port = port
        self.db = db
        self.redis = redis
        self.args = list(args)
        self.log = root / f"node-{port}.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "raten", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", self.db, "--redis", self.redis, "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]
        command += ["--connections-per-address", "0", "--log-level", "warning", *self.args]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True
            )

    def wait_ready(self, within: float = READY_WITHIN) -> None:
        """Poll ``/api/health`` until it answers 200 (or the node has exited: its log says why)."""
        deadline = time.monotonic() + within
        while _get(f"{self.url}/api/health") != 200:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"the node on port {self.port} exited: {_tail(self.log)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the node on port {self.port} did not start within {within:g} s: {_tail(self.log)}")
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL, as a crash or the machine's end: the node and its workers go at once."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, as systemd sends it; SIGKILL after 20 s."""
        _end(self.process, signal.SIGTERM, grace=20, group=True)


# --- nginx --------------------------------------------------------------------------------------


def render_nginx(listen: str, nodes: Sequence[str], cache: str | Path) -> str:
    """``deploy/nginx/raten.conf.template`` with its blanks filled in (nodes as HOST:PORT)."""
    servers = "\n    ".join(f"server {n} max_fails=1 fail_timeout=5s;" for n in nodes)
    text = TEMPLATE.read_text(encoding="utf-8")
    return text.replace("@LISTEN@", listen).replace("@NODES@", servers).replace("@CACHE@", str(cache))


class Nginx:
    """nginx in the foreground with its own prefix folder, in front of the nodes."""

    def __init__(self, root: Path, port: int, nodes: Sequence[str]) -> None:
        self.root = root
        self.port = port
        self.nodes = list(nodes)
        self.log = root / "error.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _write_config(self) -> Path:
        user = _unprivileged_user()
        for folder in ("cache", "body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
            if user is not None:  # the workers run as this user and write these folders
                entry = pwd.getpwnam(user)
                os.chown(self.root / folder, entry.pw_uid, entry.pw_gid)
        (self.root / "raten.conf").write_text(render_nginx(f"127.0.0.1:{self.port}", self.nodes, self.root / "cache"))
        mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
        main = f"""daemon off;
{f"user {user};" if user else ""}
worker_processes 1;
worker_rlimit_nofile 8192;
pid {self.root}/nginx.pid;
error_log {self.log} warn;
events {{ worker_connections 4096; }}
http {{
    {mime}
    access_log off;
    client_body_temp_path {self.root}/body;
    proxy_temp_path {self.root}/proxy;
    fastcgi_temp_path {self.root}/fastcgi;
    uwsgi_temp_path {self.root}/uwsgi;
    scgi_temp_path {self.root}/scgi;
    include {self.root}/raten.conf;
}}
"""
        conf = self.root / "nginx.conf"
        conf.write_text(main)
        return conf

    def start(self) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise FileNotFoundError("nginx is not installed (`make nginx` installs Debian's nginx)")
        conf = self._write_config()
        command = [binary, "-p", str(self.root), "-c", str(conf), "-e", str(self.log)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait_ready(self, within: float = READY_WITHIN) -> None:
        """Poll ``/api/health`` through nginx until a node answers it."""
        deadline = time.monotonic() + within
        while _get(f"{self.url}/api/health") != 200:
            if self.process is None or self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start: {_tail(self.log)}")
            time.sleep(0.1)

    def stop(self) -> None:
        _end(self.process, signal.SIGQUIT, grace=10)  # SIGQUIT: finish the requests under way


# --- the whole cluster --------------------------------------------------------------------------


class Cluster:
    """PostgreSQL, Redis, ``nodes`` raten nodes and nginx on loopback ports, in one temporary folder.

    ``with Cluster(3) as c: c.url`` is nginx's address; ``c.nodes[i]`` can be killed and started
    again; everything is stopped and the folder removed on leaving."""

    def __init__(self, nodes: int = 3, port: int | None = None, node_args: Sequence[str] = ()) -> None:
        self.size = nodes
        self.port = port
        self.node_args = list(node_args)
        self.root = Path(tempfile.mkdtemp(prefix="raten-cluster-"))
        self.root.chmod(0o711)  # PostgreSQL and nginx's workers (other users under root) pass through
        self._stack = contextlib.ExitStack()
        self.postgres: Postgres | None = None
        self.redis: Redis | None = None
        self.nodes: list[Node] = []
        self.nginx: Nginx | None = None
        self.db = ""

    @property
    def url(self) -> str:
        assert self.nginx is not None
        return self.nginx.url

    def __enter__(self) -> Cluster:
        try:
            self.postgres = self._stack.enter_context(running_postgres(self.root / "postgres"))
            self.db = self.postgres.create("raten")
            self.redis = self._stack.enter_context(running_redis(self.root / "redis"))
            self.nodes = [
                Node(self.root, free_port(), self.db, self.redis.url, self.node_args) for _ in range(self.size)
            ]
            self._stack.callback(lambda: [n.stop() for n in self.nodes])
            for node in self.nodes:
                node.start()
            for node in self.nodes:
                node.wait_ready()
            self._stack.callback(lambda: self.nginx.stop() if self.nginx else None)
            self.front(self.size)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        try:
            self._stack.close()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def front(self, count: int) -> None:
        """Put nginx in front of the first ``count`` nodes (started anew on the same port)."""
        port = self.port or (self.nginx.port if self.nginx else free_port())
        if self.nginx is not None:
            self.nginx.stop()
        self.nginx = Nginx(self.root / "nginx", port, [f"127.0.0.1:{n.port}" for n in self.nodes[:count]])
        self.nginx.start()
        self.nginx.wait_ready()

    def restart(self, index: int) -> None:
        """Start node ``index`` again (after ``kill`` or ``stop``) and wait until it serves."""
        node = self.nodes[index]
        node.start()
        node.wait_ready()


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """``deploy/try-cluster``: start the whole thing until Ctrl-C (or SIGTERM), or print a host's nginx config."""
    parser = argparse.ArgumentParser(
        prog="try-cluster",
        description="Start nginx, N raten nodes, PostgreSQL and Redis on loopback ports in a temporary "
        "folder until Ctrl-C; or print the nginx config for your own nodes.",
    )
    parser.add_argument("--nodes", default="3", help="how many nodes to start (default 3); with --print-nginx: "
                        "the nodes as HOST:PORT,HOST:PORT,...")  # fmt: skip
    parser.add_argument("--port", type=int, default=8080, help="nginx's loopback port (default 8080)")
    parser.add_argument("--lists", help="the word lists every node offers (raten serve --lists; default: its own)")
    parser.add_argument("--print-nginx", action="store_true", help="print deploy/nginx/raten.conf.template filled in")
    parser.add_argument("--listen", default="80", help="with --print-nginx: where nginx listens (default 80)")
    parser.add_argument("--cache", default="/var/cache/nginx/raten", help="with --print-nginx: nginx's static cache")
    args = parser.parse_args(argv)
    if args.print_nginx:
        print(render_nginx(args.listen, [n.strip() for n in args.nodes.split(",") if n.strip()], args.cache), end="")
        return 0
    node_args = ["--lists", args.lists] if args.lists else []
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"starting PostgreSQL, Redis, {args.nodes} raten nodes and nginx (the nodes load their lists) ...")
    try:
        with Cluster(int(args.nodes), args.port, node_args) as cluster:
            print(f"raten is served at {cluster.url} by nginx over nodes on ports "
                  f"{', '.join(str(n.port) for n in cluster.nodes)}")  # fmt: skip
            print(f"database {cluster.db}; Redis {cluster.redis.url if cluster.redis else ''}; files in {cluster.root}")
            print("Ctrl-C stops everything.")
            while True:  # a node that ended (killed to try it) is started again, as systemd would
                time.sleep(1)
                for i, node in enumerate(cluster.nodes):
                    if node.process is not None and node.process.poll() is not None:
                        print(f"the node on port {node.port} ended; starting it again")
                        cluster.restart(i)
    except KeyboardInterrupt:
        pass
    except (RuntimeError, FileNotFoundError) as e:
        print(f"try-cluster: {e}", file=sys.stderr)
        return 1
    print("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
