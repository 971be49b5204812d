"""The SQL face on words of 4 and 6 letters (two bytes a code above five), some beyond a-z:
every layout that holds them agrees with the engine; the compact SQLite layout, one byte a
code, refuses longer words clearly."""

from __future__ import annotations

import importlib.util
import random
import sqlite3

import pytest

from raten.engine.alphabet import Alphabet
from raten.engine.feedback import format_pattern, pattern
from raten.engine.matrix import load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.sql import SqlDatabase, build_database
from raten.sql.database import show_sql

NO_DUCKDB = pytest.mark.skipif(importlib.util.find_spec("duckdb") is None, reason="duckdb is not installed")
KEPT = Alphabet("abcdefghijklmnopqrstuvwxyzäöü")


def random_words(length: int, seed: int = 4) -> WordSet:
    """40 answers among 120 random strings over a few letters, ä and ü among them."""
    rng = random.Random(seed)
    pool: set[str] = set()
    while len(pool) < 120:
        pool.add("".join(rng.choice("aeilnrstäü") for _ in range(length)))
    allowed = sorted(pool)
    return WordSet.from_lists(rng.sample(allowed, 40), allowed, name=f"w{length}", alphabet=KEPT)


LAYOUTS = [
    (4, "sqlite", "classic"),
    (4, "sqlite", "compact"),
    (6, "sqlite", "classic"),
    pytest.param(4, "duckdb", "classic", marks=NO_DUCKDB),
    pytest.param(6, "duckdb", "classic", marks=NO_DUCKDB),
    pytest.param(6, "duckdb", "compact", marks=NO_DUCKDB),
]


@pytest.mark.parametrize(("length", "engine", "schema"), LAYOUTS)
@pytest.mark.slow
def test_layouts_of_other_lengths_agree_with_the_engine(tmp_path, length, engine, schema) -> None:
    words = random_words(length)
    path = build_database(words, tmp_path / f"w.{engine}", engine, schema).path
    rng = random.Random(length)
    with SqlDatabase(path) as db:
        assert (db.length, db.alphabet) == (length, KEPT)
        assert [h.word for h in db.openers(5)] == [h.word for h in State(words).hints(top=5)]
        for _ in range(3):
            answer = rng.choice(words.solutions)
            moves = [(g, pattern(g, answer)) for g in rng.sample(words.allowed, 2)]
            state = State(words).replay(moves)
            assert db.remaining(moves) == state.candidate_words
            typed = [(g.upper(), format_pattern(c, "emoji", length)) for g, c in moves]
            assert db.remaining(typed) == state.candidate_words
            if state.count:
                assert [h.word for h in db.next_guesses(moves, 4)] == [h.word for h in state.hints(top=4)]
        with pytest.raises(RatenError, match=f"has {length + 1} symbols, not {length}"):
            db.remaining([(words.allowed[0], "." * (length + 1))])
        assert f"-- $score_1 = {words.all_green}" in show_sql("remaining", [(words.allowed[0], "!" * length)], db=path)


def test_classic_sqlite_holds_two_byte_codes(tmp_path) -> None:
    words = random_words(6)
    path = build_database(words, tmp_path / "w.sqlite", "sqlite", "classic").path
    data = load_matrix(words).data
    assert int(data.max()) > 255  # codes that need two bytes
    con = sqlite3.connect(path)
    rows = con.execute("SELECT guessidx, answeridx, scoreidx FROM score").fetchall()
    cols = {w: i for i, w in enumerate(words.solutions)}
    answer_col = {int(r): cols[words.allowed[r]] for r in words.solution_rows}
    assert len(rows) == data.size and all(data[g, answer_col[a]] == s for g, a, s in rows)
    assert con.execute("SELECT COUNT(*) FROM score_index").fetchone()[0] == 729
    con.close()


def test_compact_sqlite_refuses_words_above_five_letters(tmp_path) -> None:
    with pytest.raises(RatenError, match="one byte per code, for words of up to five letters") as info:
        build_database(random_words(6), tmp_path / "w.sqlite", "sqlite", "compact")
    assert info.value.key == "sql_compact_length" and not (tmp_path / "w.sqlite").exists()
