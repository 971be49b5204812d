"""Write the feedback table ("rainbow table") into SQLite or DuckDB, in one of two layouts.

The table comes from the cached pattern matrix and goes in batches of guesses (or of
answers), never as one list of Python rows. Everything is written to a temporary file
next to the target, which replaces the target only when complete: an existing file is
never touched unless asked to (``force``), and never left half written.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from raten._version import __version__
from raten.engine.feedback import format_pattern
from raten.engine.matrix import load_matrix
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.extras import require
from raten.sql.queries import check_layout, sql_text, statements

#: Bump when a layout changes, so old files are refused instead of misread.
FORMAT_VERSION = 1
#: Guess x answer pairs per batch: a few MB at a time, whatever the lists.
BATCH_PAIRS = 1 << 20
#: ``score`` keeps its key in two-byte integers in DuckDB.
_DUCKDB_MAX_WORDS = 1 << 16
#: Byte b is at position b: instr(_DECODE, one-byte blob) - 1 is the byte's value.
_DECODE = bytes(range(256))
#: How the classic SQLite build reads answer ``a``'s code from a guess's blob of codes, one byte
#: each (up to five letters) or two, high byte first.
_READ_CODE = {
    1: "instr(:decode, substr(b.scores, a.answerpos + 1, 1)) - 1",
    2: "(instr(:decode, substr(b.scores, 2 * a.answerpos + 1, 1)) - 1) * 256"
    " + instr(:decode, substr(b.scores, 2 * a.answerpos + 2, 1)) - 1",
}
#: DuckDB's type of a code, one byte or two.
_DUCKDB_CODE = {1: "UTINYINT", 2: "USMALLINT"}

#: Called with (pairs written, pairs in all) after each batch.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote: where, how, how many rows, how big, how long."""

    path: Path
    engine: str
    schema: str
    words: str
    guesses: int
    answers: int
    size_bytes: int
    seconds: float

    @property
    def pairs(self) -> int:
        return self.guesses * self.answers

    def to_dict(self) -> dict:
        return {
            "path": str(self.path),
            "engine": self.engine,
            "schema": self.schema,
            "words": self.words,
            "guesses": self.guesses,
            "answers": self.answers,
            "pairs": self.pairs,
            "size_bytes": self.size_bytes,
            "seconds": round(self.seconds, 3),
        }


