"""A memo table shared by the worker processes of one run, and kept between runs.

The live table is a file in shared memory (``/dev/shm``, else the temporary directory) that
the main process creates and every worker maps (``attach``); the compiled search reads and
writes it without locks, and a slot torn by two writers reads as a miss (``raten.trees.memo``).
The main process loads a saved table into it when a run starts and saves the slots in use
(with an xxh3-128 digest) every few minutes and when the run ends, so a resumed run starts
with what the earlier one learnt. Both files carry a fingerprint of the word lists and
prior, the mode, the guess limit, the Zobrist keys and the source of the search's kernels:
a table made for other lists, another mode or by another version of the search is never read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import re
import secrets
import stat
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import xxhash

from raten.engine.cache import pid_alive
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees import memo as tm

#: Bump when the layout of a slot or of the files changes.
MEMO_FORMAT = 1
#: The shared memo's size unless told (``raten tree --best --memo-gb``): en's whole proof stores
#: a few hundred thousand entries, which land on most of the table's pages, so every worker maps
#: about all of it (a 1 GB table made each worker's resident memory 1.2 GB).
DEFAULT_MEMO_GB = 0.5
#: The largest table ``--memo-gb`` may ask for (the 24 GB machine keeps room for the rest).
MAX_GB = 16.0
#: Bytes before the slots in both files: a magic line and a JSON header, padded.
HEADER_BYTES = 4096
_MAGIC = b"RATEN-MEMO\n"
_LIVE = re.compile(r"^raten-memo-(\d+)-[0-9a-f]+\.bin$")
#: Slots read or written at a time when a table is saved or loaded.
CHUNK = 1 << 20
#: Sources whose code decides what an entry means: a change to any of them starts a new memo.
_KERNEL_MODULES = ("raten.trees.kernels", "raten.trees.memo", "raten.engine.hardmode")


def check_memo_gb(gb: float) -> None:
    """RatenError unless ``gb`` is a size ``--memo-gb`` takes: 0 (private memos) up to MAX_GB."""
    if not 0 <= gb <= MAX_GB:
        raise RatenError(f"--memo-gb must be from 0 (a private memo per process) to {MAX_GB:g}")


def slots_for(gb: float) -> int:
    """Slots of a shared table of ``gb`` gigabytes (above 0); RatenError outside (0, MAX_GB]."""
    check_memo_gb(gb)
    if gb == 0:
        raise RatenError("--memo-gb 0 asks for private memos: there is no shared table to size")
    return max(1, int(gb * (1 << 30)) // tm.SLOT_BYTES)


def _source_hash() -> bytes:
    """A hash of the kernels' source (and raten's version, for an install without sources)."""
    import importlib.util

    from raten._version import __version__

    h = hashlib.sha256(__version__.encode())
    for name in _KERNEL_MODULES:
        spec = importlib.util.find_spec(name)
        h.update(name.encode())
        try:
            h.update(Path(spec.origin).read_bytes() if spec and spec.origin else b"?")
        except OSError:
            h.update(b"?")
    return h.digest()


def memo_fingerprint(words: WordSet, hard: bool, max_guesses: int | None) -> str:
    """What a memo entry's meaning depends on: lists and prior, mode, guess limit, keys, kernels."""
    n = len(words.solutions)
    h = hashlib.sha256()
    h.update(f"raten-memo-{MEMO_FORMAT}|{words.prior_key}|{'hard' if hard else 'normal'}|{max_guesses}|".encode())
    h.update(tm.zobrist(n, 1).tobytes())
    h.update(tm.zobrist(n, 2).tobytes())
    h.update(_source_hash())
    return h.hexdigest()[:32]


def _header(fields: dict) -> bytes:
    body = _MAGIC + json.dumps(fields, sort_keys=True).encode() + b"\n"
    if len(body) > HEADER_BYTES:
        raise ValueError("memo header too long")
    return body.ljust(HEADER_BYTES, b" ")


