"""The PostgreSQL engine (``--db postgresql://...``): psycopg 3 and its connection pool, so
any number of server processes, on one machine or several, share one database."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import psycopg.errors
import psycopg_pool

from raten.web.store.engine import Tx
from raten.web.store.records import DuplicateError
from raten.web.store.target import redacted

#: How long a request waits for a free connection, and a new connection for the server (seconds).
POOL_TIMEOUT = 10.0
CONNECT_TIMEOUT = 10

#: The errors that mean the database cannot be used (down, refused, wrong password, ...).
FAULTS: tuple[type[BaseException], ...] = (psycopg.Error, psycopg_pool.PoolTimeout, OSError)
#: The errors that mean the server cannot be used now (gone, restarting, no free connection).
RUNTIME_FAULTS: tuple[type[BaseException], ...] = (psycopg.OperationalError, psycopg_pool.PoolTimeout, OSError)


def _sql(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (the store's SQL has no other ``?`` or ``%``)."""
    return sql.replace("?", "%s")


class _Tx:
    """A transaction on one pooled connection."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: tuple = ()) -> int:
        return self._conn.execute(_sql(sql), params).rowcount

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self._conn.execute(_sql(sql), params).fetchall()

    def script(self, sql: str) -> None:
        self._conn.execute(sql.encode())  # no parameters: several statements in one go, as written


class PostgresEngine:
    """A PostgreSQL database by URL; the tables live in the connection's current schema."""

    name = "postgresql"

    def __init__(self, url: str, *, max_size: int = 8) -> None:
        """Connect once directly (so a wrong URL or a server that is down is its own clear
        message at once), then open the pool."""
        self.target = redacted(url)
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
        self._pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            timeout=POOL_TIMEOUT,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            open=False,
        )
        self._pool.open(wait=True, timeout=POOL_TIMEOUT)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[_Tx]:
        with self._pool.connection() as conn:
            try:
                with conn.transaction():
                    yield _Tx(conn)
            except psycopg.errors.UniqueViolation as e:
                raise DuplicateError(str(e).splitlines()[0]) from e

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._pool.connection() as conn:
            return conn.execute(_sql(sql), params).fetchall()

    def same(self) -> bool:
        """Always: the pool replaces broken connections itself."""
        return True

    def lock_schema(self, tx: Tx) -> None:
        """A transaction-wide advisory lock: nodes starting together migrate one after another."""
        tx.query("SELECT pg_advisory_xact_lock(hashtext('raten_schema_version'))")

    def tables(self, tx: Tx) -> set[str]:
        rows = tx.query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        return {name for (name,) in rows}

    def columns(self, tx: Tx, table: str) -> set[str]:
        rows = tx.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ?",
            (table,),
        )
        return {name for (name,) in rows}

    def adopt(self, tx: Tx) -> None:
        """Nothing to adopt: raten kept no PostgreSQL database before schema versions."""

    def close(self) -> None:
        self._pool.close()
