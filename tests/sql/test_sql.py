"""The SQL face: build the feedback table into SQLite and DuckDB (classic and compact
layouts) and check that the solver written in SQL agrees with the engine.

Each en database is built once per session (the classic SQLite one takes the longest,
about 15-30 s on two cores); bad input is checked on tiny lists.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from published import EN_OPENERS
from raten.cli.main import main
from raten.engine.feedback import format_pattern, pattern
from raten.engine.matrix import load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.sql import ENGINES, SCHEMAS, SqlDatabase, build_database, render, sql_text
from raten.sql.database import show_sql
from raten.sql.queries import parameters

NO_DUCKDB = pytest.mark.skipif(importlib.util.find_spec("duckdb") is None, reason="duckdb is not installed")


def _marked(engine: str, value, id: str):
    return pytest.param(value, marks=NO_DUCKDB if engine == "duckdb" else (), id=id)


LAYOUTS = [(engine, schema) for engine in ENGINES for schema in SCHEMAS]
LAYOUT_PARAMS = [_marked(e, (e, s), id=f"{e}-{s}") for e, s in LAYOUTS]
ENGINE_PARAMS = [_marked(e, e, id=e) for e in ENGINES]


#: The full en table takes seconds to build per layout (SQLite classic about 15 s): slow.
EN_LAYOUT_PARAMS = [pytest.param(*p.values, marks=[*p.marks, pytest.mark.slow], id=p.id) for p in LAYOUT_PARAMS]


@pytest.fixture(scope="session", params=EN_LAYOUT_PARAMS)
def en_db(request, tmp_path_factory, en_words) -> SqlDatabase:
    """The en table in one layout, built once per session and opened read-only."""
    engine, schema = request.param
    path = tmp_path_factory.mktemp("sql") / f"en-{schema}.{engine}"
    build_database(en_words, path, engine, schema)
    db = SqlDatabase(path)
    yield db
    db.close()


def assert_same_hints(sql_hints, engine_hints) -> None:
    """Same words in the same order, same marks and counts, bits equal to 1e-9."""
    assert [h.word for h in sql_hints] == [h.word for h in engine_hints]
    for s, e in zip(sql_hints, engine_hints):
        assert (s.candidate, s.patterns, s.largest) == (e.candidate, e.patterns, e.largest), s.word
        assert s.bits == pytest.approx(e.bits, abs=1e-9), s.word
        assert s.expected_remaining == pytest.approx(e.expected_remaining, abs=1e-9), s.word


# --- en: the answers the issue names ---------------------------------------------------


def test_en_layout_and_meta(en_db):
    assert (en_db.guesses, en_db.answers, en_db.words_name) == (12972, 2315, "en")


def test_en_openers(en_db, en_words):
    hints = en_db.openers(10)
    assert [(h.word, round(h.bits, 4)) for h in hints] == EN_OPENERS
    assert_same_hints(hints, State(en_words).hints(top=10))


def test_en_after_crane(en_db, en_words):
    moves = [("crane", "⬜⬜🟨🟩⬜")]
    state = State(en_words).replay(moves)
    left = en_db.remaining(moves)
    assert len(left) == 20
    assert left == state.candidate_words
    hints = en_db.next_guesses(moves, 10)
    assert (hints[0].word, round(hints[0].bits, 4)) == ("tousy", 3.3414)
    assert_same_hints(hints, state.hints(top=10))


def test_en_after_soare_dumpy(en_db, en_words):
    """Two guesses (INTERSECT); two answers left, so only they are ranked, as in raten hint."""
    moves = [("soare", "⬜⬜⬜⬜⬜"), ("dumpy", "⬜🟨⬜⬜🟩")]
    state = State(en_words).replay(moves)
    assert en_db.remaining(moves) == state.candidate_words == ["unify", "unity"]
    assert_same_hints(en_db.next_guesses(moves, 5), state.hints(top=5))


def test_en_any_pattern_notation(en_db):
    """Every notation the CLI reads means the same pattern, and so does the bare code."""
    expected = en_db.remaining([("crane", "..?!.")])
    for notation in ("bbygb", "00120", "xx?!-", "⬛⬛🟨🟩⬛"):
        assert en_db.remaining([("CRANE", notation)]) == expected
    assert en_db.remaining([("crane", 15)]) == expected


def _random_history(rng: random.Random, words: WordSet, most: int = 150) -> list[tuple[str, int]]:
    """Two or three random guesses scored against a random answer, leaving at most ``most``
    answers (so that the SQLite queries stay quick)."""
    while True:
        answer = rng.choice(words.solutions)
        guesses = rng.sample(words.allowed, rng.choice((2, 3)))
        if rng.random() < 0.3:
            guesses[-1] = answer  # solved: one answer left, all green
        moves = [(g, pattern(g, answer)) for g in guesses]
        if State(words).replay(moves).count <= most:
            return moves


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_en_random_histories_agree_with_engine(en_db, en_words, seed):
    rng = random.Random(seed * 7919)
    moves = _random_history(rng, en_words)
    state = State(en_words).replay(moves)
    assert en_db.remaining(moves) == state.candidate_words, moves
    assert_same_hints(en_db.next_guesses(moves, 5), state.hints(top=5))


def test_en_no_answer_fits(en_db):
    moves = [("crane", "!!!!!"), ("slate", "!!!!!")]
    assert en_db.remaining(moves) == []
    with pytest.raises(RatenError, match="no answer in this database fits"):
        en_db.next_guesses(moves)


def test_en_query_checks_in_the_library(en_db, en_words):
    """The face's checks live in SqlDatabase.query: no guesses for openers, no empty history."""
    with pytest.raises(RatenError, match="openers takes no guesses"):
        en_db.query("openers", [("crane", ".....")])
    with pytest.raises(RatenError, match="no answer in this database fits"):
        en_db.query("remaining", [("crane", "!!!!!"), ("slate", "!!!!!")])
    with pytest.raises(RatenError, match="unknown query"):
        en_db.query("best")
    result = en_db.query("next", [("crane", "..?!.")], top=3)
    state = State(en_words).after("crane", "..?!.")
    assert result.candidates == state.candidate_words
    assert_same_hints(result.hints, state.hints(top=3))
    assert (result.engine, result.schema, result.words_name) == (en_db.engine, en_db.schema, en_db.words_name)
    remaining = en_db.query("remaining", [("crane", "..?!.")])
    assert remaining.hints is None and remaining.candidates == result.candidates
    openers = en_db.query("openers", top=2)
    assert openers.candidates is None and [h.word for h in openers.hints] == [h.word for h in en_db.openers(2)]


