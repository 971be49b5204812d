"""What the store asks of a database engine: transactions, reads, its tables, its faults.

Every rule of the game's store is written once (``raten.web.store.core``) in SQL that both
engines read, with ``?`` placeholders; an engine only connects, runs and translates."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol


class Tx(Protocol):
    """One open transaction."""

    def execute(self, sql: str, params: tuple = ()) -> int:
        """Run one statement; its row count."""
        ...

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run one query; its rows."""
        ...

    def script(self, sql: str) -> None:
        """Run a file of statements (a migration) without parameters."""
        ...


class Engine(Protocol):
    """A connected database: SQLite (``raten.web.store.sqlite``) or PostgreSQL (``...postgres``)."""

    #: the folder of its migrations (``migrations/<name>/``)
    name: str
    #: where it is, for messages (never a password)
    target: str

    def transaction(self) -> AbstractContextManager[Tx]:
        """A transaction that holds the write lock, committed on leaving, rolled back on an error;
        a unique-key violation inside it is a ``DuplicateError``."""
        ...

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """One query outside a transaction."""
        ...

    def same(self) -> bool:
        """Whether the database is still the one opened: False when the SQLite file was replaced
        (the store opens it again); a deleted file is a fault (``RUNTIME_FAULTS``)."""
        ...

    def lock_schema(self, tx: Tx) -> None:
        """Keep other processes from migrating at the same time, until ``tx`` ends."""
        ...

    def tables(self, tx: Tx) -> set[str]:
        """The names of the tables in the database (its current schema), the engine's own left out."""
        ...

    def columns(self, tx: Tx, table: str) -> set[str]:
        """The column names of ``table`` (to recognise raten's own tables from before versions)."""
        ...

    def adopt(self, tx: Tx) -> None:
        """Bring a database made before schema versions up to the first version's shape where
        the first migration's SQL cannot (SQLite only; PostgreSQL never had one)."""
        ...

    def close(self) -> None: ...
