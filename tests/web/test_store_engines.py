"""The game's store on both engines (SQLite, PostgreSQL): the same rules, the same answers,
the schema versions applied at start and a database newer than the program or someone
else's refused with one clear line."""

from __future__ import annotations

import threading

import pytest

from raten.errors import RatenError
from raten.web.store import ConflictError, DuplicateError, Store
from raten.web.store.migrations import VERSION_TABLE, latest


@pytest.fixture
def store(store_target):
    opened = Store(store_target)
    yield opened
    opened.close()


def _versions(store: Store) -> list[int]:
    return [v for (v,) in store.engine.read(f"SELECT version FROM {VERSION_TABLE} ORDER BY version")]


@pytest.mark.slow
def test_a_new_database_gets_every_schema_version(store):
    assert _versions(store) == list(range(1, latest(store.engine.name) + 1))


def test_the_daily_secret_is_made_once_and_kept(store_target):
    store = Store(store_target)
    secret = store.secret()
    assert store.secret() == secret
    store.close()
    again = Store(store_target)
    assert again.secret() == secret and _versions(again) == list(range(1, latest(again.engine.name) + 1))
    again.close()


def test_players_and_their_games(store):
    alice, bob = store.new_player(), store.new_player()
    assert store.player_exists(alice) and not store.player_exists("nobody")
    game = store.create_game(alice, "en", "practice", None, True, "crane")
    assert store.game(alice, game.id) == game
    assert store.game(bob, game.id) is None  # a game is read only with the player it belongs to


def test_one_daily_game_per_player_list_boards_and_day(store):
    player = store.new_player()
    store.create_game(player, "en", "daily", 7, False, "crane")
    with pytest.raises(DuplicateError):
        store.create_game(player, "en", "daily", 7, False, "crane")
    store.create_game(player, "en", "daily", 7, False, "pleat,dumpy", 2)  # the day's Dordle is its own game
    store.create_game(player, "de", "daily", 7, False, "tarne")
    assert store.daily_game(player, "en", 7, 2).answers == ("pleat", "dumpy")
    assert store.daily_game(player, "en", 8) is None


def test_a_new_practice_game_ends_the_one_in_play(store):
    player = store.new_player()
    untouched = store.create_game(player, "en", "practice", None, False, "crane")
    second = store.create_game(player, "en", "practice", None, False, "slate")
    assert store.game(player, untouched.id) is None  # no guess yet: dropped
    store.save_rows(second, (("crane", 0),), "playing")
    store.create_game(player, "en", "practice", None, False, "pleat")
    assert store.game(player, second.id).status == "abandoned"  # it had a guess: it counts as played
    assert [(f.number, f.won, f.tries) for f in store.finished(player, "en", 1, "practice")] == [(None, False, 1)]


def test_rows_statistics_and_the_last_finished_game(store):
    player = store.new_player()
    first = store.create_game(player, "en", "daily", 1, False, "crane")
    store.save_rows(first, (("slate", 10), ("crane", 242)), "won")
    second = store.create_game(player, "en", "daily", 2, False, "pleat")
    six = tuple((w, 0) for w in ("crane", "slate", "dough", "fifty", "jumbo", "wrung"))
    lost = store.save_rows(second, six, "lost")
    boards = store.create_game(player, "en", "daily", 2, False, "pleat,dumpy", 2)
    store.save_rows(boards, (("pleat", (242, 5)), ("dumpy", (None, 242))), "won")
    counted = [(f.number, f.won, f.tries) for f in store.finished(player, "en", 1, "daily")]
    assert counted == [(1, True, 2), (2, False, 6)]
    assert store.last_finished(player, "en", 1, "daily") == lost
    many = store.game(player, boards.id)
    assert many.history == (("pleat", (242, 5)), ("dumpy", (None, 242))) and many.status == "won"


def test_hard_mode_changes_only_before_the_first_guess(store):
    player = store.new_player()
    game = store.create_game(player, "en", "practice", None, False, "crane")
    game = store.set_hard(game, True)
    assert store.game(player, game.id).hard is True
    store.save_rows(game, (("slate", 0),), "playing")
    with pytest.raises(ConflictError):
        store.set_hard(game, False)


def test_a_game_takes_a_row_once(store):
    player = store.new_player()
    game = store.create_game(player, "en", "practice", None, False, "crane")
    store.save_rows(game, (("crane", 242),), "won")
    with pytest.raises(ConflictError):
        store.save_rows(game, (("slate", 0),), "playing")  # written from the old rows
    with pytest.raises(ConflictError):
        store.save_rows(store.game(player, game.id), (("crane", 242), ("slate", 0)), "playing")  # over