def test_en_show_sql_checks_the_layout(en_db):
    other = next(s for s in SCHEMAS if s != en_db.schema)
    with pytest.raises(RatenError, match=f"holds the {en_db.engine} {en_db.schema} layout"):
        show_sql("next", db=en_db.path, schema=other)
    with pytest.raises(RatenError, match="schema takes no guesses"):
        show_sql("schema", [("crane", ".....")], db=en_db.path)
    text = show_sql("next", [("crane", "..?!.")], db=en_db.path)
    assert f"$guess_1 = {en_db.word_index('crane')} (crane;" in text
    assert show_sql("remaining", engine="duckdb", schema="compact") == sql_text("remaining", "duckdb", "compact")


def test_en_cli_next_matches_hint(en_db):
    """`raten sql query ... --json` and `raten hint --json` give the same candidates and hints."""
    runner = CliRunner()
    moves = ["soare=.....", "dumpy=.?..!"]
    sql = runner.invoke(main, ["sql", "query", "--db", str(en_db.path), "next", *moves, "--json", "-n", "5"])
    hint = runner.invoke(main, ["hint", *moves, "--json", "-n", "5"])
    assert sql.exit_code == 0, sql.output
    assert hint.exit_code == 0, hint.output
    a, b = json.loads(sql.output), json.loads(hint.output)
    assert a["candidate_words"] == b["candidate_words"]
    assert [h["word"] for h in a["hints"]] == [h["word"] for h in b["hints"]]


# --- small lists: the layouts themselves, the templates, bad input ---------------------


@pytest.fixture(scope="session")
def small_words(en_words) -> WordSet:
    """60 answers and 150 allowed words from en: a table that builds in a blink."""
    rng = random.Random(5)
    sols = rng.sample(en_words.solutions, 60)
    others = rng.sample(sorted(set(en_words.allowed) - set(en_words.solutions)), 90)
    return WordSet.from_lists(sols, others, name="small")


@pytest.fixture(scope="session")
def small_files(tmp_path_factory, small_words) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("small")
    (d / "solutions.txt").write_text("\n".join(small_words.solutions) + "\n")
    (d / "allowed.txt").write_text("\n".join(small_words.allowed) + "\n")
    return d / "solutions.txt", d / "allowed.txt"


