"""The on-disk cache of pattern matrices: files that cannot lie, and the tools to look after them.

Each entry is two files in :func:`cache_dir`: ``matrix-v2-<fingerprint>.npy`` (a plain
``.npy`` array, uint8 up to five letters and uint16 above, C order, memory-mapped on load) and a
``.json`` beside it with the shape, the cell type, the list names and an xxh3-128 digest of the
whole table. A load opens only regular
files (a FIFO would block forever), never parses a header it did not expect (it compares
the bytes with the header it would write), checks the size and the digest, and reports any
flaw as a reason so the caller can rebuild. Writes go through temporary files that are
removed whatever happens; those left by killed processes are removed by the next write.
"""

from __future__ import annotations

import contextlib
import io
import json
import mmap
import os
import re
import stat
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import xxhash

#: Bump when the kernel or the file layout changes, so old caches are never trusted.
FORMAT_VERSION = 2
DIGEST_ALGORITHM = "xxh3_128"
_DATA = re.compile(r"^matrix-v(\d+)-([0-9a-f]+)\.npy$")
_TEMP = re.compile(r"^matrix-v\d+-[0-9a-f]+\.(?:npy|json)\.(\d+)\.[^.]+\.tmp$")
#: A temporary file whose writer cannot be told dead is removed once it is this old (seconds).
STALE_TEMP_AGE = 24 * 3600


class UntrustedCacheError(Exception):
    """Why a cache entry cannot be trusted (the message says it to a person)."""


