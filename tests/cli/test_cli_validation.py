"""The command line's rough edges (issue 27 item 14): ranges, empty clears, agreeing errors, early
warnings, SIGTERM cleanup and shell completion."""

from __future__ import annotations

import itertools
import os
import signal
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli import main
from raten.cli.common import _TableProgress, sigterm_as_interrupt
from raten.trees import memo_file

SRC = Path(__file__).resolve().parents[2] / "src"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["tree", "--best", "--jobs", "0"], "--jobs"),
        (["tree", "--best", "-j", "-2"], "--jobs"),
        (["review", "--seconds", "-1", "salet", "--answer", "salet"], "--seconds"),
        (["review", "--seconds", "0", "salet", "--answer", "salet"], "--seconds"),
        (["tree", "--best", "--memo-gb", "-1"], "--memo-gb"),
        (["tree", "--opener", "salet", "--memo-bits", "0"], "--memo-bits"),
        (["bench", "--worst", "-1"], "--worst"),
        (["analyze", "--limit", "-1", "crane"], "--limit"),
    ],
)
def test_out_of_range_numbers_are_refused_before_any_work(args: list[str], option: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}" in result.output or f"'{option}'" in result.output


def test_the_memo_gb_error_says_what_the_help_says() -> None:
    """The help allows 0 (private memos) up to 16; the library's message says the same range."""
    help_text = run("tree", "--help").output
    assert "at most 16; 0: a private memo" in " ".join(help_text.split())
    for bad in (-1, 16.5):
        with pytest.raises(Exception, match=r"--memo-gb must be from 0 \(a private memo per process\) to 16"):
            memo_file.check_memo_gb(bad)
    memo_file.check_memo_gb(0)
    memo_file.check_memo_gb(16)


def test_cache_clear_of_an_unknown_or_absent_list_says_nothing_matched(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path))
    result = run("cache", "clear", "--list", "xx")
    assert result.exit_code == 0
    assert "no entry matched --list 'xx' (no built-in list has that name); the cache holds nothing" in result.output
    result = run("cache", "clear", "--list", "en")
    assert "no entry matched --list 'en'; the cache holds nothing" in result.output
    assert '"unmatched": [\n    "de"\n  ]' in run("cache", "clear", "--list", "de", "--json").output


def test_review_share_says_the_guesses_are_needed(tmp_path) -> None:
    share = tmp_path / "share.txt"
    share.write_text("Wordle 1,000 3/6\n\n⬜🟨⬜⬜⬜\n⬜⬜🟩⬜🟨\n🟩🟩🟩🟩🟩\n", encoding="utf-8")
    result = run("review", "--share", str(share))
    assert result.exit_code == 2
    assert "name the guesses (GUESS or GUESS=PATTERN): a share text shows only their colours" in result.output
    assert "name the guesses too" in " ".join(run("review", "--help").output.split())


def test_solve_warns_about_an_unlisted_word_before_asking_its_colours() -> None:
    result = run("solve", "--words", "en", input="zzzzz\nquit\n")
    out = result.output
    warning = "ZZZZZ is not in the en word list"
    assert warning in out and "colours for ZZZZZ" in out
    assert out.index(warning) < out.index("colours for ZZZZZ")


def test_solve_gives_the_unlisted_warning_once() -> None:
    result = run("solve", "--words", "en", input="zzzzz\n.....\nquit\n")
    assert result.output.count("ZZZZZ is not in the en word list") == 1


