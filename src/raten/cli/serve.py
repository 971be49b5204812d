"""`raten serve`: the web app under uvicorn, word lists loaded and warmed before it listens."""

from __future__ import annotations

from pathlib import Path

import click

from raten.cli.common import err_console
from raten.wordlists.presets import PRESETS


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="RATEN_DB",
    help="SQLite file for games and statistics [env RATEN_DB; default: in the user data directory].",
)
@click.option(
    "--lists",
    "list_names",
    default=None,
    metavar="NAMES",
    help=f"Comma-separated word lists to offer (default: every one available of {', '.join(PRESETS)}).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes (each loads the lists; they share the database).",
)
@click.option("--log-level", default="info", show_default=True, help="uvicorn log level.")
def serve(host: str, port: int, db: Path | None, list_names: str | None, workers: int, log_level: str) -> None:
    """Serve the solver page, the game and the openers (JSON API under /api, schema at /docs)."""
    import os

    import uvicorn

    from raten.web.app import create_app
    from raten.web.store import ENV_DB, default_db_path

    names = [n.strip() for n in list_names.split(",") if n.strip()] if list_names else None
    db_path = db or default_db_path()
    err_console.print(f"loading word lists and warming up ({', '.join(names or PRESETS)}) ...")
    access_log = log_level == "debug"
    if workers > 1:
        # Each worker process builds its own app from the environment (see app_from_env).
        os.environ[ENV_DB] = str(db_path)
        os.environ[ENV_LISTS] = ",".join(names or [])
        create_app(names, db_path)  # fail here, once, if a list or the database is unusable
        uvicorn.run(
            "raten.cli.serve:app_from_env",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level=log_level,
            access_log=access_log,
        )
        return
    app = create_app(names, db_path)
    err_console.print(f"lists: {', '.join(app.state.lists.entries)}; database: {db_path}")
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=access_log)


ENV_LISTS = "RATEN_LISTS"


def app_from_env():
    """The app of one worker process of ``raten serve --workers N``."""
    import os

    from raten.web.app import create_app

    names = [n for n in os.environ.get(ENV_LISTS, "").split(",") if n] or None
    return create_app(names)