def _read_header(f) -> dict:
    raw = f.read(HEADER_BYTES)
    if len(raw) != HEADER_BYTES or not raw.startswith(_MAGIC):
        raise ValueError("not a raten memo file")
    try:
        fields = json.loads(raw[len(_MAGIC) :].split(b"\n", 1)[0])
    except ValueError:
        raise ValueError("its header is not valid JSON") from None
    if not isinstance(fields, dict):
        raise ValueError("its header is not a JSON object")
    return fields


def _open_regular(path: Path, flags: int = os.O_RDONLY):
    """A file object for a regular file only (never block on a FIFO or read a device)."""
    fd = os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{path.name} is not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb" if flags == os.O_RDONLY else "r+b")
    except BaseException:
        os.close(fd)
        raise


# --- the live table -------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoHandle:
    """What a worker needs to map a run's live table (small: it travels with every job spec)."""

    path: str
    slots: int
    token: str  #: this run's random id, in the file's header: never another run's table
    fingerprint: str


def _map(path: Path, slots: int) -> np.ndarray:
    """The slots of a live file, mapped shared and writable, as a plain array."""
    with _open_regular(path, os.O_RDWR) as f:
        size = HEADER_BYTES + slots * tm.SLOT_BYTES
        if os.fstat(f.fileno()).st_size != size:
            raise ValueError(f"{path.name} is not {size} bytes long")
        mm = mmap.mmap(f.fileno(), size)  # the mapping outlives the file object
    return np.frombuffer(mm, dtype=np.uint64, count=slots * tm.WORDS, offset=HEADER_BYTES).reshape(slots, tm.WORDS)


def attach(handle: MemoHandle) -> np.ndarray:
    """Map a run's live table (OSError or ValueError if it is gone or is another run's)."""
    path = Path(handle.path)
    with _open_regular(path) as f:
        fields = _read_header(f)
    if (fields.get("token"), fields.get("fingerprint"), fields.get("slots")) != (
        handle.token,
        handle.fingerprint,
        handle.slots,
    ):
        raise ValueError(f"{path.name} belongs to another run")
    return _map(path, handle.slots)


def _room(directory: Path) -> int:
    """Bytes free for us in ``directory`` (0 when it cannot be told)."""
    try:
        st = os.statvfs(directory)
    except OSError:
        return 0
    return st.f_bavail * st.f_frsize


def live_dir(size: int = 0) -> Path:
    """Where a live table of ``size`` bytes goes: shared memory when the system has it with room
    for the table (a full tmpfs would kill a worker with SIGBUS mid-run, and a container's is
    often 64 MB), else the temporary directory; RatenError when neither has room."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and _room(shm) > size:
        return shm
    tmp = Path(tempfile.gettempdir())
    if _room(tmp) > size:
        return tmp
    raise RatenError(f"no room for a shared memo of {size / (1 << 30):.2f} GB in /dev/shm or {tmp}; lower --memo-gb")


def remove_stale_live(directory: Path) -> list[Path]:
    """Remove live tables whose run is dead (killed before it could remove its own)."""
    removed = []
    with contextlib.suppress(OSError):
        for name in os.listdir(directory):
            m = _LIVE.match(name)
            if m and int(m.group(1)) != os.getpid() and not pid_alive(int(m.group(1))):
                with contextlib.suppress(OSError):
                    (directory / name).unlink()
                    removed.append(directory / name)
    return removed


class SharedMemo:
    """A run's live table (owned by the main process): created empty or from a saved table,
    saved on request, removed by ``close``."""

    def __init__(self, fingerprint: str, slots: int, saved: Path | None = None, directory: Path | None = None):
        self.fingerprint = fingerprint
        self.saved = saved
        directory = directory or live_dir(HEADER_BYTES + slots * tm.SLOT_BYTES)
        remove_stale_live(directory)
        token = secrets.token_hex(8)
        path = directory / f"raten-memo-{os.getpid()}-{token}.bin"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, _header({"fingerprint": fingerprint, "token": token, "slots": slots}))
            os.ftruncate(fd, HEADER_BYTES + slots * tm.SLOT_BYTES)  # sparse: pages come as they are used
        finally:
            os.close(fd)
        self.handle = MemoHandle(str(path), slots, token, fingerprint)
        self.table = _map(path, slots)
        #: slots taken over from the saved table (0 when there was none or it could not be used)
        self.loaded = load_memo(self.table, saved, fingerprint) if saved else 0

    def save(self) -> int:
        """Save the slots in use to ``saved`` (if given); returns how many (0 when it cannot, with a warning)."""
        if self.saved is None:
            return 0
        try:
            return save_memo(self.table, self.saved, self.fingerprint)
        except OSError as e:
            warnings.warn(f"cannot save the memo to {self.saved} ({e.strerror or e})", stacklevel=2)
            return 0

    def close(self) -> None:
        """Remove the live file (the memory goes when the last process unmaps it)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.handle.path)

    def __enter__(self) -> SharedMemo:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- saved tables ---------------------------------------------------------------------------


