"""`raten serve`: the web app under uvicorn, word lists loaded and warmed before it listens."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from raten.cli.common import complete_lists, err_console
from raten.errors import RatenError
from raten.extras import require
from raten.wordlists.presets import EXTRA_PRESETS, PRESETS


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--db",
    metavar="FILE|URL",
    envvar="RATEN_DB",
    help="Where games and statistics are kept: a SQLite file (its folder must exist) or a PostgreSQL "
    "URL postgresql://USER:PASSWORD@HOST:PORT/DB that several servers can share "
    "[env RATEN_DB; default: raten.sqlite3 in the user data directory].",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    envvar="RATEN_REDIS",
    help="A Redis server (redis://HOST:PORT/DB) through which several servers share the rate limits and "
    "the hint cache [env RATEN_REDIS; default: each server process its own].",
)
@click.option(
    "--lists",
    "list_names",
    default=None,
    metavar="NAMES",
    shell_complete=complete_lists,
    help=f"Comma-separated word lists to offer (default: every one available of {', '.join(PRESETS)}; "
    f"{', '.join(EXTRA_PRESETS)} when named).",
)
@click.option(
    "--list",
    "extra_lists",
    multiple=True,
    metavar="NAME=SOLUTIONS_FILE:ALLOWED_FILE",
    help="Also offer your own game's lists, one word a line (repeatable); ALLOWED_FILE may be empty, "
    "and :de after it makes a German list (keyboard and daily game); :de-umlaut, :fr, :es, :it, :nl or "
    ":pt another language, its files read in its letters.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes (each loads the lists; they share the database).",
)
@click.option(
    "--rank-workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Lower-priority processes per server process that rank states not in the cache.",
)
@click.option(
    "--queue",
    default=8,
    show_default=True,
    type=click.IntRange(0, 10_000),
    help="Uncached hint requests that may wait for a rank worker; more are answered 503.",
)
@click.option(
    "--limit-concurrency",
    default=1000,
    show_default=True,
    type=click.IntRange(1),
    help="Open connections per server process; beyond, a new one is answered 503 (JSON) and closed.",
)
@click.option(
    "--connections-per-address",
    default=64,
    show_default=True,
    type=click.IntRange(0),
    help="Open connections from one address per server process; beyond, 429 (JSON). 0: no cap (behind a "
    "proxy, which is one address and caps per client itself).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Seconds a connection may take to send a request head before it is closed.",
)
@click.option(
    "--body-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Seconds a request body may take to arrive once its head is complete; beyond, 408 (JSON).",
)
@click.option(
    "--max-head",
    default=32 * 1024,
    show_default=True,
    type=click.IntRange(1024, 1024 * 1024),
    help="Bytes a request head (request line and headers) may have; beyond, 431 (JSON).",
)
@click.option(
    "--keep-alive",
    default=5,
    show_default=True,
    type=click.IntRange(1, 600),
    help="Seconds an idle keep-alive connection stays open.",
)
@click.option(
    "--proxy-headers/--no-proxy-headers",
    default=False,
    show_default=True,
    help="Trust X-Forwarded-For/-Proto (client address, https) from --forwarded-allow-ips.",
)
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    show_default=True,
    help="Comma-separated proxy addresses whose forwarded headers are trusted (with --proxy-headers).",
)
@click.option("--log-level", default="info", show_default=True, help="uvicorn log level.")
def serve(
    host: str,
    port: int,
    db: str | None,
    redis_url: str | None,
    list_names: str | None,
    extra_lists: tuple[str, ...],
    workers: int,
    rank_workers: int,
    queue: int,
    limit_concurrency: int,
    connections_per_address: int,
    header_timeout: float,
    body_timeout: float,
    max_head: int,
    keep_alive: int,
    proxy_headers: bool,
    forwarded_allow_ips: str,
    log_level: str,
) -> None:
    """Serve the solver page, the game and the openers (JSON API under /api, schema at /docs)."""
    import os

    require("web", "raten serve")
    import uvicorn

    from raten.web.app import create_app
    from raten.web.protocol import ConnectionPolicy, guarded_protocol
    from raten.web.sharing import ENV_REDIS
    from raten.web.store import ENV_DB, default_db_path, is_postgres, open_store
    from raten.web.store.target import shown as db_shown

    names = [n.strip() for n in list_names.split(",") if n.strip()] if list_names else None
    extra = _extra_specs(extra_lists)
    db_path = (db if is_postgres(db) else Path(db)) if db else default_db_path()
    open_store(db_path).close()  # a database that cannot be used is one clear line, before the lists load
    shown = [*(names or PRESETS), *(spec.split("=", 1)[0] for spec in extra)]
    err_console.print(f"loading word lists and warming up ({', '.join(shown)}) ...")
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "access_log": log_level == "debug",
        "http": guarded_protocol(
            ConnectionPolicy(header_timeout, body_timeout, max_head, connections_per_address, limit_concurrency)
        ),
        "limit_concurrency": None,  # the protocol's own cap, which answers JSON
        "timeout_keep_alive": keep_alive,
        "proxy_headers": proxy_headers,
        "forwarded_allow_ips": forwarded_allow_ips if proxy_headers else "",
    }
    os.environ[ENV_RANK] = f"{rank_workers},{queue}"
    if workers > 1:
        # Each worker process builds its own app from the environment (see app_from_env).
        os.environ[ENV_DB] = str(db_path)
        os.environ[ENV_LISTS] = ",".join(names or [])
        os.environ[ENV_EXTRA] = "\n".join(extra)
        if redis_url:
            os.environ[ENV_REDIS] = redis_url
        # fail here, once, if a list, the database or Redis is unusable; the workers open their own connections
        create_app(names, db_path, extra_lists=extra, redis_url=redis_url).state.store.close()
        uvicorn.run("raten.cli.serve:app_from_env", factory=True, workers=workers, **options)
        return
    app = create_app(
        names, db_path, workers=rank_workers, queue=queue, processes=True, extra_lists=extra, redis_url=redis_url
    )
    _wait_for_rank_workers(app)
    shared = f"; shared through Redis at {app.state.shared.shown}" if redis_url else ""
    err_console.print(f"lists: {', '.join(app.state.lists.entries)}; database: {db_shown(db_path)}{shared}")
    uvicorn.run(app, **options)


ENV_LISTS = "RATEN_LISTS"
ENV_EXTRA = "RATEN_EXTRA_LISTS"


def _extra_specs(specs: tuple[str, ...]) -> list[str]:
    """The --list specs checked, each file path made absolute and the names told apart,
    before anything loads (the files are read when the lists load)."""
    from raten.wordlists.presets import parse_list_spec

    parsed = [parse_list_spec(s) for s in specs]
    seen: set[str] = set()
    for spec in parsed:
        if spec.name in seen:
            raise RatenError(f"--list names {spec.name!r} twice")
        seen.add(spec.name)
    return [
        str(
            replace(
                spec,
                solutions=spec.solutions.resolve(),
                allowed=spec.allowed.resolve() if spec.allowed is not None else None,
            )
        )
        for spec in parsed
    ]


ENV_RANK = "RATEN_RANK"


def _wait_for_rank_workers(app) -> None:
    """Block until every rank worker process has loaded its lists."""
    from raten.web import workers

    for future in app.state.limits.queue.prime(workers.ready):
        future.result()


def app_from_env():
    """The app of one worker process of ``raten serve --workers N``."""
    import os

    from raten.web.app import create_app
    from raten.web.sharing import ENV_REDIS

    names = [n for n in os.environ.get(ENV_LISTS, "").split(",") if n] or None
    extra = [s for s in os.environ.get(ENV_EXTRA, "").split("\n") if s]
    rank_workers, queue = (int(x) for x in os.environ.get(ENV_RANK, "1,8").split(","))
    redis_url = os.environ.get(ENV_REDIS) or None
    app = create_app(names, workers=rank_workers, queue=queue, processes=True, extra_lists=extra, redis_url=redis_url)
    _wait_for_rank_workers(app)
    return app