def build_database(
    words: WordSet,
    path: str | Path,
    engine: str = "sqlite",
    schema: str = "classic",
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the feedback table of ``words`` into a new database file at ``path``."""
    check_layout(engine, schema)
    if engine == "sqlite" and schema == "compact" and words.patterns > 256:
        raise RatenError(
            f"the compact SQLite layout keeps one byte per code, for words of up to five letters; "
            f"{words.name} has {words.length}: use --schema classic, or DuckDB",
            "sql_compact_length",
            length=words.length,
        )
    target = Path(path)
    check_target(target, force)
    if engine == "duckdb":
        _duckdb()  # fail before any work when it is missing
        if len(words.allowed) > _DUCKDB_MAX_WORDS:
            raise RatenError(f"DuckDB layouts hold at most {_DUCKDB_MAX_WORDS} words, not {len(words.allowed)}")
    start = time.perf_counter()
    matrix = load_matrix(words).data
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    _remove(tmp)
    try:
        builder = _BUILDERS[(engine, schema)]
        builder(tmp, words, matrix, progress or (lambda _done, _total: None))
        _remove_sidecars(target)  # an old journal or WAL must not be replayed into the new file
        os.replace(tmp, target)
    except (OSError, sqlite3.Error) as e:
        raise RatenError(f"cannot build {str(target)!r}: {e}") from None
    except Exception as e:
        if not type(e).__module__.startswith(("duckdb", "_duckdb")):
            raise
        raise RatenError(f"cannot build {str(target)!r}: {e}") from None
    finally:
        _remove(tmp)
    return BuildReport(
        path=target,
        engine=engine,
        schema=schema,
        words=words.name,
        guesses=len(words.allowed),
        answers=len(words.solutions),
        size_bytes=target.stat().st_size,
        seconds=time.perf_counter() - start,
    )


def check_target(target: Path, force: bool) -> None:
    """Refuse a target that exists (unless ``force``), is a folder, or lies in no folder."""
    try:
        _check_target_exists(target, force)
    except OSError as e:  # a name too long, a folder we may not look into, ...
        raise RatenError(f"cannot write {str(target)!r}: {e.strerror}") from None


def _check_target_exists(target: Path, force: bool) -> None:
    if target.is_dir():
        raise RatenError(f"{str(target)!r} is a directory, not a database file")
    if not target.parent.is_dir():
        raise RatenError(f"the folder {str(target.parent)!r} does not exist")
    if target.exists() and not force:
        raise RatenError(f"{str(target)!r} already exists; pass --force to replace it")


_SIDECARS = (".wal", "-journal", "-wal", "-shm")


def _remove_sidecars(path: Path) -> None:
    """The files SQLite (-journal, -wal, -shm) and DuckDB (.wal) keep next to a database."""
    for suffix in _SIDECARS:
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def _remove(tmp: Path) -> None:
    tmp.unlink(missing_ok=True)
    _remove_sidecars(tmp)


def _duckdb():
    require("sql", "the DuckDB engine")
    import duckdb

    return duckdb


def meta_rows(words: WordSet, engine: str, schema: str) -> list[tuple[str, str]]:
    """Provenance kept in ``raten_meta``: what the file holds and what made it."""
    return [
        ("format", str(FORMAT_VERSION)),
        ("engine", engine),
        ("schema", schema),
        ("words", words.name),
        ("language", words.language),
        ("length", str(words.length)),
        ("letters", words.alphabet.letters),
        ("fold", words.alphabet.fold),
        ("fingerprint", words.fingerprint),
        ("guesses", str(len(words.allowed))),
        ("answers", str(len(words.solutions))),
        ("any_answer", str(words.solutions == words.allowed).lower()),
        ("raten_version", __version__),
        ("built", dt.datetime.now(dt.UTC).isoformat(timespec="seconds")),
    ]


def _batches(total: int, per_batch: int):
    step = max(1, per_batch)
    for start in range(0, total, step):
        yield start, min(total, start + step)


# --- SQLite ----------------------------------------------------------------------------


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None)
    # A temporary file that replaces the target only when complete: no journal needed.
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA temp_store = MEMORY")
    con.execute("PRAGMA cache_size = -65536")
    return con


def _sqlite_common(con: sqlite3.Connection, words: WordSet, schema: str, stride: int) -> None:
    """Create the tables and fill the small ones (words, answers, scores, meta)."""
    script = sql_text("schema", "sqlite", schema).replace("{stride}", str(stride))
    for statement in statements(script):
        con.execute(statement)
    con.execute("BEGIN")
    con.executemany("INSERT INTO word_index VALUES (?, ?)", enumerate(words.allowed))
    rows = words.solution_rows.tolist()
    if schema == "classic":
        con.executemany("INSERT INTO answer_index VALUES (?)", ((r,) for r in rows))
        con.executemany(
            "INSERT INTO score_index VALUES (?, ?)",
            ((c, format_pattern(c, "emoji", words.length)) for c in range(words.patterns)),
        )
    else:
        con.executemany("INSERT INTO answer_index VALUES (?, ?)", enumerate(rows))
        con.executemany(
            "INSERT INTO score_index VALUES (?, ?, ?)",
            ((c, format_pattern(c, "emoji", words.length), bytes([c])) for c in range(words.patterns)),
        )
    con.executemany("INSERT INTO raten_meta VALUES (?, ?)", meta_rows(words, "sqlite", schema))
    con.execute("COMMIT")


def _build_sqlite_classic(path: Path, words: WordSet, matrix: np.ndarray, progress: Progress) -> None:
    """One row per pair, made inside SQLite from one blob per guess: the rows are never
    Python objects, and they arrive in key order, so every page is filled."""
    guesses, answers = matrix.shape
    stride = guesses
    con = _sqlite_connect(path)
    try:
        _sqlite_common(con, words, "classic", stride)
        con.execute("CREATE TEMP TABLE batch (guessidx INTEGER PRIMARY KEY, scores BLOB NOT NULL)")
        con.execute("CREATE TEMP TABLE answer_pos (answerpos INTEGER PRIMARY KEY, wordidx INTEGER NOT NULL)")
        con.executemany("INSERT INTO answer_pos VALUES (?, ?)", enumerate(words.solution_rows.tolist()))
        fill = (
            f"INSERT INTO score (pairidx, scoreidx) SELECT b.guessidx * :stride + a.wordidx, "
            f"{_READ_CODE[matrix.itemsize]} FROM temp.batch b CROSS JOIN temp.answer_pos a "
            "ORDER BY b.guessidx, a.answerpos"
        )
        big_endian = matrix.dtype.newbyteorder(">")
        for lo, hi in _batches(guesses, BATCH_PAIRS // answers):
            con.execute("BEGIN")
            con.execute("DELETE FROM temp.batch")
            con.executemany(
                "INSERT INTO temp.batch VALUES (?, ?)",
                ((g, matrix[g].astype(big_endian).tobytes()) for g in range(lo, hi)),
            )
            con.execute(fill, {"stride": stride, "decode": _DECODE})
            con.execute("COMMIT")
            progress(hi * answers, guesses * answers)
    finally:
        con.close()


def _build_sqlite_compact(path: Path, words: WordSet, matrix: np.ndarray, progress: Progress) -> None:
    """One row per guess: its scores as a blob, one byte per answer."""
    guesses, answers = matrix.shape
    con = _sqlite_connect(path)
    try:
        _sqlite_common(con, words, "compact", guesses)
        for lo, hi in _batches(guesses, BATCH_PAIRS // answers):
            con.execute("BEGIN")
            con.executemany("INSERT INTO guess_score VALUES (?, ?)", ((g, matrix[g].tobytes()) for g in range(lo, hi)))
            con.execute("COMMIT")
            progress(hi * answers, guesses * answers)
    finally:
        con.close()


# --- DuckDB ----------------------------------------------------------------------------


def _duckdb_connect(path: Path):
    con = _duckdb().connect(str(path))
    # Checkpoint once, at the end: each checkpoint of a growing table leaves free blocks behind.
    con.execute("SET checkpoint_threshold = '1TB'")
    return con


def _duckdb_common(con, words: WordSet, schema: str) -> None:
    """Create the tables and fill the small ones (words, answers, scores, meta)."""
    code_type = _DUCKDB_CODE[np.dtype(words.code_dtype).itemsize]
    for statement in statements(sql_text("schema", "duckdb", schema).replace("{code_type}", code_type)):
        con.execute(statement)
    rows = words.solution_rows
    tables = {
        "word_index": {"wordidx": np.arange(len(words.allowed), dtype=np.int32), "word": np.array(words.allowed)},
        "score_index": {
            "scoreidx": np.arange(words.patterns, dtype=np.int32),
            "score": np.array([format_pattern(c, "emoji", words.length) for c in range(words.patterns)]),
        },
        "answer_index": {"wordidx": rows.astype(np.int32)},
    }
    if schema == "compact":
        tables["answer_index"]["answerpos"] = np.arange(len(rows), dtype=np.int32)
    for table, columns in tables.items():
        _duckdb_insert(con, table, columns)
    con.executemany("INSERT INTO raten_meta VALUES (?, ?)", meta_rows(words, "duckdb", schema))


def _duckdb_insert(con, table: str, columns: dict[str, np.ndarray], select: str | None = None) -> None:
    """Insert numpy columns through DuckDB's scan of registered arrays (no Python rows)."""
    con.register("raten_batch", columns)
    try:
        con.execute(f"INSERT INTO {table} {select or 'BY NAME SELECT * FROM raten_batch'}")
    finally:
        con.unregister("raten_batch")


def _build_duckdb_classic(path: Path, words: WordSet, matrix: np.ndarray, progress: Progress) -> None:
    """One row per pair, answer by answer so that the index columns compress to almost nothing."""
    guesses, answers = matrix.shape
    rows = words.solution_rows.astype(np.uint16)
    guess_ids = np.arange(guesses, dtype=np.uint16)
    con = _duckdb_connect(path)
    try:
        _duckdb_common(con, words, "classic")
        for lo, hi in _batches(answers, BATCH_PAIRS // guesses):
            block = np.ascontiguousarray(matrix[:, lo:hi].T)  # answer-major: (hi - lo, guesses)
            columns = {
                "guessidx": np.tile(guess_ids, hi - lo),
                "answeridx": np.repeat(rows[lo:hi], guesses),
                "scoreidx": block.reshape(-1),
            }
            _duckdb_insert(con, "score", columns)
            progress(hi * guesses, guesses * answers)
        con.execute("CHECKPOINT")
    finally:
        con.close()


def _build_duckdb_compact(path: Path, words: WordSet, matrix: np.ndarray, progress: Progress) -> None:
    """One row per guess: its scores as a list of one-byte integers, gathered in SQL."""
    guesses, answers = matrix.shape
    positions = np.arange(answers, dtype=np.uint16)
    con = _duckdb_connect(path)
    try:
        _duckdb_common(con, words, "compact")
        gather = (
            "SELECT guessidx, list(scoreidx ORDER BY answerpos) FROM raten_batch GROUP BY guessidx ORDER BY guessidx"
        )
        for lo, hi in _batches(guesses, BATCH_PAIRS // answers):
            columns = {
                "guessidx": np.repeat(np.arange(lo, hi, dtype=np.int32), answers),
                "answerpos": np.tile(positions, hi - lo),
                "scoreidx": np.ascontiguousarray(matrix[lo:hi]).reshape(-1),
            }
            _duckdb_insert(con, "guess_score", columns, gather)
            progress(hi * answers, guesses * answers)
        con.execute("CHECKPOINT")
    finally:
        con.close()


_BUILDERS = {
    ("sqlite", "classic"): _build_sqlite_classic,
    ("sqlite", "compact"): _build_sqlite_compact,
    ("duckdb", "classic"): _build_duckdb_classic,
    ("duckdb", "compact"): _build_duckdb_compact,
}
