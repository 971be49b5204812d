"""Versioned schema migrations: ``migrations/<engine>/NNNN_name.sql``, applied in order at start.

The version table ``raten_schema_version`` holds one row per migration applied; its presence
marks a database as raten's. A database from before versions (SQLite, with raten's tables
only) is adopted; one with someone else's tables, or newer than this program, is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

from raten.errors import RatenError
from raten.web.store.engine import Engine

VERSION_TABLE = "raten_schema_version"
_CREATE_VERSION_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER PRIMARY KEY, applied TEXT NOT NULL);"
)
#: The tables of a database made before schema versions (``stats`` by the oldest ones).
_LEGACY_TABLES = {"meta", "players", "games", "stats"}
_LEGACY_GAME_COLUMNS = {"id", "player", "answer", "rows", "status"}
_FILE = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@dataclass(frozen=True)
class Migration:
    """One SQL file: its version (the file's number) and its statements."""

    version: int
    name: str
    sql: str


def available(engine: str) -> list[Migration]:
    """The engine's migrations shipped with the package, by version (numbered 1, 2, ... with no gap)."""
    folder = resources.files("raten.web.store").joinpath("migrations", engine)
    found = []
    for entry in folder.iterdir():
        match = _FILE.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"the {engine} migrations are not numbered 1..n: {[m.name for m in found]}")
    return found


def latest(engine: str) -> int:
    """The schema version this program makes and reads."""
    return len(available(engine))


def migrate(engine: Engine) -> int:
    """Bring the database to the latest version in one transaction; the version it was at.

    Refused with a ``RatenError``: a database newer than this program, or one that holds
    tables that are not raten's and no version table (another program's database)."""
    migrations = available(engine.name)
    with engine.transaction() as tx:
        engine.lock_schema(tx)
        tables = engine.tables(tx)
        if VERSION_TABLE in tables:
            (current,) = tx.query(f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}")[0]
        else:
            foreign = tables - _LEGACY_TABLES
            if tables and (foreign or "games" not in tables or not engine.columns(tx, "games") >= _LEGACY_GAME_COLUMNS):
                shown = ", ".join(sorted(foreign or tables))
                raise RatenError(
                    f"the database {engine.target} holds tables that are not raten's ({shown}):"
                    " give raten a database of its own",
                    "database_foreign",
                    path=engine.target,
                    tables=shown,
                )
            if tables:
                engine.adopt(tx)
            tx.script(_CREATE_VERSION_TABLE)
            current = 0
        if current > len(migrations):
            raise RatenError(
                f"the database {engine.target} has schema version {current}, newer than this raten knows"
                f" ({len(migrations)}): upgrade raten, or use another database",
                "database_newer",
                path=engine.target,
                version=current,
                known=len(migrations),
            )
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for migration in migrations[current:]:
            tx.script(migration.sql)
            tx.execute(f"INSERT INTO {VERSION_TABLE} (version, applied) VALUES (?, ?)", (migration.version, now))
        return int(current)
