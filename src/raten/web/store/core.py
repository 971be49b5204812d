"""The game's store: players, games in progress and finished, the daily secret.

Every rule is here once, in SQL both engines read; ``Store`` opens the engine that ``--db``
names (a file: SQLite; a ``postgresql://`` URL: PostgreSQL), migrates it and checks it.
Every game row is read and written only together with the player id it belongs to."""

from __future__ import annotations

import json
import logging
import secrets
import threading
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from raten.errors import RatenError, shorten
from raten.play.records import Finished
from raten.web.store.engine import Engine
from raten.web.store.migrations import migrate
from raten.web.store.records import (
    ConflictError,
    DuplicateError,
    GameRecord,
    StoredRow,
    StoreWarning,
    UnavailableError,
    new_id,
)
from raten.web.store.target import is_postgres
from raten.web.store.target import shown as target_shown

T = TypeVar("T")

#: The server's log (uvicorn prints it): one line when the database fails, one when it works again.
log = logging.getLogger("uvicorn.error")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _tries(rows: str) -> int:
    return len(json.loads(rows))


def connect(target: str | Path, *, make_folder: bool = False) -> Engine:
    """The engine for ``target``: a ``postgresql://`` URL or a SQLite file (``:memory:`` too)."""
    if is_postgres(target):
        try:
            from raten.web.store.postgres import PostgresEngine
        except ImportError:
            raise RatenError(
                "a postgresql:// database needs psycopg 3 and its pool: pip install 'raten[web]'", "database_driver"
            ) from None
        return PostgresEngine(str(target))
    from raten.web.store.sqlite import SQLiteEngine

    return SQLiteEngine(target, make_folder=make_folder)