@pytest.fixture(scope="session")
def small_dbs(tmp_path_factory, small_words) -> dict[tuple[str, str], Path]:
    d = tmp_path_factory.mktemp("small-db")
    return {(e, s): build_database(small_words, d / f"small-{s}.{e}", e, s).path for e, s in LAYOUTS}


@pytest.mark.slow
def test_classic_sqlite_rows_are_the_matrix(small_dbs, small_words):
    """score(guessidx, answeridx, scoreidx) holds every pair once, with the engine's code,
    and the tables of the classic layout are all there."""
    data = load_matrix(small_words).data
    con = sqlite3.connect(small_dbs[("sqlite", "classic")])
    rows = con.execute("SELECT guessidx, answeridx, scoreidx FROM score").fetchall()
    assert len(rows) == data.size
    cols = {w: i for i, w in enumerate(small_words.solutions)}
    answer_col = {int(r): cols[small_words.allowed[r]] for r in small_words.solution_rows}
    assert all(data[g, answer_col[a]] == s for g, a, s in rows)
    assert con.execute("SELECT COUNT(*) FROM answer_index").fetchone()[0] == len(small_words.solutions)
    assert con.execute("SELECT score FROM score_index WHERE scoreidx = 15").fetchone()[0] == "⬜⬜🟨🟩⬜"
    con.close()


def test_compact_sqlite_blobs_are_the_matrix(small_dbs, small_words):
    data = load_matrix(small_words).data
    con = sqlite3.connect(small_dbs[("sqlite", "compact")])
    blobs = dict(con.execute("SELECT guessidx, scores FROM guess_score").fetchall())
    assert all(blobs[g] == data[g].tobytes() for g in range(len(small_words.allowed)))
    con.close()


@pytest.mark.parametrize("layout", LAYOUT_PARAMS)
@pytest.mark.slow
def test_small_layouts_agree_with_engine(small_dbs, small_words, layout):
    rng = random.Random(11)
    with SqlDatabase(small_dbs[layout]) as db:
        assert_same_hints(db.openers(8), State(small_words).hints(top=8))
        for _ in range(5):
            answer = rng.choice(small_words.solutions)
            moves = [(g, pattern(g, answer)) for g in rng.sample(small_words.allowed, rng.choice((1, 2)))]
            state = State(small_words).replay(moves)
            assert db.remaining(moves) == state.candidate_words
            assert_same_hints(db.next_guesses(moves, 6), state.hints(top=6))
        # no guesses yet: the openers (bits to 1e-9: DuckDB sums in parallel, in no fixed order)
        assert_same_hints(db.next_guesses([], 4), db.openers(4))


def test_render_repeats_the_move_block():
    text = sql_text("remaining", "duckdb", "classic")
    shipped = "".join(
        line for line in text.splitlines(True) if "-- begin move" not in line and "-- end move" not in line
    )
    assert render(text, 1) == shipped  # the file as shipped is the one-guess query
    three = render(text, 3)
    assert three.count("    INTERSECT\n") == 2
    assert parameters(three) == ["guess_1", "score_1", "guess_2", "score_2", "guess_3", "score_3"]
    none = render(text, 0)
    assert "$guess" not in none.split("WITH", 1)[1]
    assert "SELECT wordidx FROM answer_index" in none
    with pytest.raises(RatenError):
        render(sql_text("openers", "sqlite", "classic"), 2)


@pytest.mark.parametrize("layout", LAYOUT_PARAMS)
def test_shipped_files_run_as_they_are(small_dbs, layout):
    """Each .sql file runs unexpanded with its parameters bound (as in the sqlite3 shell)."""
    engine, schema = layout
    with SqlDatabase(small_dbs[layout]) as db:
        guess = db.word_index(db.execute("SELECT word FROM word_index LIMIT 1")[0][0])
        for name in ("openers", "remaining", "next"):
            rows = db.execute(sql_text(name, engine, schema), {"guess_1": guess, "score_1": 0, "top": 3})
            assert isinstance(rows, list)


# --- the command line ------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, ["sql", *args])


