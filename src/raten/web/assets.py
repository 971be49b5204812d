"""Static files with content-hashed URLs: a URL whose ``?v=`` is the file's hash is cached for a
year as immutable (a change of the file changes its URL); any other URL is revalidated each time.

The pages link ``/static/raten.css?v=<hash>`` through ``Assets.url``; the API docs' viewers are
served the same way from the ``fastapi-offline`` package's files (no CDN: /docs works offline).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import threading
from pathlib import Path
from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

#: The answer header of a URL that carries the file's hash: kept for a year, never revalidated.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The answer header of any other static URL: cached, but checked (ETag) before each use.
REVALIDATE = "no-cache"


def docs_assets_dir() -> Path:
    """Where the ``fastapi-offline`` package keeps Swagger UI's and ReDoc's files."""
    return Path(str(importlib.resources.files("fastapi_offline") / "static"))


class Assets:
    """The content hashes of one directory's files, computed once per file and version of it."""

    def __init__(self, directory: Path, prefix: str) -> None:
        self.directory = directory.resolve()
        self.prefix = prefix.rstrip("/")
        self._hashes: dict[str, tuple[tuple[int, int], str]] = {}
        self._lock = threading.Lock()

    def digest(self, name: str) -> str | None:
        """The first 12 hex digits of the file's SHA-256, or None when there is no such file."""
        path = (self.directory / name).resolve()
        if not path.is_relative_to(self.directory) or not path.is_file():
            return None
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            known = self._hashes.get(name)
            if known and known[0] == key:
                return known[1]
        value = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        with self._lock:
            self._hashes[name] = (key, value)
        return value

    def url(self, name: str) -> str:
        """The file's versioned URL (``/static/raten.css?v=1a2b3c4d5e6f``)."""
        digest = self.digest(name)
        if digest is None:
            raise FileNotFoundError(f"no static file {name!r} in {self.directory}")
        return f"{self.prefix}/{name}?v={digest}"


class VersionedStatic(StaticFiles):
    """``StaticFiles`` whose answers say how long to keep them (``IMMUTABLE`` when ``?v=`` is the
    file's current hash, else ``REVALIDATE``)."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=assets.directory)
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            wanted = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [None])[0]
            current = self.assets.digest(path) if wanted else None
            response.headers["cache-control"] = IMMUTABLE if wanted and wanted == current else REVALIDATE
        return response