class Store:
    """The database behind the game pages, on either engine."""

    def __init__(self, target: str | Path, *, make_folder: bool = False) -> None:
        """Open the database, bring its schema up to date and check it quickly.

        Any fault (not a database, damaged, unreachable, a folder that does not exist or
        cannot be written, another program's tables, a newer schema) is one ``RatenError``
        naming it; signs of a replaced database are ``StoreWarning``s. ``make_folder``: create
        a missing folder (for the default location only)."""
        shown = target_shown(target)
        engine: Engine | None = None
        try:
            engine = connect(target, make_folder=make_folder)
            migrate(engine)
            games = engine.read("SELECT count(*) FROM games")[0][0]
            has_secret = engine.read("SELECT 1 FROM meta WHERE key = 'daily_secret'")
        except Exception as e:
            if engine is not None:
                engine.close()
            if isinstance(e, RatenError) or not isinstance(e, _faults(target)):
                raise
            reason = shorten(" ".join(str(e).split()), 300)  # a server's reason is long but worth reading
            raise RatenError(
                f"cannot use the database {shown}: {reason}", "database", path=shown, reason=reason
            ) from None
        self.engine = engine
        self.target = shown
        self._target = target
        self._runtime = _runtime_faults(target)
        self._down: str | None = None  # the fault now, said once; None while the database works
        self._down_writes = False  # whether a write failed in this outage
        self._reopen_lock = threading.Lock()
        if games and not has_secret:
            warnings.warn(
                f"{shown} holds {games} games but no daily secret: was it replaced? Today's daily words will change",
                StoreWarning,
                stacklevel=2,
            )

    def close(self) -> None:
        self.engine.close()

    def _write(self, sql_params: list[tuple[str, tuple]]) -> list[int]:
        """Run statements in one transaction; the row count of each."""

        def write() -> list[int]:
            with self.engine.transaction() as tx:
                return [tx.execute(sql, params) for sql, params in sql_params]

        return self._guarded(write, writes=True)

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        return self._guarded(lambda: self.engine.read(sql, params), writes=False)

    def _guarded(self, work: Callable[[], T], writes: bool) -> T:
        """``work`` on the database, a fault of the moment turned into ``UnavailableError`` (the
        server answers 503 and keeps running) with one log line per outage and one when it ends.
        A SQLite file replaced under the server (restored from a backup) is opened again; a read
        that works does not end an outage of writes (an unwritable file is still readable)."""
        try:
            if not self.engine.same():
                self._reopen()
            result = work()
        except self._runtime as e:
            reason = shorten(" ".join(str(e).split()), 300)
            if self._down is None:
                log.error("the database %s cannot be used: %s (answering 503 until it works)", self.target, reason)
            self._down = reason
            self._down_writes = self._down_writes or writes
            raise UnavailableError(reason) from None
        if self._down is not None and (writes or not self._down_writes):
            log.warning("the database %s works again", self.target)
            self._down, self._down_writes = None, False
        return result

    def _reopen(self) -> None:
        """Open the file at the path again and bring its schema up to date (a fault stays a fault)."""
        with self._reopen_lock:
            if self.engine.same():
                return
            engine = connect(self._target)
            try:
                migrate(engine)
            except BaseException:
                engine.close()
                raise
            old, self.engine = self.engine, engine
            old.close()
            log.warning("the database file %s was replaced; opened it again", self.target)

    # --- meta and players -------------------------------------------------------------

    def secret(self) -> str:
        """The server's private seed for the daily words, made once and kept."""
        self._write([("INSERT INTO meta (key, value) VALUES ('daily_secret', ?) ON CONFLICT DO NOTHING", (new_id(),))])
        return self._read("SELECT value FROM meta WHERE key = 'daily_secret'", ())[0][0]

    def new_player(self) -> str:
        player = secrets.token_urlsafe(24)
        self._write([("INSERT INTO players (id, created) VALUES (?, ?)", (player, _now()))])
        return player

    def ping(self) -> None:
        """One trivial read: ``UnavailableError`` while the database cannot be used."""
        self._read("SELECT 1", ())

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
        is refused by the database (``DuplicateError``). A new practice game ends the player's
        practice game of that list and board count still in play, in the same transaction:
        abandoned (it counts as played) once it has a guess, else dropped."""
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
        return GameRecord(game_id, player, list_name, mode, number, hard, answer, (), "playing", boards, now, now)

    _COLUMNS = "id, player, list, mode, number, hard, answer, rows, status, boards, created, updated"

    @staticmethod
    def _record(row: tuple) -> GameRecord:
        game_id, player, list_name, mode, number, hard, answer, rows, status, boards, created, updated = row
        moves = tuple(
            (str(w), tuple(None if x is None else int(x) for x in c) if isinstance(c, list) else int(c))
            for w, c in json.loads(rows)
        )
        return GameRecord(
            game_id, player, list_name, mode, number, bool(hard), answer, moves, status, int(boards), created, updated
        )

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
            "SELECT number, status, rows FROM games"
            " WHERE player = ? AND list = ? AND boards = ? AND mode = ? AND status IN ('won', 'lost', 'abandoned')"
            " ORDER BY created, rowid",
            (player, list_name, boards, mode),
        )
        return [Finished(number, status == "won", _tries(moves)) for number, status, moves in rows]

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
        now = _now()
        (count,) = self._write(
            [
                (
                    "UPDATE games SET hard = ?, updated = ? WHERE id = ? AND player = ? AND rows = '[]'",
                    (int(hard), now, record.id, record.player),
                )
            ]
        )
        if not count:
            raise ConflictError("hard mode can only change before the first guess")
        return GameRecord(**{**record.__dict__, "hard": hard, "updated": now})

    def save_rows(self, record: GameRecord, rows: tuple[StoredRow, ...], status: str) -> GameRecord:
        """Store the game's new rows and status. Refused (``ConflictError``) if the rows changed
        meanwhile, so a game ends (and counts) once, and a game no longer in play takes no row."""
        now = _now()
        (count,) = self._write(
            [
                (
                    "UPDATE games SET rows = ?, status = ?, updated = ?"
                    " WHERE id = ? AND player = ? AND rows = ? AND status = 'playing'",
                    (
                        json.dumps([list(r) for r in rows]),
                        status,
                        now,
                        record.id,
                        record.player,
                        json.dumps([list(r) for r in record.history]),
                    ),
                )
            ]
        )
        if count != 1:
            raise ConflictError("the game changed meanwhile; reload it")
        # as stored: the time of this write too (a second may have passed since the game was read)
        return GameRecord(**{**record.__dict__, "history": rows, "status": status, "updated": now})

    # --- history, reviews and games that travel -----------------------------------------

    def history(self, player: str, limit: int) -> list[GameRecord]:
        """The player's games that have a guess (and the daily ones begun), newest first, at most ``limit``."""
        rows = self._read(
            f"SELECT {self._COLUMNS} FROM games WHERE player = ? AND (rows <> '[]' OR mode = 'daily')"
            " ORDER BY created DESC, rowid DESC LIMIT ?",
            (player, limit),
        )
        return [self._record(r) for r in rows]

    def finished_games(self, player: str) -> list[GameRecord]:
        """Every game of the player's that is over (won, lost, given up), in the order they were begun."""
        rows = self._read(
            f"SELECT {self._COLUMNS} FROM games WHERE player = ? AND status IN ('won', 'lost', 'abandoned')"
            " ORDER BY created, rowid",
            (player,),
        )
        return [self._record(r) for r in rows]

    def reviewed(self, player: str) -> set[str]:
        """The ids of the player's games whose review is kept."""
        return {game for (game,) in self._read("SELECT game FROM reviews WHERE player = ?", (player,))}

    def review(self, player: str, game_id: str) -> str | None:
        """The kept review of a game of the player's (JSON), or None."""
        rows = self._read("SELECT review FROM reviews WHERE player = ? AND game = ?", (player, game_id))
        return rows[0][0] if rows else None

    def keep_review(self, player: str, game_id: str, review: str) -> None:
        """Keep a game's review (a second one for the same game, made by another node meanwhile, is dropped)."""
        self._write(
            [
                (
                    "INSERT INTO reviews (player, game, review, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (player, game_id, review, _now()),
                )
            ]
        )

    def signing_key(self) -> str:
        """The server's private key for the files players take their games away in, made once and kept."""
        self._write([("INSERT INTO meta (key, value) VALUES ('export_key', ?) ON CONFLICT DO NOTHING", (new_id(),))])
        return self._read("SELECT value FROM meta WHERE key = 'export_key'", ())[0][0]

    def new_transfer(self, player: str, code: str) -> None:
        """Keep a short code that names the player's games (``ConflictError``: the code is taken)."""
        try:
            self._write([("INSERT INTO transfers (code, player, created) VALUES (?, ?, ?)", (code, player, _now()))])
        except DuplicateError:
            raise ConflictError("that code is taken") from None

    def transfer(self, code: str, since: str) -> str | None:
        """The player a code made after ``since`` (ISO time) names, or None."""
        rows = self._read("SELECT player FROM transfers WHERE code = ? AND created > ?", (code, since))
        return rows[0][0] if rows else None

    def forget_transfers(self, before: str) -> None:
        """Drop the codes made before ``before`` (ISO time)."""
        self._write([("DELETE FROM transfers WHERE created < ?", (before,))])

    def import_games(self, player: str, games: list[GameRecord]) -> tuple[int, int, int]:
        """Copy finished games to ``player``, merged by game id, in one transaction: (added, already
        there, refused because the player has that day's daily game of the list already)."""
        mine = {g for (g,) in self._read("SELECT id FROM games WHERE player = ?", (player,))}
        fresh = [g for g in games if g.id not in mine]
        inserts = [
            (
                f"INSERT INTO games ({self._COLUMNS}) VALUES ({', '.join('?' * 12)}) ON CONFLICT DO NOTHING",
                (
                    g.id, player, g.list, g.mode, g.number, int(g.hard), g.answer,
                    json.dumps([list(r) for r in g.history]), g.status, g.boards, g.created, g.updated,
                ),
            )
            for g in fresh
        ]  # fmt: skip
        added = sum(self._write(inserts)) if inserts else 0
        return added, len(games) - len(fresh), len(fresh) - added


def _runtime_faults(target: str | Path) -> tuple[type[BaseException], ...]:
    """The errors that mean the database cannot be used now, while the server runs."""
    if is_postgres(target):
        from raten.web.store.postgres import RUNTIME_FAULTS

        return RUNTIME_FAULTS
    from raten.web.store.sqlite import RUNTIME_FAULTS as SQLITE_RUNTIME_FAULTS

    return SQLITE_RUNTIME_FAULTS


def _faults(target: str | Path) -> tuple[type[BaseException], ...]:
    """The errors that mean the database named by ``target`` cannot be used (not a bug of ours)."""
    if is_postgres(target):
        from raten.web.store.postgres import FAULTS

        return FAULTS
    from raten.web.store.sqlite import FAULTS as SQLITE_FAULTS

    return SQLITE_FAULTS