def save_memo(table: np.ndarray, path: Path, fingerprint: str) -> int:
    """Write the slots of ``table`` in use to ``path`` (atomically, with a digest); returns how many.

    Workers may still write the table meanwhile: a slot torn by that is caught by its seal on load.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.{os.getpid()}.", suffix=".tmp")
    hasher = xxhash.xxh3_128()
    rows = 0
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(b" " * HEADER_BYTES)
            for start in range(0, table.shape[0], CHUNK):
                block = table[start : start + CHUNK]
                used = np.ascontiguousarray(block[block[:, 0] != 0])
                if used.shape[0]:
                    buf = used.data.cast("B")
                    hasher.update(buf)
                    f.write(buf)
                    rows += used.shape[0]
            f.seek(0)
            f.write(
                _header(
                    {
                        "format": MEMO_FORMAT,
                        "fingerprint": fingerprint,
                        "rows": rows,
                        "digest": f"xxh3_128:{hasher.hexdigest()}",
                    }
                )
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return rows


def load_memo(table: np.ndarray, path: Path, fingerprint: str) -> int:
    """Merge a saved table into ``table``; returns the slots taken over. A missing file is silent
    (a first run); one made for other lists, mode or kernels, or damaged, is skipped with a warning
    and leaves ``table`` empty."""
    try:
        f = _open_regular(path)
    except FileNotFoundError:
        return 0
    except (OSError, ValueError) as e:
        warnings.warn(f"memo file {path} cannot be read ({e}); starting with an empty memo", stacklevel=2)
        return 0
    with f:
        try:
            fields = _read_header(f)
            if fields.get("format") != MEMO_FORMAT or fields.get("fingerprint") != fingerprint:
                raise ValueError(
                    "it was made for other lists, another mode or guess limit, or another version of the search"
                )
            rows = fields.get("rows")
            if not isinstance(rows, int) or rows < 0:
                raise ValueError("its header has no row count")
            size = os.fstat(f.fileno()).st_size
            if size != HEADER_BYTES + rows * tm.SLOT_BYTES:
                raise ValueError(f"it is {size} bytes long, not {HEADER_BYTES + rows * tm.SLOT_BYTES}")
            hasher = xxhash.xxh3_128()
            kept = 0
            left = rows
            while left:
                take = min(left, CHUNK)
                raw = f.read(take * tm.SLOT_BYTES)
                if len(raw) != take * tm.SLOT_BYTES:
                    raise ValueError("it ended early")
                hasher.update(raw)
                kept += tm.memo_merge(table, np.frombuffer(raw, dtype=np.uint64).reshape(take, tm.WORDS))
                left -= take
            if fields.get("digest") != f"xxh3_128:{hasher.hexdigest()}":
                raise ValueError("its contents do not match its digest")
        except (OSError, ValueError) as e:
            table[:] = 0
            warnings.warn(f"memo file {path} not used: {e}; starting with an empty memo", stacklevel=2)
            return 0
    return int(kept)
