"""The optional extras of pyproject.toml (web, sql, plot, cluster): a command that needs one that
is not installed says which to install, ``pip install 'raten[web]'``, instead of a traceback."""

from __future__ import annotations

import importlib.util

from raten.errors import RatenError

#: The modules each extra installs, by import name (pyproject.toml's optional dependencies).
EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "starlette", "uvicorn", "jinja2", "fastapi_offline"),
    "sql": ("duckdb",),
    "plot": ("matplotlib",),
    "cluster": ("dask", "distributed"),
}


def require(extra: str, what: str) -> None:
    """Nothing when every module of ``extra`` can be imported; else a RatenError (key
    ``missing_extra``) saying that ``what`` needs it and how to install it."""
    missing = [name for name in EXTRAS[extra] if _absent(name)]
    if missing:
        raise RatenError(
            f"{what} needs the {extra} extra ({', '.join(missing)} not installed): pip install 'raten[{extra}]'",
            "missing_extra",
            extra=extra,
            missing=missing,
        )


def _absent(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ValueError:  # in sys.modules without a spec
        return False
