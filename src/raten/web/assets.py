"""Static files with content-hashed URLs: a URL whose ``?v=`` is the file's hash is cached for a
year as immutable (a change of the file changes its URL); any other URL is revalidated each time.

The pages link ``/static/raten.css?v=<hash>`` through ``Assets.url``; the API docs' viewers are
served the same way from the ``fastapi-offline`` package's files (no CDN: /docs works offline).

The page scripts are ES modules that import each other by relative path (``import { tr } from
"./config.js"``). A module is served with each such import carrying the imported file's hash
(``"./config.js?v=<hash>"``), and its own hash is that of the text served: a change in any module
it imports, however deep, changes its URL too. ``Assets.url`` of a module also lists the URLs of
everything it imports (``imports``), for the page's ``<link rel="modulepreload">`` tags (no
waterfall of requests, and the service worker learns what to keep for offline use).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import posixpath
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

#: The answer header of a URL that carries the file's hash: kept for a year, never revalidated.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The answer header of any other static URL: cached, but checked (ETag) before each use.
REVALIDATE = "no-cache"
#: A static import or re-export of a module by relative path, at the start of a line:
#: ``import { a } from "./x.js"``, ``export { b } from "../y.js"``, ``import "./z.js"``.
_IMPORT = re.compile(r"""^((?:import|export)\b[^"';]*?\bfrom\s*|import\s*)(["'])(\.\.?/[^"'?#]+\.js)\2""", re.M)
_JS = "text/javascript; charset=utf-8"


class AssetUrl(str):
    """A file's versioned URL; for a module, ``imports`` are the versioned URLs of the modules it
    imports, directly or not (each once, in the order they are first imported)."""

    imports: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Served:
    """A file as served, for one version of it and of what it imports."""

    key: tuple[int, int]  # the file's mtime and size
    deps: tuple[tuple[str, str], ...]  # (name, digest) of each module it imports directly
    body: bytes  # with its imports versioned; empty for a file served as it is (no imports)
    digest: str


def docs_assets_dir() -> Path:
    """Where the ``fastapi-offline`` package keeps Swagger UI's and ReDoc's files."""
    return Path(str(importlib.resources.files("fastapi_offline") / "static"))


class Assets:
    """The content hashes of one directory's files, computed once per file and version of it."""

    def __init__(self, directory: Path, prefix: str) -> None:
        self.directory = directory.resolve()
        self.prefix = prefix.rstrip("/")
        self._served: dict[str, _Served] = {}
        self._lock = threading.Lock()

    def _path(self, name: str) -> Path | None:
        path = (self.directory / name).resolve()
        return path if path.is_relative_to(self.directory) and path.is_file() else None

    def served(self, name: str, _importers: tuple[str, ...] = ()) -> _Served | None:
        """The file as served (a module's imports versioned), or None when there is no such file.
        An import circle cannot be versioned (each file's hash would need the other's): an error."""
        path = self._path(name)
        if path is None:
            return None
        name = path.relative_to(self.directory).as_posix()
        if name in _importers:
            raise ValueError("modules importing each other in a circle: " + " -> ".join((*_importers, name)))
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            known = self._served.get(name)
        if known and known.key == key and all(self._digest(d, (*_importers, name)) == v for d, v in known.deps):
            return known
        raw = path.read_bytes()
        deps: dict[str, str] = {}
        body = raw
        if name.endswith(".js"):

            def versioned(m: re.Match[str]) -> str:
                dep = posixpath.normpath(posixpath.join(posixpath.dirname(name), m[3]))
                digest = self._digest(dep, (*_importers, name))
                if digest is None:
                    raise FileNotFoundError(f"{name} imports {m[3]}, which is not a static file")
                deps[dep] = digest
                return f"{m[1]}{m[2]}{m[3]}?v={digest}{m[2]}"

            body = _IMPORT.sub(versioned, raw.decode()).encode()
        digest = hashlib.sha256(body).hexdigest()[:12]
        made = _Served(key, tuple(deps.items()), body if deps else b"", digest)
        with self._lock:
            self._served[name] = made
        return made

    def _digest(self, name: str, importers: tuple[str, ...]) -> str | None:
        served = self.served(name, importers)
        return served.digest if served else None

    def digest(self, name: str) -> str | None:
        """The first 12 hex digits of the SHA-256 of the file as served, or None when there is no
        such file (for a file that imports nothing: of the file itself)."""
        return self._digest(name, ())

    def imports(self, name: str) -> list[str]:
        """The modules ``name`` imports, directly or through others, each once."""
        out: dict[str, None] = {}

        def walk(module: str) -> None:
            served = self.served(module)
            for dep, _ in served.deps if served else ():
                if dep not in out:
                    out[dep] = None
                    walk(dep)

        walk(name)
        return list(out)

    def url(self, name: str) -> AssetUrl:
        """The file's versioned URL (``/static/raten.css?v=1a2b3c4d5e6f``), with the versioned
        URLs of the modules it imports as ``imports``."""
        digest = self.digest(name)
        if digest is None:
            raise FileNotFoundError(f"no static file {name!r} in {self.directory}")
        url = AssetUrl(f"{self.prefix}/{name}?v={digest}")
        url.imports = tuple(f"{self.prefix}/{dep}?v={self.digest(dep)}" for dep in self.imports(name))
        return url


class VersionedStatic(StaticFiles):
    """``StaticFiles`` whose answers say how long to keep them (``IMMUTABLE`` when ``?v=`` is the
    file's current hash, else ``REVALIDATE``)."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=assets.directory)
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        served = self.assets.served(path) if scope["method"] in ("GET", "HEAD") else None
        if served is not None and served.deps:  # a module whose imports carry their versions
            etag = f'"{served.digest}"'
            if etag in Headers(scope=scope).get("if-none-match", ""):
                response = Response(status_code=304, headers={"etag": etag})
            else:
                response = Response(served.body, media_type=_JS, headers={"etag": etag})
        else:
            response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            wanted = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [None])[0]
            current = self.assets.digest(path) if wanted else None
            response.headers["cache-control"] = IMMUTABLE if wanted and wanted == current else REVALIDATE
        return response