def test_sigterm_as_interrupt_raises_keyboard_interrupt_and_restores_the_handler() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), sigterm_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # never reached: the handler raises as soon as the signal arrives
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.slow
def test_sql_build_stopped_by_sigterm_leaves_no_temporary_file(tmp_path) -> None:
    """SIGTERM while the database is written: the temporary file beside --db is removed, as on Ctrl-C."""
    db = tmp_path / "en.sqlite"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    args = [sys.executable, "-m", "raten", "sql", "build", "--words", "en", "--db", str(db)]
    with subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        deadline = time.monotonic() + 300
        while not list(tmp_path.glob(".en.sqlite.*.tmp")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no temporary file within 300 s"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert list(tmp_path.iterdir()) == []


def test_a_big_build_logs_plain_lines_in_a_pipe_and_holds_sigterm_only_while_it_builds(capsys) -> None:
    """Outside a terminal a big table's build says how far it got (here at every call: every=0);
    SIGTERM stops it as Ctrl-C does only while it builds, and the previous handler is back after."""
    before = signal.getsignal(signal.SIGTERM)
    with _TableProgress(every=0) as progress:
        progress("big", 300, 300, 0)
        assert signal.getsignal(signal.SIGTERM) is not before
        progress("big", 300, 300, 100)
        progress("big", 300, 300, 300)
        assert signal.getsignal(signal.SIGTERM) is before
    err = capsys.readouterr().err
    assert "building the feedback table of big: 300 guesses × 300 solutions" in err
    assert "feedback table of big: 100 of 300 guess rows" in err
    with pytest.raises(KeyboardInterrupt), _TableProgress() as progress:
        progress("big", 300, 300, 0)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # never reached: the handler raises as soon as the signal arrives
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.slow
def test_a_big_table_build_stopped_by_sigterm_leaves_no_temporary_file_in_the_cache(tmp_path) -> None:
    """The issue's 200,000 words, smaller: a 259 MB table (16,100 words, above the size that is
    announced) stopped by SIGTERM while built leaves nothing in the cache (it left the part written)."""
    words = ["".join(t) for t in itertools.islice(itertools.product(string.ascii_lowercase, repeat=5), 16_100)]
    (tmp_path / "big.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(SRC), "RATEN_CACHE_DIR": str(cache)}
    args = [sys.executable, "-m", "raten", "openers", "--solutions", str(tmp_path / "big.txt"), "-n", "1"]
    with subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # printed once the build has begun (and SIGTERM is held)
        assert "building the feedback table of big: 16,100 guesses × 16,100 solutions" in line, line
        assert [p.name for p in cache.iterdir() if p.name.endswith(".tmp")], "no temporary file while building"
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert list(cache.iterdir()) == []


def _complete(words: str) -> list[str]:
    env = {"_RATEN_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = CliRunner().invoke(main, [], prog_name="raten", env=env)
    assert result.exit_code == 0, result.output
    return [line.partition(",")[2] for line in result.output.split()]


def test_shell_completion_of_commands_lists_strategies_and_priors() -> None:
    assert _complete("raten hi") == ["hint"]
    assert _complete("raten hint --words e") == ["en", "en-nyt", "en-4", "en-6", "en-7", "es"]
    assert _complete("raten review --words d") == ["de", "de-ext", "de-4", "de-6", "de-7", "de-umlaut"]
    assert _complete("raten cache clear --list de-") == ["de-ext", "de-4", "de-6", "de-7", "de-umlaut"]
    assert _complete("raten words stats en") == ["en", "en-nyt", "en-4", "en-6", "en-7"]
    assert _complete("raten hint --strategy mini") == ["minimax"]
    assert _complete("raten bench --strategy l") == ["lookahead"]
    assert _complete("raten openers --prior ") == ["uniform", "frequency", "mixture"]


def test_shell_completion_of_comma_separated_lists_and_many_board_strategies() -> None:
    """serve --lists and bench --strategy take names separated by commas: the last one is completed,
    none twice; after --boards N the strategies are the many-board ones."""
    assert _complete("raten serve --lists e") == ["en", "en-nyt", "en-4", "en-6", "en-7", "es"]
    assert _complete("raten serve --lists en,de-") == ["en,de-ext", "en,de-4", "en,de-6", "en,de-7", "en,de-umlaut"]
    assert _complete("raten serve --lists en,de,en") == ["en,de,en-nyt", "en,de,en-4", "en,de,en-6", "en,de,en-7"]
    assert _complete("raten bench --strategy entropy,mi") == ["entropy,minimax"]
    assert _complete("raten bench --strategy entropy,e") == ["entropy,expected"]
    assert _complete("raten bench --boards 4 --strategy f") == ["finish", "finish-expected"]
    assert _complete("raten hint -b 2 --strategy entropy,fi") == ["entropy,finish", "entropy,finish-expected"]


def test_shell_completion_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "index.md").read_text(encoding="utf-8")
    assert 'eval "$(_RATEN_COMPLETE=bash_source raten)"' in text