def test_two_moves_at_once_one_wins(store):
    """Threads saving the same game from the same rows: exactly one write is taken."""
    player = store.new_player()
    game = store.create_game(player, "en", "practice", None, False, "crane")
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def move(word: str) -> None:
        start.wait()
        try:
            store.save_rows(game, ((word, 0),), "playing")
            outcomes.append("saved")
        except ConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=move, args=(w,)) for w in ("slate", "pleat", "dough", "jumbo")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 3 + ["saved"]
    assert len(store.game(player, game.id).history) == 1


def _with_a_later_version(monkeypatch, sql: str) -> None:
    """The shipped migrations and one more, as a later raten would ship it."""
    from raten.web.store import migrations

    shipped = migrations.available

    def more(engine: str) -> list[migrations.Migration]:
        found = shipped(engine)
        return [*found, migrations.Migration(len(found) + 1, f"{len(found) + 1:04d}_test.sql", sql)]

    monkeypatch.setattr(migrations, "available", more)


def test_a_later_version_is_applied_to_a_database_at_start_and_keeps_its_games(store_target, monkeypatch):
    store = Store(store_target)
    player = store.new_player()
    game = store.create_game(player, "en", "daily", 3, False, "crane")
    store.close()
    _with_a_later_version(monkeypatch, "ALTER TABLE players ADD COLUMN nickname TEXT;")
    store = Store(store_target)
    assert _versions(store) == list(range(1, latest(store.engine.name) + 1))  # the shipped ones and the later one
    assert store.game(player, game.id) == game
    assert store.engine.read("SELECT nickname FROM players WHERE id = ?", (player,)) == [(None,)]
    store.close()


@pytest.mark.slow
def test_a_migration_that_fails_changes_nothing(store_target, monkeypatch):
    Store(store_target).close()
    _with_a_later_version(monkeypatch, "ALTER TABLE players ADD COLUMN nickname TEXT;\nSELECT * FROM no_such_table;")
    with pytest.raises(RatenError, match="cannot use the database"):
        Store(store_target)
    monkeypatch.undo()
    store = Store(store_target)  # still the shipped version, and without the half-applied column
    assert _versions(store) == list(range(1, latest(store.engine.name) + 1))
    assert store.engine.read("SELECT count(*) FROM players") == [(0,)]
    with store.engine.transaction() as tx:
        assert "nickname" not in store.engine.columns(tx, "players")
    store.close()


def test_a_database_newer_than_the_program_is_refused(store_target):
    store = Store(store_target)
    newer = latest(store.engine.name) + 1
    with store.engine.transaction() as tx:
        tx.execute(f"INSERT INTO {VERSION_TABLE} (version, applied) VALUES (?, 'later')", (newer,))
    store.close()
    with pytest.raises(RatenError, match=f"schema version {newer}, newer than this raten knows") as e:
        Store(store_target)
    assert "\n" not in str(e.value)


def test_another_programs_database_is_refused(store_target):
    store = Store(store_target)
    with store.engine.transaction() as tx:  # make it someone else's: their table, no version table
        for table in (VERSION_TABLE, "reviews", "transfers", "games", "players", "meta"):
            tx.script(f"DROP TABLE {table};")
        tx.script("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER);")
    store.close()
    with pytest.raises(RatenError, match=r"holds tables that are not raten's \(invoices\)"):
        Store(store_target)
    check = Store.__new__(Store)  # the refused database was left as it was
    from raten.web.store.core import connect

    check.engine = connect(store_target)
    with check.engine.transaction() as tx:
        assert check.engine.tables(tx) == {"invoices"}
    check.close()


def test_an_unreachable_postgresql_is_one_line_without_its_password(postgres):
    url = postgres.url("no_such_database").replace("raten@", "raten:s3cret@")
    with pytest.raises(RatenError, match="cannot use the database") as e:
        Store(url)
    assert "s3cret" not in str(e.value) and "***" in str(e.value)
    assert "\n" not in str(e.value)


# --- the game served from each engine -----------------------------------------------------------------


@pytest.fixture(scope="module")
def en_lists(en_words):
    from raten.web.service import Lists

    return Lists.load({"en": en_words})


