"""The size guard on feedback tables (issue 27 item 12): refused above the limit before any
allocation, in the library (every face) and on the command line; a big build says its size."""

from __future__ import annotations

import itertools
import os
import string
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from raten.cli import main
from raten.engine import cache as matrix_cache
from raten.engine import kernels, matrix, table_size
from raten.engine.matrix import load_matrix
from raten.engine.words import WordSet
from raten.errors import RatenError


def _words(n: int) -> list[str]:
    """``n`` distinct five-letter strings (not words: the table does not care)."""
    return ["".join(t) for t in itertools.islice(itertools.product(string.ascii_lowercase, repeat=5), n)]


@pytest.fixture
def no_build(monkeypatch):
    """Any build or cache write fails the test: the refusal must come before them."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("a table was built")

    monkeypatch.setattr(kernels, "feedback_matrix", refuse)
    monkeypatch.setattr(matrix, "write_blocks", refuse)


@pytest.fixture
def limit(monkeypatch):
    """Set $RATEN_MAX_TABLE_GB (restored after the test, also when the CLI's option wrote it)."""
    monkeypatch.delenv(table_size.MAX_TABLE_ENV, raising=False)
    return lambda gb: monkeypatch.setenv(table_size.MAX_TABLE_ENV, str(gb))


def test_the_limit_is_documented_and_defaults_to_2_gb(limit) -> None:
    assert table_size.max_table_bytes() == 2_000_000_000
    limit(0.5)
    assert table_size.max_table_bytes() == 500_000_000
    for bad in ("x", "0", "-1", "inf", "nan"):
        limit(bad)
        with pytest.raises(RatenError, match="RATEN_MAX_TABLE_GB must be a number of GB above 0"):
            table_size.max_table_bytes()
    help_text = " ".join(CliRunner().invoke(main, ["openers", "--help"]).output.split())
    assert "--max-table-gb FLOAT RANGE Largest feedback table" in help_text
    assert "[default: 2, or $RATEN_MAX_TABLE_GB]" in help_text
    docs = (Path(__file__).resolve().parents[2] / "docs" / "index.md").read_text(encoding="utf-8")
    assert "RATEN_MAX_TABLE_GB" in docs and "--max-table-gb" in docs


@pytest.mark.usefixtures("no_build")
def test_a_table_above_the_limit_is_refused_by_the_library_before_any_allocation(tmp_path, monkeypatch, limit) -> None:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    limit(0.001)  # 1 MB
    words = WordSet.from_lists(_words(1100), name="big")
    with pytest.raises(RatenError) as caught:
        load_matrix(words)
    error = caught.value
    assert error.key == "table_too_large"
    assert error.params == {"list": "big", "guesses": 1100, "solutions": 1100, "gb": 0.0, "limit_gb": 0.001}
    assert "1,100 guesses × 1,100 solutions" in str(error) and "RATEN_MAX_TABLE_GB=1" in str(error)
    with pytest.raises(RatenError, match=r"limit of 0\.001 GB"):
        load_matrix(words, use_cache=False)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("limit")
def test_the_cli_option_raises_the_limit(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    sols = tmp_path / "s.txt"
    sols.write_text("\n".join(_words(1100)) + "\n", encoding="utf-8")
    refused = CliRunner().invoke(main, ["openers", "--solutions", str(sols), "--max-table-gb", "0.001"])
    assert refused.exit_code == 1
    assert "would take 0.0 GB, more than the limit of 0.001 GB" in refused.output
    assert "--max-table-gb 1 (or RATEN_MAX_TABLE_GB=1)" in refused.output
    built = CliRunner().invoke(main, ["openers", "--solutions", str(sols), "--max-table-gb", "0.01", "-n", "1"])
    assert built.exit_code == 0, built.output
    assert CliRunner().invoke(main, ["hint", "--max-table-gb", "0"]).exit_code == 2
    # the option holds for its command only: the next command in this process has the default again
    assert os.environ.get("RATEN_MAX_TABLE_GB") is None


@pytest.mark.usefixtures("limit")
def test_a_big_build_says_its_size_and_shows_progress(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(matrix, "ANNOUNCE_BYTES", 1000)  # "big" here: 1100 × 1100
    sols = tmp_path / "s.txt"
    sols.write_text("\n".join(_words(1100)) + "\n", encoding="utf-8")
    calls = []
    with table_size.reporting(lambda *a: calls.append(a)):
        load_matrix(WordSet.from_lists(_words(1100), name="s"))
    assert calls[0] == ("s", 1100, 1100, 0) and calls[-1] == ("s", 1100, 1100, 1100)
    matrix_cache.clear(tmp_path)
    matrix._LOADED.clear()
    result = CliRunner().invoke(main, ["openers", "--solutions", str(sols), "-n", "1"])
    assert result.exit_code == 0, result.output
    assert "building the feedback table of s: 1,100 guesses × 1,100 solutions, 0.00 GB in the cache" in result.output
    assert result.output.index("building the feedback table") < result.output.index("best openers")


@pytest.mark.slow
@pytest.mark.usefixtures("limit", "no_build")
def test_200000_words_are_refused_at_once_naming_the_size(tmp_path, monkeypatch) -> None:
    """The issue's case: `raten openers --solutions big.txt` with 200,000 words (a 40 GB table)."""
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "cache"))
    big = tmp_path / "big.txt"
    big.write_text("\n".join(_words(200_000)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["openers", "--solutions", str(big)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "200,000 guesses × 200,000 solutions) would take 40.0 GB, more than the limit of 2 GB" in result.output
    assert "--max-table-gb 40 (or RATEN_MAX_TABLE_GB=40)" in result.output
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []


@pytest.mark.slow
def test_en_nyts_first_build_is_announced_and_the_other_built_in_lists_are_not() -> None:
    """The issue's silent first en-nyt run (32 s): its 220 MB table is announced; the small ones build in a second."""
    from raten.wordlists.presets import ALL_PRESETS, load_words

    sizes = {name: len(w.allowed) * len(w.solutions) for name in ALL_PRESETS for w in [load_words(name)]}
    assert {name for name, size in sizes.items() if size >= matrix.ANNOUNCE_BYTES} == {"en-nyt"}


def _disk(free: int):
    """A shutil.disk_usage stand-in whose disk has ``free`` bytes free."""
    return lambda _path: SimpleNamespace(total=10**12, used=10**12 - free, free=free)


def test_a_big_table_with_no_room_in_the_cache_is_refused_before_any_block(tmp_path, monkeypatch) -> None:
    """A table the disk cannot hold would fill it, then be built in memory (40 GB: the machine's end):
    one above the default limit (allowed by a raised one) is refused at once, naming the room it needs and has."""
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(matrix, "MEMORY_FALLBACK_BYTES", 1000)  # too big for memory here: 1100 × 1100
    monkeypatch.setattr(matrix.shutil, "disk_usage", _disk(1_000_000))
    monkeypatch.setattr(kernels, "feedback_matrix", lambda *_a: pytest.fail("a table was built"))
    with pytest.raises(RatenError, match=r"needs 0\.00 GB in the cache .*, which has 0\.00 GB free") as caught:
        load_matrix(WordSet.from_lists(_words(1100), name="s"))
    assert caught.value.key == "cache_full" and caught.value.params["list"] == "s"
    assert list(tmp_path.iterdir()) == []


def test_a_big_table_the_cache_cannot_take_is_refused_and_a_small_one_built_in_memory(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(matrix, "MEMORY_FALLBACK_BYTES", 1000)

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matrix, "write_blocks", full)
    with pytest.raises(RatenError, match=r"No space left on device.*too big to build in memory") as caught:
        load_matrix(WordSet.from_lists(_words(1100), name="s"))
    assert caught.value.key == "cache_unwritable"
    with pytest.warns(UserWarning, match="cannot write the matrix cache"):
        small = load_matrix(WordSet.from_lists(_words(30), name="t"))  # 900 bytes: in memory, as before
    assert small.shape == (30, 30)


def test_the_memory_fallback_stops_at_the_default_limit_so_en_nyt_still_has_it() -> None:
    assert table_size.MEMORY_FALLBACK_BYTES == table_size.DEFAULT_MAX_TABLE_GB * table_size.GB
    assert table_size.MEMORY_FALLBACK_BYTES > 14_855 * 14_855  # en-nyt's 220 MB
