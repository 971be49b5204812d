"""SQLite storage for the web game: players, games in progress and finished, statistics.

WAL mode, so a finished write survives the server being killed; one connection behind a
lock (the writes are tiny), and every game row is read and written only together with
the player id it belongs to.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from raten.errors import RatenError, shorten
from raten.play.records import Finished

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id),
    list TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('daily', 'practice')),
    number INTEGER,
    hard INTEGER NOT NULL,
    answer TEXT NOT NULL,
    rows TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'playing',
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    boards INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS games_player ON games (player);
"""
# Databases made before many boards: a games table without ``boards`` and a daily index
# without it; statistics are worked out from the games (``raten.play.records``), so the old
# ``stats`` table is no longer read or written.
_MIGRATE_BOARDS = """
ALTER TABLE games ADD COLUMN boards INTEGER NOT NULL DEFAULT 1;
"""
_DAILY_INDEX = """
DROP INDEX IF EXISTS games_daily;
CREATE UNIQUE INDEX IF NOT EXISTS games_daily_boards ON games (player, list, boards, number) WHERE mode = 'daily';
"""

ENV_DB = "RATEN_DB"


def default_db_path() -> Path:
    """``$RATEN_DB``, else ``raten.sqlite3`` in the user data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("raten")) / "raten.sqlite3"


def new_id() -> str:
    """An unguessable id (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: A stored row: the guess and its code, or on many boards its code per board (None once solved).
StoredRow = tuple[str, int | tuple[int | None, ...]]


def stored_rows(rows: Sequence[tuple[str, tuple[int | None, ...]]]) -> tuple[StoredRow, ...]:
    """A game's rows (``raten.play.game.Game.rows``) as the store keeps them: on one board the
    code alone, as games were kept before many boards; on many one code per board."""
    return tuple((g, codes[0] if len(codes) == 1 and codes[0] is not None else codes) for g, codes in rows)


@dataclass(frozen=True)
class GameRecord:
    """A stored game: who plays it, on which list, its answer and its rows (word, code).

    On ``boards`` > 1 the answer holds the boards' answers joined by commas and each row
    has one code per board (see ``answers``)."""

    id: str
    player: str
    list: str
    mode: str
    number: int | None
    hard: bool
    answer: str
    history: tuple[StoredRow, ...]
    status: str
    boards: int = 1

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(self.answer.split(","))

    @property
    def guesses(self) -> tuple[str, ...]:
        return tuple(row[0] for row in self.history)


class ConflictError(Exception):
    """The game changed under a write (two guesses at once): the later one is refused."""


class StoreWarning(UserWarning):
    """The database opened but looks replaced or reset (the daily words will change)."""


def _create_private(path: Path) -> None:
    """Create an empty database file readable by its owner only (it holds the daily secret);
    SQLite gives its WAL and shared-memory files the same mode."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _looks_replaced(path: Path) -> str | None:
    """Why the file looks swapped under a live WAL (an empty database beside a non-empty WAL), or None."""
    wal = Path(f"{path}-wal")
    if path.exists() and path.stat().st_size == 0 and wal.exists() and wal.stat().st_size > 0:
        return f"{path} is empty but its write-ahead log {wal.name} is not: was the database replaced?"
    return None


class Store:
    """The database behind the game pages."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the database, check it quickly and add the tables it lacks.

        Any fault (not a database, damaged, a folder that cannot be written) is one
        ``RatenError`` naming the file; signs of a replaced database are ``StoreWarning``s.
        """
        self.path = Path(path)
        self._lock = threading.Lock()
        memory = str(path) == ":memory:"
        try:
            if not memory:
                replaced = _looks_replaced(self.path)
                if replaced:
                    warnings.warn(replaced, StoreWarning, stacklevel=2)
                _create_private(self.path)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout=5000")
            check = self._db.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise sqlite3.DatabaseError(f"integrity check failed: {shorten(str(check[0][0]))}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._lock:
                self._db.executescript(_SCHEMA)
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
                if "boards" not in columns:
                    self._db.executescript(_MIGRATE_BOARDS)
                self._db.executescript(_DAILY_INDEX)
            games = self._db.execute("SELECT count(*) FROM games").fetchone()[0]
            has_secret = self._db.execute("SELECT 1 FROM meta WHERE key = 'daily_secret'").fetchall()
        except (sqlite3.Error, OSError) as e:
            raise RatenError(
                f"cannot use the database {path}: {e}", "database", path=str(path), reason=str(e)
            ) from None
        if games and not has_secret:
            warnings.warn(
                f"{path} holds {games} games but no daily secret: was it replaced? Today's daily words will change",
                StoreWarning,
                stacklevel=2,
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql_params: list[tuple[str, tuple]]) -> list[int]:
        """Run statements in one transaction; the row count of each."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                counts = [self._db.execute(sql, params).rowcount for sql, params in sql_params]
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return counts

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    # --- meta and players -------------------------------------------------------------

    def secret(self) -> str:
        """The server's private seed for the daily words, made once and kept."""
        self._write([("INSERT OR IGNORE INTO meta (key, value) VALUES ('daily_secret', ?)", (new_id(),))])
        return self._read("SELECT value FROM meta WHERE key = 'daily_secret'", ())[0][0]

    def new_player(self) -> str:
        player = secrets.token_urlsafe(24)
        self._write([("INSERT INTO players (id, created) VALUES (?, ?)", (player, _now()))])
        return player

    def player_exists(self, player: str) -> bool:
        return bool(self._read("SELECT 1 FROM players WHERE id = ?", (player,)))

    # --- games ------------------------------------------------------------------------

    def create_game(
        self,
        player: str,
        list_name: str,
        mode: str,
        number: int | None,
        hard: bool,
        answer: str,
        boards: int = 1,
    ) -> GameRecord:
        """Store a new game. A second daily game for the same player, list, board count and day
        is refused by the database (``sqlite3.IntegrityError``). A new practice game ends the
        player's practice game of that list and board count still in play, in the same
        transaction: abandoned (it counts as played) once it has a guess, else dropped."""
        game_id = new_id()
        now = _now()
        writes: list[tuple[str, tuple]] = []
        if mode == "practice":
            mine = "player = ? AND list = ? AND boards = ? AND mode = 'practice' AND status = 'playing'"
            writes += [
                (f"DELETE FROM games WHERE {mine} AND rows = '[]'", (player, list_name, boards)),
                (f"UPDATE games SET status = 'abandoned', updated = ? WHERE {mine}", (now, player, list_name, boards)),
            ]
        writes.append(
            (
                "INSERT INTO games (id, player, list, mode, number, hard, answer, created, updated, boards)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, player, list_name, mode, number, int(hard), answer, now, now, boards),
            )
        )
        self._write(writes)
        return GameRecord(game_id, player, list_name, mode, number, hard, answer, (), "playing", boards)

    _COLUMNS = "id, player, list, mode, number, hard, answer, rows, status, boards"

    @staticmethod
    def _record(row: tuple) -> GameRecord:
        game_id, player, list_name, mode, number, hard, answer, rows, status, boards = row
        moves = tuple(
            (str(w), tuple(None if x is None else int(x) for x in c) if isinstance(c, list) else int(c))
            for w, c in json.loads(rows)
        )
        return GameRecord(game_id, player, list_name, mode, number, bool(hard), answer, moves, status, int(boards))

    def game(self, player: str, game_id: str) -> GameRecord | None:
        """The game with this id if it belongs to ``player``, else None."""
        rows = self._read(f"SELECT {self._COLUMNS} FROM games WHERE id = ? AND player = ?", (game_id, player))
        return self._record(rows[0]) if rows else None

    def daily_game(self, player: str, list_name: str, number: int, boards: int = 1) -> GameRecord | None:
        rows = self._read(
            f"SELECT {self._COLUMNS} FROM games"
            " WHERE player = ? AND list = ? AND number = ? AND boards = ? AND mode = 'daily'",
            (player, list_name, number, boards),
        )
        return self._record(rows[0]) if rows else None

    def finished(self, player: str, list_name: str, boards: int, mode: str) -> list[Finished]:
        """The player's games of one list, board count and mode that count in the statistics
        (won, lost, abandoned), in the order they were begun."""
        rows = self._read(
            "SELECT number, status, json_array_length(rows) FROM games"
            " WHERE player = ? AND list = ? AND boards = ? AND mode = ? AND status IN ('won', 'lost', 'abandoned')"
            " ORDER BY rowid",
            (player, list_name, boards, mode),
        )
        return [Finished(number, status == "won", tries) for number, status, tries in rows]

    def last_finished(self, player: str, list_name: str, boards: int, mode: str) -> GameRecord | None:
        """The player's game of one list, board count and mode that ended last (won or lost)."""
        rows = self._read(
            f"SELECT {self._COLUMNS} FROM games WHERE player = ? AND list = ? AND boards = ? AND mode = ?"
            " AND status IN ('won', 'lost') ORDER BY updated DESC, rowid DESC LIMIT 1",
            (player, list_name, boards, mode),
        )
        return self._record(rows[0]) if rows else None

    def set_hard(self, record: GameRecord, hard: bool) -> GameRecord:
        """Switch hard mode of a game that has no guesses yet."""
        (count,) = self._write(
            [
                (
                    "UPDATE games SET hard = ?, updated = ? WHERE id = ? AND player = ? AND rows = '[]'",
                    (int(hard), _now(), record.id, record.player),
                )
            ]
        )
        if not count:
            raise ConflictError("hard mode can only change before the first guess")
        return GameRecord(**{**record.__dict__, "hard": hard})

    def save_rows(self, record: GameRecord, rows: tuple[StoredRow, ...], status: str) -> GameRecord:
        """Store the game's new rows and status. Refused (``ConflictError``) if the rows changed
        meanwhile, so a game ends (and counts) once, and a game no longer in play takes no row."""
        (count,) = self._write(
            [
                (
                    "UPDATE games SET rows = ?, status = ?, updated = ?"
                    " WHERE id = ? AND player = ? AND rows = ? AND status = 'playing'",
                    (
                        json.dumps([list(r) for r in rows]),
                        status,
                        _now(),
                        record.id,
                        record.player,
                        json.dumps([list(r) for r in record.history]),
                    ),
                )
            ]
        )
        if count != 1:
            raise ConflictError("the game changed meanwhile; reload it")
        return GameRecord(**{**record.__dict__, "history": rows, "status": status})
