"""The SQLite engine, the embedded default: one file, one connection behind a lock.

WAL mode, so a finished write survives the server being killed; the writes are tiny, so one
connection serialised by a lock is enough, and ``BEGIN IMMEDIATE`` keeps other processes
(``raten serve --workers N``) out while a transaction runs."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

from raten.errors import RatenError, shorten
from raten.web.store.engine import Tx
from raten.web.store.records import DuplicateError, StoreWarning

#: The errors that mean the file cannot be used as the database.
FAULTS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
#: The errors that mean the file cannot be used now, while the server runs (unwritable, locked,
#: deleted, a full disk); a constraint or a bug of ours is none of them.
RUNTIME_FAULTS: tuple[type[BaseException], ...] = (sqlite3.OperationalError, OSError)
_UNIQUE = {sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY}


def _create_private(path: Path, make_folder: bool) -> None:
    """Create an empty database file readable by its owner only (it holds the daily secret);
    SQLite gives its WAL and shared-memory files the same mode. A missing folder is made only
    when ``make_folder`` (the default location); a folder someone named must exist."""
    if make_folder:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise RatenError(
            f"cannot use the database {path}: the folder {path.parent} does not exist (raten does not create it)",
            "database",
            path=str(path),
            reason="no folder",
        )
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _looks_replaced(path: Path) -> str | None:
    """Why the file looks swapped under a live WAL (an empty database beside a non-empty WAL), or None."""
    wal = Path(f"{path}-wal")
    if path.exists() and path.stat().st_size == 0 and wal.exists() and wal.stat().st_size > 0:
        return f"{path} is empty but its write-ahead log {wal.name} is not: was the database replaced?"
    return None


def _statements(script: str) -> Iterator[str]:
    """The statements of a SQL file, one by one (so they run inside the caller's transaction,
    which ``executescript`` would commit first); a ``;`` inside a string or trigger stays put."""
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if any(line.strip() and not line.strip().startswith("--") for line in pending[:-1].splitlines()):
                yield pending
            pending = ""


class _Tx:
    """A transaction on the one connection (the engine's lock is held)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: tuple = ()) -> int:
        return self._db.execute(sql, params).rowcount

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self._db.execute(sql, params).fetchall()

    def script(self, sql: str) -> None:
        for statement in _statements(sql):
            self._db.execute(statement)


class SQLiteEngine:
    """A SQLite file (or ``:memory:``), checked quickly when it opens."""

    name = "sqlite"

    def __init__(self, path: str | Path, *, make_folder: bool = False) -> None:
        """Open (or create) the file; a damaged one fails its quick check here (``sqlite3.Error``)."""
        self.path = Path(path)
        self.target = str(path)
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            replaced = _looks_replaced(self.path)
            if replaced:
                warnings.warn(replaced, StoreWarning, stacklevel=4)
            _create_private(self.path, make_folder)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._identity = self._file_identity() if str(path) != ":memory:" else None
        try:
            self._db.execute("PRAGMA busy_timeout=5000")
            check = self._db.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise sqlite3.DatabaseError(f"integrity check failed: {shorten(str(check[0][0]))}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            self._db.close()
            raise

    @contextlib.contextmanager
    def transaction(self) -> Iterator[_Tx]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
            except sqlite3.IntegrityError as e:
                self._db.execute("ROLLBACK")
                if e.sqlite_errorcode in _UNIQUE:
                    raise DuplicateError(str(e)) from e
                raise
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _file_identity(self) -> tuple[int, int]:
        """The file's device and inode; a deleted file is a fault with the operator's way out."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise sqlite3.OperationalError(
                f"the database file {self.path} was deleted while the server runs: restore it (or stop"
                " raten and start it on a new file); until then no game is kept"
            ) from None
        return (st.st_dev, st.st_ino)

    def same(self) -> bool:
        """Whether the file at the path is still the one opened (one ``stat``: SQLite itself would
        go on writing to a deleted file, and every game written then would be lost)."""
        return self._identity is None or self._file_identity() == self._identity

    def lock_schema(self, tx: Tx) -> None:
        """Nothing more to do: ``BEGIN IMMEDIATE`` already holds the file's write lock."""

    def tables(self, tx: Tx) -> set[str]:
        rows = tx.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
        return {name for (name,) in rows}

    def adopt(self, tx: Tx) -> None:
        """A games table from before many boards gets its ``boards`` column (SQLite has no
        ``ADD COLUMN IF NOT EXISTS``); the first migration does the rest."""
        if "games" not in self.tables(tx):
            return
        columns = {row[1] for row in tx.query("PRAGMA table_info(games)")}
        if "boards" not in columns:
            tx.execute("ALTER TABLE games ADD COLUMN boards INTEGER NOT NULL DEFAULT 1")

    def columns(self, tx: Tx, table: str) -> set[str]:
        """The column names of ``table`` (to recognise raten's own tables from before versions)."""
        return {name for (name,) in tx.query("SELECT name FROM pragma_table_info(?)", (table,))}

    def close(self) -> None:
        with self._lock:
            self._db.close()