def assert_clean_error(result, *fragments: str) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.mark.parametrize("engine", ENGINE_PARAMS)
def test_cli_build_query_show(tmp_path, small_files, small_words, engine):
    sols, allowed = small_files
    db = tmp_path / f"t.{engine}"
    result = run("build", "--solutions", str(sols), "--allowed", str(allowed), "--engine", engine, "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "scores" in result.output and db.exists()
    out = run("query", "--db", str(db), "openers", "-n", "3", "--json")
    assert out.exit_code == 0, out.output
    expected = [h.word for h in State(small_words).hints(top=3)]
    assert [h["word"] for h in json.loads(out.output)["openers"]] == expected
    word = small_words.allowed[0]
    code = pattern(word, small_words.solutions[0])
    out = run("query", "--db", str(db), "remaining", f"{word}={format_pattern(code, 'emoji')}")
    assert out.exit_code == 0, out.output
    assert "candidates left" in out.output
    other = small_words.allowed[1]
    shown = run("show", "--db", str(db), "next", f"{word}={format_pattern(code)}", f"{other}=bbbbb")
    assert shown.exit_code == 0, shown.output
    assert "INTERSECT" in shown.output and f"$score_1 = {code}" in shown.output


def test_cli_show_without_db():
    result = run("show", "remaining", "--engine", "duckdb", "--schema", "compact")
    assert result.exit_code == 0
    assert "-- begin move" in result.output and "g.scores[a.answerpos + 1]" in result.output
    assert "CREATE TABLE score" in run("show", "schema").output


def test_cli_build_refuses_existing_file(tmp_path, small_files):
    sols, allowed = small_files
    db = tmp_path / "taken.sqlite"
    db.write_bytes(b"precious, not a database")
    before = db.stat().st_mtime_ns
    result = run("build", "--solutions", str(sols), "--allowed", str(allowed), "--db", str(db))
    assert_clean_error(result, "already exists", "--force")
    assert db.read_bytes() == b"precious, not a database" and db.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.sqlite"]  # no temporary file left
    stale = tmp_path / "taken.sqlite-journal"  # an old journal must not be replayed into the new file
    stale.write_bytes(b"stale journal")
    result = run("build", "--solutions", str(sols), "--allowed", str(allowed), "--db", str(db), "--force")
    assert result.exit_code == 0, result.output
    assert db.read_bytes().startswith(b"SQLite format 3\x00") and not stale.exists()
    assert run("query", "--db", str(db), "openers", "-n", "1").exit_code == 0


def test_cli_build_bad_word_list_writes_nothing(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nxyz\n")
    db = tmp_path / "out.sqlite"
    assert_clean_error(run("build", "--solutions", str(bad), "--db", str(db)), "xyz")
    assert not db.exists()
    assert_clean_error(run("build", "--db", str(tmp_path / "no" / "such.sqlite")), "does not exist")


def test_cli_missing_and_foreign_files(tmp_path):
    assert_clean_error(run("query", "--db", str(tmp_path / "nope.sqlite"), "openers"), "does not exist")
    text = tmp_path / "notes.txt"
    text.write_text("hello, I am not a database\n" * 3)
    assert_clean_error(run("query", "--db", str(text), "openers"), "neither a SQLite nor a DuckDB")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert_clean_error(run("query", "--db", str(empty), "openers"), "is empty")
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.close()
    assert_clean_error(run("query", "--db", str(other), "remaining", "crane=....."), "not one `raten sql build` wrote")
    duckdb = pytest.importorskip("duckdb")
    other_duck = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other_duck))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    assert_clean_error(run("query", "--db", str(other_duck), "openers"), "not one `raten sql build` wrote")


@pytest.mark.parametrize("engine", ENGINE_PARAMS)
def test_cli_bad_guesses(small_dbs, small_words, engine):
    db = str(small_dbs[(engine, "compact")])
    word = small_words.allowed[0]
    missing = next(w for w in ("fuzzy", "jazzy", "qajaq", "xylyl") if w not in small_words.allowed)
    assert_clean_error(run("query", "--db", db, "next", f"{missing}=....."), missing.upper(), "not in this database")
    assert_clean_error(run("query", "--db", db, "remaining", f"{word}=..?"), "3 symbols")
    assert_clean_error(run("query", "--db", db, "remaining", f"{word}=..?z."), "unknown symbol")
    assert_clean_error(run("query", "--db", db, "remaining", "cran=....."), "4 letters")
    assert_clean_error(run("query", "--db", db, "remaining", word), "GUESS=PATTERN")
    assert_clean_error(run("query", "--db", db, "openers", f"{word}=....."), "openers takes no guesses")
    assert_clean_error(run("query", "--db", db, "next", f"{word}=!!!!!", f"{word}=....."), "no answer")
    assert_clean_error(run("query", "--db", db, "openers", "-n", "0"), "at least 1")
