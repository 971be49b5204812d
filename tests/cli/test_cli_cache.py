"""`raten cache info|verify|clear`: the folder, each entry and its digest state, repairs, cleaning."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from raten.cli.main import main
from raten.engine import cache, matrix
from raten.engine.matrix import cache_path, load_matrix
from raten.engine.words import WordSet


def run(*args: str) -> Result:
    """Invoke ``raten`` in-process; no traceback may escape."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def as_json(*args: str, code: int = 0) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(matrix, "_LOADED", {})
    return tmp_path / "cache"


@pytest.fixture
def two_lists(fresh_cache: Path) -> tuple[WordSet, WordSet]:
    """Two small word sets with their cache entries written."""
    del fresh_cache  # requested for its side effect: an empty cache folder
    a = WordSet.from_lists(["crane", "slate", "spiel"], ["react", "zebra"], name="alpha")
    b = WordSet.from_lists(["insel", "raten"], ["spiel"], name="beta", language="de")
    load_matrix(a)
    load_matrix(b)
    matrix._LOADED.clear()
    return a, b


def test_info_on_an_empty_cache(fresh_cache: Path) -> None:
    out = as_json("cache", "info")
    assert out == {"directory": str(fresh_cache), "exists": False, "bytes": 0, "entries": []}
    result = run("cache")  # the group alone is info
    assert result.exit_code == 0
    assert str(fresh_cache) in result.stdout
    text = " ".join(result.stdout.split())  # rich wraps at 80 columns, where a long tmp path ends
    assert "not created yet" in text
    assert "0 entries" in text


def test_info_lists_each_entry_with_names_size_and_digest_state(two_lists) -> None:
    a, _ = two_lists
    out = as_json("cache", "info")
    by_name = {e["name"]: e for e in out["entries"]}
    assert sorted(by_name) == ["alpha", "beta"]
    assert by_name["alpha"]["shape"] == [len(a.allowed), len(a.solutions)]
    assert by_name["beta"]["language"] == "de"
    assert by_name["alpha"]["fingerprint"] == a.fingerprint
    assert {e["state"] for e in out["entries"]} == {"ok"}
    size = sum(p.stat().st_size for p in Path(out["directory"]).iterdir())
    assert out["bytes"] == size
    text = run("cache", "info").stdout
    assert "alpha" in text
    assert "2 entries" in text


def _damage(words: WordSet) -> Path:
    path = cache_path(words)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    return path


def test_verify_reports_then_repairs_a_damaged_entry(two_lists) -> None:
    a, b = two_lists
    _damage(a)
    report = as_json("cache", "verify", "--no-repair", code=1)
    states = {e["name"]: e["state"] for e in report["entries"]}
    assert states == {"alpha": "damaged", "beta": "ok"}
    assert cache_path(a).exists()  # --no-repair touched nothing
    repaired = as_json("cache", "verify")
    assert repaired["damaged"] == 1
    assert [e["removed"] for e in repaired["entries"] if e["name"] == "alpha"] == [True]
    assert not cache_path(a).exists()
    assert not cache.meta_path(cache_path(a)).exists()
    assert cache_path(b).exists()
    assert as_json("cache", "verify", "--no-repair")["damaged"] == 0
    assert np.array_equal(load_matrix(a).data, matrix.build_matrix(a))  # rebuilt when next used


def test_verify_text_names_the_flaw(two_lists) -> None:
    _damage(two_lists[0])
    result = run("cache", "verify")
    assert result.exit_code == 0
    assert "1 sound, 1 removed" in result.stdout
    assert "do not match the digest" in result.stdout


@pytest.mark.timeout(20)  # a FIFO opened for reading would block: the guard turns a hang into a failure
@pytest.mark.usefixtures("two_lists")
def test_verify_and_clear_handle_a_fifo_and_leftovers(fresh_cache: Path) -> None:
    fifo = fresh_cache / "matrix-v2-abcdef012345.npy"
    os.mkfifo(fifo)
    old = fresh_cache / "matrix-v1-abcdef012345.npy"
    old.write_bytes(b"old")
    report = as_json("cache", "verify", "--no-repair", code=1)
    states = {e["file"]: (e["state"], e["detail"]) for e in report["entries"]}
    assert states[fifo.name] == ("damaged", f"{fifo.name} is not a regular file")
    assert states[old.name][0] == "old format"
    as_json("cache", "verify")
    assert not fifo.exists()
    assert not old.exists()


def test_clear_by_list_then_all(two_lists, fresh_cache: Path) -> None:
    a, b = two_lists
    out = as_json("cache", "clear", "--list", "alpha")
    assert [e["name"] for e in out["entries"]] == ["alpha"]
    assert out["removed"] == 1
    assert not cache_path(a).exists()
    assert cache_path(b).exists()
    assert run("cache", "clear", "--list", "nothing").stdout.startswith("removed 0 entries")
    result = run("cache", "clear")
    assert result.exit_code == 0
    assert "removed 1 entry" in result.stdout
    assert list(fresh_cache.iterdir()) == []


def test_clear_leaves_a_folder_alone_and_says_so(fresh_cache: Path) -> None:
    folder = fresh_cache / "matrix-v1-abcdef.npy"
    folder.mkdir(parents=True)
    result = run("cache", "clear")
    assert result.exit_code == 1
    assert "it is a folder" in result.stdout
    assert folder.is_dir()


def test_cache_folder_that_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("RATEN_CACHE_DIR", str(blocker))
    assert as_json("cache", "info")["entries"] == []
    assert run("cache", "clear").exit_code == 0


def test_warm_says_each_step_and_where_the_kernels_are(monkeypatch: pytest.MonkeyPatch) -> None:
    from raten import warm
    from raten.engine import jitcache

    def fake(say):
        say("ranking en's openers")
        return 1.25

    monkeypatch.setattr(warm, "warm", fake)
    result = run("cache", "warm")
    assert result.exit_code == 0, result.output
    assert "ranking en's openers" in result.output
    assert f"the kernels are compiled in {jitcache.cache_folder()} (1.2 s)" in " ".join(result.output.split())


@pytest.mark.slow
def test_after_cache_warm_the_first_real_commands_compile_nothing(tmp_path: Path) -> None:
    """Issue 27 item 13: `raten cache warm` (what `make install` runs) on a cold numba cache says it
    compiles; then the first `raten tree --opener salet` and a first hint compile nothing (no
    notice on stderr), where on a fresh install they were silent for about 100 s."""
    import subprocess
    import sys

    from raten.engine import jitcache

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "RATEN_CACHE_DIR": str(tmp_path / "tables")}
    raten = [sys.executable, "-c", "import sys; from raten.cli import main; sys.exit(main())"]

    def call(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*raten, *args], env=env, capture_output=True, text=True, check=True, timeout=1800)

    warmed = call("cache", "warm")
    assert jitcache.COMPILE_NOTICE in warmed.stderr
    assert "the kernels are compiled in" in warmed.stdout
    for args in (("tree", "--opener", "salet", "--words", "en"), ("hint", "--words", "de", "tarne=..?..")):
        assert jitcache.COMPILE_NOTICE not in call(*args).stderr, args
