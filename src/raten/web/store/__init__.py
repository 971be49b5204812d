"""The game's store behind one interface, on SQLite (the embedded default) or PostgreSQL.

``Store(target)`` opens a SQLite file or a ``postgresql://`` URL, applies the schema
migrations and hands out ``GameRecord``s; see ``core`` (the rules), ``sqlite`` and ``postgres``
(the engines), ``migrations`` (the versioned SQL files)."""

from __future__ import annotations

from pathlib import Path

from raten.web.store.core import Store
from raten.web.store.records import (
    ConflictError,
    DuplicateError,
    GameRecord,
    StoredRow,
    StoreWarning,
    UnavailableError,
    new_id,
    stored_rows,
)
from raten.web.store.target import ENV_DB, default_db_path, is_postgres, user_db_path

__all__ = [
    "ENV_DB",
    "ConflictError",
    "DuplicateError",
    "GameRecord",
    "Store",
    "StoreWarning",
    "StoredRow",
    "UnavailableError",
    "default_db_path",
    "is_postgres",
    "new_id",
    "open_store",
    "stored_rows",
    "user_db_path",
]


def open_store(target: str | Path | None = None) -> Store:
    """The store ``target`` names, else the default one (``$RATEN_DB`` or the user data
    directory); only the user data directory's folder is made when it is missing."""
    target = target if target is not None else default_db_path()
    return Store(target, make_folder=isinstance(target, Path) and target == user_db_path())
