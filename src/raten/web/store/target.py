"""What ``--db`` names: a SQLite file (the default, in the user data directory) or a
``postgresql://`` URL; shown in messages without its password."""

from __future__ import annotations

import os
import re
from pathlib import Path

ENV_DB = "RATEN_DB"
_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (a ``postgresql://`` URL) rather than a file."""
    return isinstance(target, str) and target.startswith(_SCHEMES)


def redacted(url: str) -> str:
    """The URL with any password replaced by ``***``, for messages and logs."""
    url = re.sub(r"^([a-z]+://[^/@:]*):[^/@]*@", r"\1:***@", url)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", url)


def shown(target: str | Path) -> str:
    """``target`` as messages name it."""
    return redacted(str(target)) if is_postgres(target) else str(target)


def user_db_path() -> Path:
    """``raten.sqlite3`` in the user data directory: the one location whose folder raten makes."""
    import platformdirs

    return Path(platformdirs.user_data_dir("raten")) / "raten.sqlite3"


def default_db_path() -> str | Path:
    """``$RATEN_DB`` (a file or a URL), else ``raten.sqlite3`` in the user data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return env if is_postgres(env) else Path(env)
    return user_db_path()
