"""The database at start: faults are one clear line naming the file, a quick integrity
check, warnings when it looks replaced, a file only its owner can read."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest
from click.testing import CliRunner

from raten.cli.main import main as cli
from raten.errors import RatenError
from raten.web.protocol import ConnectionPolicy
from raten.web.store import Store, StoreWarning


def made(path) -> None:
    store = Store(path)
    store.secret()
    store.create_game(store.new_player(), "en", "practice", None, False, "crane")
    store.close()


def test_the_database_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "new" / "raten.sqlite3"
    store = Store(path, make_folder=True)  # the user data directory's folder is made, only that one
    store.secret()
    for p in path.parent.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    store.close()


def _not_sqlite(path) -> None:
    path.write_bytes(b"this is no database at all\n" * 200)


def _truncated(path) -> None:
    made(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _garbled(path) -> None:
    made(path)
    data = bytearray(path.read_bytes())
    data[4096:4104] = b"\xff" * 8  # the header of the second page, a table's b-tree
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_not_sqlite, _truncated, _garbled])
def test_a_damaged_database_is_one_error_naming_the_file(tmp_path, damage):
    path = tmp_path / "raten.sqlite3"
    damage(path)
    with pytest.raises(RatenError) as e:
        Store(path)
    assert str(path) in str(e.value)
    assert "\n" not in str(e.value)


def test_a_folder_that_cannot_hold_the_database(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(RatenError, match="cannot use the database"):
        Store(blocker / "raten.sqlite3")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    with pytest.raises(RatenError, match="cannot use the database"):
        Store(folder / "raten.sqlite3")


def test_games_without_a_daily_secret_warn(tmp_path):
    path = tmp_path / "raten.sqlite3"
    made(path)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta")
    with pytest.warns(StoreWarning, match="no daily secret"):
        Store(path).close()


def test_an_empty_file_beside_a_wal_warns(tmp_path):
    path = tmp_path / "raten.sqlite3"
    path.write_bytes(b"")
    (tmp_path / "raten.sqlite3-wal").write_bytes(b"\x00" * 100)
    with pytest.warns(StoreWarning, match="replaced"):
        Store(path).close()


def test_a_healthy_database_opens_without_warnings(tmp_path, recwarn):
    path = tmp_path / "raten.sqlite3"
    made(path)
    Store(path).close()
    assert not [w for w in recwarn if issubclass(w.category, StoreWarning)]


@pytest.mark.parametrize("damage", [_not_sqlite, _truncated])
def test_serve_with_a_bad_database_exits_with_one_line(tmp_path, damage, monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: pytest.fail("served"))
    path = tmp_path / "bad.sqlite3"
    damage(path)
    result = CliRunner().invoke(cli, ["serve", "--db", str(path), "--lists", "en"])
    assert result.exit_code != 0
    assert str(path) in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_serve_passes_its_limits_to_uvicorn(tmp_path, monkeypatch):
    import uvicorn

    from raten.cli import serve as serve_module

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options, app=app))
    monkeypatch.setattr(serve_module, "_wait_for_rank_workers", lambda _app: None)
    args = ["serve", "--db", str(tmp_path / "ok.sqlite3"), "--lists", "en", "--header-timeout", "3"]
    more = ["--limit-concurrency", "50", "--queue", "2", "--body-timeout", "4", "--max-head", "2048"]
    result = CliRunner().invoke(cli, [*args, *more, "--connections-per-address", "7"])
    assert result.exit_code == 0, result.output
    assert seen["limit_concurrency"] is None  # the protocol's own cap, which answers JSON
    assert seen["http"].policy == ConnectionPolicy(3, 4, 2048, 7, 50)
    assert seen["proxy_headers"] is False and seen["forwarded_allow_ips"] == ""
    assert seen["app"].state.limits.queue.depth == 2
    result = CliRunner().invoke(cli, [*args, "--proxy-headers", "--forwarded-allow-ips", "10.0.0.1"])
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is True and seen["forwarded_allow_ips"] == "10.0.0.1"


def test_one_board_rows_are_stored_as_before_many_boards():
    """A one-board row keeps its code alone (databases made before many boards read the same);
    many boards keep one code per board, None once solved."""
    from raten.web.store import stored_rows

    assert stored_rows([("crane", (242,))]) == (("crane", 242),)
    assert stored_rows([("crane", (242, 7)), ("slate", (None, 242))]) == (("crane", (242, 7)), ("slate", (None, 242)))


# --- schema versions, a missing folder, someone else's database ---------------------------------------

# The schema as raten made it before schema versions (one board and many), with a game in it.
BEFORE_VERSIONS = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id TEXT PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE games (id TEXT PRIMARY KEY, player TEXT NOT NULL REFERENCES players(id), list TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('daily', 'practice')), number INTEGER, hard INTEGER NOT NULL,
    answer TEXT NOT NULL, rows TEXT NOT NULL DEFAULT '[]', status TEXT NOT NULL DEFAULT 'playing',
    created TEXT NOT NULL, updated TEXT NOT NULL, boards INTEGER NOT NULL DEFAULT 1);
CREATE INDEX games_player ON games (player);
CREATE UNIQUE INDEX games_daily_boards ON games (player, list, boards, number) WHERE mode = 'daily';
INSERT INTO meta VALUES ('daily_secret', 'kept');
INSERT INTO players VALUES ('p', '2026-01-01');
INSERT INTO games VALUES ('g1', 'p', 'en', 'daily', 7, 0, 'crane', '[["slate", 10], ["crane", 242]]', 'won',
    'x', 'x', 1);
INSERT INTO games VALUES ('g2', 'p', 'en', 'daily', 7, 0, 'pleat,dumpy', '[["pleat", [242, 5]]]', 'playing',
    'x', 'x', 2);
"""