def cache_dir() -> Path:
    """Where matrices are cached: ``$RATEN_CACHE_DIR`` or the user cache directory."""
    env = os.environ.get("RATEN_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("raten"))


def entry_path(fingerprint: str, directory: Path | None = None) -> Path:
    """The data file of the entry for lists with this fingerprint."""
    return (directory or cache_dir()) / f"matrix-v{FORMAT_VERSION}-{fingerprint}.npy"


def meta_path(path: Path) -> Path:
    """The digest-and-names file beside a data file."""
    return path.with_suffix(".json")


#: Bytes read at a time when a cache entry's digest is checked.
READ_BYTES = 4 << 20


def digest(data: np.ndarray) -> str:
    """xxh3-128 of the table's bytes in C order: about 1 ms for 30 MB (bench/bench_cache.py)."""
    flat = np.ascontiguousarray(data)
    return f"{DIGEST_ALGORITHM}:{xxhash.xxh3_128_hexdigest(flat.data.cast('B'))}"


#: The cell types a table may have (codes of words up to five letters, then up to eight).
DTYPES = ("uint8", "uint16")


def npy_header(shape: tuple[int, ...], dtype: str = "uint8") -> bytes:
    """The exact ``.npy`` header (format 1.0) of a C-order array of this shape and cell type."""
    buf = io.BytesIO()
    descr = np.lib.format.dtype_to_descr(np.dtype(dtype))
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": tuple(shape)})
    return buf.getvalue()


@contextlib.contextmanager
def _open_regular(path: Path) -> Iterator[BinaryIO]:
    """Open for reading only if it is a regular file: never block on a FIFO or read a device."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UntrustedCacheError(f"{path.name} is not a regular file")
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


_META_KEYS = {"format", "fingerprint", "shape", "digest"}


def read_meta(path: Path) -> dict[str, Any]:
    """The ``.json`` beside a data file, checked for the keys a load needs."""
    try:
        with _open_regular(meta_path(path)) as f:
            raw = f.read(1 << 16)
    except FileNotFoundError:
        raise UntrustedCacheError("it has no digest file") from None
    try:
        meta = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise UntrustedCacheError("its digest file is not valid JSON") from None
    if not isinstance(meta, dict) or not meta.keys() >= _META_KEYS:
        raise UntrustedCacheError("its digest file lacks the shape or the digest")
    shape = meta["shape"]
    if not (isinstance(shape, list) and len(shape) == 2 and all(isinstance(n, int) and n >= 0 for n in shape)):
        raise UntrustedCacheError("its digest file has no valid shape")
    if meta.setdefault("dtype", "uint8") not in DTYPES:
        raise UntrustedCacheError("its digest file names no valid cell type")
    return meta


def read_entry(
    path: Path, shape: tuple[int, int], fingerprint: str, dtype: str = "uint8", private: bool = False
) -> np.ndarray:
    """The memory-mapped table at ``path`` if it is whole and its digest matches, else UntrustedCacheError.

    FileNotFoundError when there is no entry at all (a first run, not a flaw). ``private``: a
    copy-on-write mapping (a writable array, like one in memory, whose pages stay the file's).
    """
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    meta = read_meta(path)
    if meta["format"] != FORMAT_VERSION or meta["fingerprint"] != fingerprint:
        raise UntrustedCacheError("its digest file names other word lists")
    if tuple(meta["shape"]) != tuple(shape):
        raise UntrustedCacheError(f"it holds a {meta['shape'][0]}×{meta['shape'][1]} table, not {shape[0]}×{shape[1]}")
    if meta["dtype"] != dtype:
        raise UntrustedCacheError(f"it holds a {meta['dtype']} table, not {dtype}")
    return _map_checked(path, shape, meta["digest"], dtype, private)


def _map_checked(path: Path, shape: tuple[int, int], expected: str, dtype: str, private: bool = False) -> np.ndarray:
    """Check header bytes, size and digest, then map the data file. The digest is taken from
    reads, not through the mapping, so a process maps only the pages it then uses (the tree
    search never reads most of the guesses x solutions table)."""
    header = npy_header(shape, dtype)
    body = shape[0] * shape[1] * np.dtype(dtype).itemsize
    with _open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if f.read(len(header)) != header:
            raise UntrustedCacheError(f"its header is not that of the expected {dtype} table")
        if size != len(header) + body:
            raise UntrustedCacheError(f"it is {size} bytes long, not {len(header) + body} (truncated or padded)")
        hasher = xxhash.xxh3_128()
        while block := f.read(READ_BYTES):
            hasher.update(block)
        if f"{DIGEST_ALGORITHM}:{hasher.hexdigest()}" != expected:
            raise UntrustedCacheError("its contents do not match the digest written with it (the file changed on disk)")
        if body == 0:
            return np.zeros(shape, dtype=dtype)
        return np.memmap(f, dtype=dtype, mode="c" if private else "r", offset=len(header), shape=shape)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (one of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stale(path: Path, pid: int) -> bool:
    """A temporary file whose writer is dead, or that is older than any write takes."""
    try:
        age = time.time() - path.lstat().st_mtime
    except OSError:
        return False
    return (pid != os.getpid() and not pid_alive(pid)) or age > STALE_TEMP_AGE


def remove_stale_temps(directory: Path) -> list[Path]:
    """Remove temporary files that killed writers left behind; returns what was removed."""
    removed: list[Path] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        m = _TEMP.match(name)
        path = directory / name
        if m and _stale(path, int(m.group(1))):
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def write_entry(path: Path, data: np.ndarray, fingerprint: str, names: dict[str, Any]) -> None:
    """Write a whole table and its digest; OSError if it cannot (see :func:`write_blocks`)."""
    data = np.ascontiguousarray(data)
    write_blocks(path, data.shape, iter((data,)), fingerprint, names, str(data.dtype))


def write_blocks(
    path: Path,
    shape: tuple[int, int],
    blocks: Iterator[np.ndarray],
    fingerprint: str,
    names: dict[str, Any],
    dtype: str = "uint8",
) -> None:
    """Write a table given as consecutive row blocks, hashing as it goes; OSError if it cannot.

    Only one block is in memory at a time, so a table larger than memory can be cached.
    Temporary files are named after this process, so a later write can tell a dead
    writer's leftovers from a live one's; they are removed here whatever happens.
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(directory)
    hasher = xxhash.xxh3_128()
    temps: list[str] = []
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{path.name}.{os.getpid()}.", suffix=".tmp")
        temps.append(tmp)
        rows = 0
        with os.fdopen(fd, "wb") as f:
            if dtype not in DTYPES:
                raise ValueError(f"a table of {dtype} cells")
            f.write(npy_header(shape, dtype))
            for block in blocks:
                block = np.ascontiguousarray(block, dtype=dtype)
                if block.ndim != 2 or block.shape[1] != shape[1]:
                    raise ValueError(f"a block of shape {block.shape} does not fit a table of {shape}")
                buf = block.data.cast("B")
                hasher.update(buf)
                f.write(buf)
                rows += block.shape[0]
        if rows != shape[0]:
            raise ValueError(f"the blocks held {rows} rows, not {shape[0]}")
        meta = {
            "format": FORMAT_VERSION,
            "fingerprint": fingerprint,
            "shape": list(shape),
            "dtype": dtype,
            "digest": f"{DIGEST_ALGORITHM}:{hasher.hexdigest()}",
            **names,
        }
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{meta_path(path).name}.{os.getpid()}.", suffix=".tmp")
        temps.append(tmp)
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(meta, indent=1).encode())
        # the data first: a meta left old by a crash between the two renames fails the digest
        os.replace(temps[0], path)
        os.replace(temps[1], meta_path(path))
    finally:
        for tmp in temps:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


# --- looking after the cache: info, verify, clear -------------------------------------------


@dataclass
class Entry:
    """One file (or pair of files) in the cache folder, and whether it can be trusted."""

    file: str
    kind: str  # "matrix", "old format", "temporary", "orphan digest"
    bytes: int
    state: str  # "ok", "damaged", "old format", "temporary" (left by a dead writer)
    detail: str = ""
    fingerprint: str = ""
    name: str = ""
    language: str = ""
    shape: tuple[int, int] | None = None
    removed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        d = asdict(self)
        d["shape"] = list(self.shape) if self.shape else None
        return d


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def _check(path: Path, fingerprint: str) -> Entry:
    meta_file = meta_path(path)
    entry = Entry(path.name, "matrix", _size(path) + _size(meta_file), "ok", fingerprint=fingerprint)
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise UntrustedCacheError(f"{path.name} is not a regular file")
        meta = read_meta(path)
        entry.name, entry.language = str(meta.get("name", "")), str(meta.get("language", ""))
        entry.shape = (meta["shape"][0], meta["shape"][1])
        if meta["fingerprint"] != fingerprint or meta["format"] != FORMAT_VERSION:
            raise UntrustedCacheError("its digest file names other word lists")
        _map_checked(path, entry.shape, meta["digest"], meta["dtype"])
    except UntrustedCacheError as e:
        entry.state, entry.detail = "damaged", str(e)
    except OSError as e:
        entry.state, entry.detail = "damaged", f"cannot be read ({e.strerror or e})"
    return entry


def entries(directory: Path | None = None) -> list[Entry]:
    """Every cache file in the folder, each matrix checked against its digest."""
    directory = directory or cache_dir()
    try:
        names = sorted(os.listdir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return []
    out = []
    data_stems = set()
    for name in names:
        path = directory / name
        if m := _DATA.match(name):
            data_stems.add(path.stem)
            if int(m.group(1)) == FORMAT_VERSION:
                out.append(_check(path, m.group(2)))
            else:
                out.append(Entry(name, "old format", _size(path), "old format", "written by an older raten"))
        elif m := _TEMP.match(name):
            if _stale(path, int(m.group(1))):
                out.append(Entry(name, "temporary", _size(path), "temporary", "left by an unfinished write"))
            else:
                out.append(Entry(name, "temporary", _size(path), "ok", "being written by a running raten"))
    for name in names:
        if name.endswith(".json") and _DATA.match(name[:-5] + ".npy") and name[:-5] not in data_stems:
            out.append(Entry(name, "orphan digest", _size(directory / name), "damaged", "its table is missing"))
    return out


def _remove(directory: Path, entry: Entry) -> None:
    """Delete an entry's files (a folder in their place is left alone and noted)."""
    path = directory / entry.file
    try:
        for p in (path, meta_path(path)) if entry.kind == "matrix" else (path,):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
    except IsADirectoryError as e:
        entry.detail = _join(entry.detail, f"cannot remove {e.filename}: it is a folder")
    except OSError as e:
        entry.detail = _join(entry.detail, f"cannot remove it ({e.strerror or e})")
    else:
        entry.removed = True


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def verify(directory: Path | None = None, repair: bool = True) -> list[Entry]:
    """Check every entry; with ``repair``, remove what cannot be trusted (rebuilt on next use)."""
    directory = directory or cache_dir()
    found = entries(directory)
    if repair:
        for entry in found:
            if entry.state != "ok":
                _remove(directory, entry)
    return found


def clear(directory: Path | None = None, names: tuple[str, ...] = ()) -> list[Entry]:
    """Remove every entry, or only those of the lists named (matched by list name)."""
    directory = directory or cache_dir()
    chosen = [e for e in entries(directory) if not names or e.name in names]
    for entry in chosen:
        _remove(directory, entry)
    return chosen


def read_checked(
    path: Path,
    shape: tuple[int, int],
    fingerprint: str,
    looks_right: Callable[[np.ndarray], bool],
    dtype: str = "uint8",
    private: bool = False,
) -> np.ndarray | None:
    """A cache entry mapped, or None for the caller to rebuild: a missing entry silently (a first
    run), an untrusted, unreadable or wrong-looking one with a warning."""
    try:
        data = read_entry(path, shape, fingerprint, dtype, private)
    except (FileNotFoundError, NotADirectoryError):
        return None  # no cache yet (or the cache directory cannot exist)
    except UntrustedCacheError as e:
        warnings.warn(f"cache file {path} cannot be trusted: {e}; rebuilding it", stacklevel=4)
        return None
    except OSError as e:
        warnings.warn(f"cache file {path} is unreadable ({e.strerror or e}); rebuilding it", stacklevel=4)
        return None
    if not looks_right(data):
        warnings.warn(f"cache file {path} does not match the word lists; rebuilding it", stacklevel=4)
        return None
    _unmap_pages(data)
    return data


def _unmap_pages(data: np.ndarray) -> None:
    """Return the pages of a mapped table that its checks touched: the kernel maps 64 KB around
    every page read, so a few hundred spot checks map most of a 30 MB table into the process.
    They stay in the page cache, and come back when read (Linux; elsewhere nothing happens).
    The mapping is read-only or copy-on-write and never written, so no data is lost."""
    mapped = getattr(data, "_mmap", None)
    if mapped is not None and hasattr(mmap, "MADV_DONTNEED"):
        mapped.madvise(mmap.MADV_DONTNEED)
