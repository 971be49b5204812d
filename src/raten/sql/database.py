"""Open a database that ``raten sql build`` wrote and run the packaged solver queries on it.

Words and patterns are translated here (a word to its ``wordidx``, any pattern notation
to its code, 0..242 for five letters); the solving itself happens in the ``.sql`` files.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.request import pathname2url

from raten.engine.alphabet import ASCII_LETTERS, Alphabet
from raten.engine.feedback import format_pattern, parse_pattern
from raten.engine.rank import Hint
from raten.engine.words import check_word
from raten.errors import RatenError
from raten.sql.build import FORMAT_VERSION, _duckdb
from raten.sql.queries import ENGINES, QUERIES, SCHEMAS, SHOWABLE, parameters, render, sql_text, statements

_SQLITE_MAGIC = b"SQLite format 3\x00"
_DUCKDB_MAGIC = b"DUCK"  # at offset 8 of a DuckDB file

Move = tuple[str, "str | int"]


def detect_engine(path: str | Path) -> str:
    """``sqlite`` or ``duckdb``, from the file's first bytes; a clear error for anything else."""
    p = Path(path)
    try:
        return _engine_of(p)
    except OSError as e:
        raise RatenError(f"cannot read {str(p)!r}: {e.strerror}") from None


def _engine_of(p: Path) -> str:
    if not p.exists():
        raise RatenError(f"database {str(p)!r} does not exist; build it with `raten sql build --db {p}`")
    if p.is_dir():
        raise RatenError(f"{str(p)!r} is a directory, not a database file")
    with p.open("rb") as f:
        head = f.read(16)
    if head.startswith(_SQLITE_MAGIC):
        return "sqlite"
    if head[8:12] == _DUCKDB_MAGIC:
        return "duckdb"
    what = "empty" if not head else "neither a SQLite nor a DuckDB database"
    raise RatenError(f"{str(p)!r} is {what}; build one with `raten sql build --db FILE`")


@dataclass(frozen=True)
class QueryResult:
    """What one solver query found, with the layout it ran on (for a face's title).

    ``candidates`` is None for ``openers``; ``hints`` is None for ``remaining``.
    """

    query: str
    engine: str
    schema: str
    words_name: str
    candidates: list[str] | None = None
    hints: list[Hint] | None = None


def check_query(query: str, moves) -> None:
    """Insist on a known query, and on no scored guesses for ``openers``."""
    if query not in QUERIES:
        raise RatenError(f"unknown query {query!r}: choose one of {', '.join(QUERIES)}")
    if query == "openers" and moves:
        raise RatenError("openers takes no guesses; use `next` for the best guess after some")