def test_a_database_from_before_schema_versions_keeps_every_game(tmp_path):
    from raten.web.store import DuplicateError
    from raten.web.store.migrations import VERSION_TABLE, latest

    path = tmp_path / "before.sqlite3"
    with sqlite3.connect(path) as con:
        con.executescript(BEFORE_VERSIONS)
    store = Store(path)
    every = [(v,) for v in range(1, latest("sqlite") + 1)]
    assert store.engine.read(f"SELECT version FROM {VERSION_TABLE}") == every
    assert store.secret() == "kept"
    assert store.game("p", "g1").history == (("slate", 10), ("crane", 242))
    assert store.game("p", "g2").history == (("pleat", (242, 5)),) and store.game("p", "g2").boards == 2
    assert [(f.number, f.won, f.tries) for f in store.finished("p", "en", 1, "daily")] == [(7, True, 2)]
    with pytest.raises(DuplicateError):
        store.create_game("p", "en", "daily", 7, False, "crane")
    store.close()
    Store(path).close()  # opened again: nothing left to apply, nothing lost
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)
        assert con.execute(f"SELECT count(*) FROM {VERSION_TABLE}").fetchone() == (len(every),)


def test_a_missing_folder_is_not_made(tmp_path):
    with pytest.raises(RatenError, match="does not exist") as e:
        Store(tmp_path / "missing" / "deeper" / "raten.sqlite3")
    assert "\n" not in str(e.value)
    assert not (tmp_path / "missing").exists()


def _foreign(path) -> None:
    with sqlite3.connect(path) as con:
        con.executescript("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER);")
        con.execute("INSERT INTO invoices VALUES (1, 5)")


def test_another_programs_sqlite_file_is_left_alone(tmp_path):
    path = tmp_path / "theirs.sqlite3"
    _foreign(path)
    with pytest.raises(RatenError, match=r"not raten's \(invoices\)"):
        Store(path)
    with sqlite3.connect(path) as con:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"invoices"}


def _newer(path) -> None:
    made(path)
    with sqlite3.connect(path) as con:
        con.execute("INSERT INTO raten_schema_version VALUES (999, 'later')")


@pytest.mark.parametrize(
    ("prepare", "expected"),
    [
        (_foreign, "not raten's (invoices)"),
        (_newer, "schema version 999, newer than this raten knows"),
        (None, "does not exist"),
    ],
)
def test_serve_refuses_a_database_it_must_not_use_in_one_line(tmp_path, monkeypatch, prepare, expected):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: pytest.fail("served"))
    path = tmp_path / "db.sqlite3" if prepare else tmp_path / "missing" / "db.sqlite3"
    if prepare:
        prepare(path)
    result = CliRunner().invoke(cli, ["serve", "--db", str(path), "--lists", "en"])
    assert result.exit_code != 0
    assert expected in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert prepare or not (tmp_path / "missing").exists()