@pytest.mark.slow
def test_the_game_is_played_the_same_on_each_engine(store_target, en_lists):
    """A daily game from start to win and its statistics through the API, on either engine; a
    second server process on the same database (a node) sees the same game and daily word."""
    from fastapi.testclient import TestClient

    from raten.compat import feedback
    from raten.web import create_app

    apps = [create_app(lists=en_lists, db_path=store_target) for _ in range(2)]
    with TestClient(apps[0]) as client, TestClient(apps[1]) as node:
        game = client.post("/api/games", json={"list": "en", "mode": "daily"}).json()
        answer = apps[0].state.store.game(client.cookies["raten_player"], game["id"]).answer
        wrong = "crane" if answer != "crane" else "slate"
        moved = client.post(f"/api/games/{game['id']}/guesses", json={"guess": wrong}).json()
        assert moved["rows"] == [{"guess": wrong, "pattern": feedback(wrong, answer)}]
        node.cookies.set("raten_player", client.cookies["raten_player"])
        resumed = node.post("/api/games", json={"list": "en", "mode": "daily"}).json()
        assert resumed["id"] == game["id"] and resumed["rows"] == moved["rows"]
        won = node.post(f"/api/games/{game['id']}/guesses", json={"guess": answer}).json()
        assert won["status"] == "won"
        stats = client.get("/api/stats", params={"mode": "daily"}).json()
        assert stats["played"] == 1 and stats["wins"] == 1
        late = client.post(f"/api/games/{game['id']}/guesses", json={"guess": wrong})
        assert late.status_code == 409 and "error" in late.json()
    for app in apps:
        app.state.store.close()


# --- raten serve --db on each engine ------------------------------------------------------------------


def _serve(monkeypatch, db: str):
    import uvicorn
    from click.testing import CliRunner

    from raten.cli import serve as serve_module
    from raten.cli.main import main as cli

    served: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(options, app=app))
    monkeypatch.setattr(serve_module, "_wait_for_rank_workers", lambda _app: None)
    return CliRunner().invoke(cli, ["serve", "--db", db, "--lists", "en"]), served


@pytest.mark.slow
def test_serve_on_postgresql(postgres, monkeypatch):
    url = postgres.create()
    result, served = _serve(monkeypatch, url)
    assert result.exit_code == 0, result.output
    assert served["app"].state.store.engine.name == "postgresql"
    served["app"].state.store.close()


def test_serve_refuses_a_newer_postgresql_database_in_one_line(postgres, monkeypatch):
    url = postgres.create()
    store = Store(url)
    with store.engine.transaction() as tx:
        tx.execute(f"INSERT INTO {VERSION_TABLE} (version, applied) VALUES (?, 'later')", (99,))
    store.close()
    result, served = _serve(monkeypatch, url)
    assert result.exit_code != 0 and not served
    assert "schema version 99, newer than this raten knows" in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_serve_with_an_unreachable_postgresql_exits_in_one_line(postgres, monkeypatch):
    url = postgres.url("missing").replace("raten@", "raten:hunter2@")
    result, served = _serve(monkeypatch, url)
    assert result.exit_code != 0 and not served
    assert "cannot use the database" in result.output and "hunter2" not in result.output
    assert "Traceback" not in result.output


def test_a_postgresql_url_is_shown_without_its_password():
    from raten.web.store.target import redacted, shown

    assert redacted("postgresql://raten:s3cret@db.example:5432/raten") == "postgresql://raten:***@db.example:5432/raten"
    assert (
        redacted("postgres://raten@/raten?host=/run/pg&password=s3cret")
        == "postgres://raten@/raten?host=/run/pg&password=***"
    )
    assert shown("postgresql://raten@db/raten") == "postgresql://raten@db/raten"
    assert shown("/tmp/pass:word@x.sqlite3") == "/tmp/pass:word@x.sqlite3"  # a file name is shown as it is


def test_a_written_game_is_returned_as_it_is_stored(store, monkeypatch):
    """Every write returns the record as the database now holds it, its time included (a second
    that passed between reading a game and saving it made the statistics' last game differ)."""
    from raten.web.store import core

    ticks = iter(f"2026-01-01T00:{m:02d}:00+00:00" for m in range(60))
    monkeypatch.setattr(core, "_now", lambda: next(ticks))
    player = store.new_player()
    game = store.set_hard(store.create_game(player, "en", "practice", None, False, "crane"), True)
    assert store.game(player, game.id) == game
    saved = store.save_rows(game, (("crane", 242),), "won")
    assert store.game(player, game.id) == saved