class SqlDatabase:
    """A raten database opened read-only: its engine, layout and word list, and the solver."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.engine = detect_engine(self.path)
        self._con = self._connect()
        try:
            self.meta = self._read_meta()
        except BaseException:
            self.close()
            raise
        self.schema: str = self.meta["schema"]
        self.words_name: str = self.meta.get("words", "?")
        self.guesses = int(self.meta["guesses"])
        self.answers = int(self.meta["answers"])
        #: the words' length and alphabet (files built before other lengths hold five letters a-z)
        self.length = int(self.meta.get("length", 5))
        self.alphabet = Alphabet(self.meta.get("letters", ASCII_LETTERS), self.meta.get("fold", "umlauts"))

    # --- connection ----------------------------------------------------------------

    def _connect(self):
        if self.engine == "sqlite":
            uri = f"file:{pathname2url(str(self.path.resolve()))}?mode=ro"
            try:
                con = sqlite3.connect(uri, uri=True)
                con.execute("PRAGMA cache_size = -262144")  # up to 256 MB of pages
                con.execute("PRAGMA mmap_size = 1073741824")
            except sqlite3.Error as e:
                raise RatenError(f"cannot open {str(self.path)!r} with SQLite: {e}") from None
            _ensure_log2(con)
            return con
        duckdb = _duckdb()
        try:
            return duckdb.connect(str(self.path), read_only=True)
        except duckdb.Error as e:
            raise RatenError(f"cannot open {str(self.path)!r} with DuckDB: {e}") from None

    def close(self) -> None:
        """Let go of the file."""
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> SqlDatabase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read_meta(self) -> dict[str, str]:
        try:
            meta = dict(self._con.execute("SELECT key, value FROM raten_meta").fetchall())
        except Exception as e:  # sqlite3.Error or duckdb.Error: the table is not there
            if not _is_db_error(e):
                raise
            raise RatenError(
                f"{str(self.path)!r} is a {self.engine} database, but not one `raten sql build` wrote "
                "(no raten_meta table)"
            ) from None
        if meta.get("format") != str(FORMAT_VERSION):
            raise RatenError(
                f"{str(self.path)!r} was built in layout format {meta.get('format')!r}, this raten reads "
                f"{FORMAT_VERSION}: rebuild it with `raten sql build --force`"
            )
        if meta.get("schema") not in SCHEMAS or meta.get("engine") != self.engine:
            raise RatenError(f"{str(self.path)!r} has an unknown layout ({meta.get('engine')}, {meta.get('schema')})")
        return meta

    def execute(self, sql: str, params: dict | None = None) -> list[tuple]:
        """Run a query with named ``$parameters`` and return its rows; statements before the
        last one (settings) run first, without parameters. Engine errors become RatenError."""
        params = params or {}
        *settings, query = statements(sql)
        try:
            for statement in settings:
                self._con.execute(statement)
            return self._con.execute(query, {k: params[k] for k in parameters(query)}).fetchall()
        except KeyError as e:
            raise RatenError(f"the query needs the parameter ${e.args[0]}") from None
        except Exception as e:
            if not _is_db_error(e):
                raise
            raise RatenError(f"{self.engine} failed on {str(self.path)!r}: {e}") from None

    # --- the solver ----------------------------------------------------------------

    def sql(self, name: str, moves: int = 1) -> str:
        """The statement for query ``name`` on this database, expanded for ``moves`` guesses."""
        return render(sql_text(name, self.engine, self.schema), moves)

    def word_index(self, word: str) -> int:
        """The ``wordidx`` of a guess; a clear error when the table does not hold it."""
        norm = check_word(word, "guess", length=self.length, alphabet=self.alphabet)
        row = self._con.execute("SELECT wordidx FROM word_index WHERE word = ?", [norm]).fetchone()
        if row is None:
            raise RatenError(
                f"{norm.upper()} is not in this database's word list ({self.words_name}, {self.guesses} words)"
            )
        return int(row[0])

    def bind_moves(self, moves: Sequence[Move]) -> dict[str, int]:
        """``$guess_N`` and ``$score_N`` for each (guess, pattern): the pattern in any notation or a code."""
        params: dict[str, int] = {}
        for k, (guess, pattern) in enumerate(moves, start=1):
            params[f"guess_{k}"] = self.word_index(guess)
            params[f"score_{k}"] = _read_code(pattern, self.length)
        return params

    def remaining(self, moves: Sequence[Move] = ()) -> list[str]:
        """The answers that fit every scored guess, alphabetically."""
        rows = self.execute(self.sql("remaining", len(moves)), self.bind_moves(moves))
        return [r[0] for r in rows]

    def openers(self, top: int = 10) -> list[Hint]:
        """The best first guesses by entropy, computed in SQL."""
        return self._hints(self.execute(self.sql("openers", 0), {"top": _top(top)}))

    def next_guesses(self, moves: Sequence[Move], top: int = 10) -> list[Hint]:
        """The best next guesses after ``moves``, computed in SQL (openers when there are none)."""
        if not moves:
            return self.openers(top)
        params = {**self.bind_moves(moves), "top": _top(top)}
        hints = self._hints(self.execute(self.sql("next", len(moves)), params))
        if not hints:  # no answer left: nothing to rank against
            raise RatenError(_no_answer_message(moves, self.length))
        return hints

    def query(self, query: str, moves: Sequence[Move] = (), top: int = 10) -> QueryResult:
        """Run ``openers``, ``remaining`` or ``next`` after ``moves``; a RatenError when
        ``openers`` gets guesses or no answer in the table fits the guesses."""
        check_query(query, moves)
        found = QueryResult(query=query, engine=self.engine, schema=self.schema, words_name=self.words_name)
        if query == "openers":
            return replace(found, hints=self.openers(top))
        words = self.remaining(moves)
        if not words:
            raise RatenError(_no_answer_message(moves, self.length))
        hints = self.next_guesses(moves, top) if query == "next" else None
        return replace(found, candidates=words, hints=hints)

    @staticmethod
    def _hints(rows: list[tuple]) -> list[Hint]:
        return [
            Hint(
                word=word,
                bits=float(bits) + 0.0,  # + 0.0: no -0.0 for a guess that tells nothing
                candidate=bool(candidate),
                patterns=int(patterns),
                largest=int(largest),
                expected_remaining=float(expected),
            )
            for word, bits, candidate, patterns, largest, expected in rows
        ]


def show_sql(
    what: str,
    moves: Sequence[Move] = (),
    *,
    engine: str | None = None,
    schema: str | None = None,
    db: str | Path | None = None,
) -> str:
    """The SQL of query ``what`` (or ``schema``) as raten runs it.

    Without guesses, the packaged file as it is; with guesses, expanded for them, the values
    raten binds listed first as comments (the ``wordidx`` values need ``db``). The layout
    defaults to the ``db`` file's (or sqlite classic); a RatenError if it differs from the file's.
    """
    if what not in SHOWABLE:
        raise RatenError(f"unknown query {what!r}: choose one of {', '.join(SHOWABLE)}")
    database = SqlDatabase(db) if db is not None else None
    try:
        if database is not None:
            engine = engine or database.engine
            schema = schema or database.schema
            if (engine, schema) != (database.engine, database.schema):
                raise RatenError(f"{db} holds the {database.engine} {database.schema} layout, not {engine} {schema}")
        text = sql_text(what, engine or "sqlite", schema or "classic")
        if not moves:
            return text
        if what in ("openers", "schema"):
            raise RatenError(f"{what} takes no guesses")
        return _bindings(moves, database) + render(text, len(moves))
    finally:
        if database is not None:
            database.close()


def _bindings(moves: Sequence[Move], database: SqlDatabase | None) -> str:
    """A comment block with the values raten binds for these guesses."""
    lines = []
    for k, (guess, pattern) in enumerate(moves, start=1):
        if database is not None:
            word = check_word(guess, "guess", length=database.length, alphabet=database.alphabet)
        else:
            word = check_word(guess, "guess")
        code = _read_code(pattern, len(word))
        idx = database.word_index(word) if database is not None else "?"
        lines.append(f"-- $guess_{k} = {idx} ({word}; SELECT wordidx FROM word_index WHERE word = '{word}')")
        lines.append(f"-- $score_{k} = {code} ({format_pattern(code, 'emoji', len(word))})")
    return "\n".join(lines) + "\n"


def _no_answer_message(moves, length: int) -> str:
    """Why a history leaves nothing: the SQL tables hold only the answers (no fallback)."""
    shown = " ".join(f"{g}={format_pattern(_read_code(p, length), length=length)}" for g, p in moves)
    return (
        f"no answer in this database fits {shown}; check the colours you entered "
        "(unlike `raten hint`, the SQL solver has no fallback to the other allowed words)"
    )


def _top(top: int) -> int:
    if top < 1:
        raise RatenError("--top must be at least 1")
    return int(top)


def _read_code(pattern: str | int, length: int) -> int:
    """A pattern in any notation, or a code, as the code of a word of ``length`` letters (a
    RatenError outside them)."""
    if isinstance(pattern, str):
        return parse_pattern(pattern, length)
    format_pattern(int(pattern), length=length)  # raises for codes outside the length's codes
    return int(pattern)


def _ensure_log2(con: sqlite3.Connection) -> None:
    """SQLite has LOG2 only when built with its math functions: register it otherwise."""
    try:
        con.execute("SELECT log2(2)").fetchone()
    except sqlite3.OperationalError:
        con.create_function("log2", 1, math.log2, deterministic=True)


def _is_db_error(e: Exception) -> bool:
    if isinstance(e, sqlite3.Error):
        return True
    mod = type(e).__module__ or ""
    return mod.startswith(("duckdb", "_duckdb"))


__all__ = ["ENGINES", "SCHEMAS", "QueryResult", "SqlDatabase", "check_query", "detect_engine", "show_sql"]
