"""`raten bench`: text and JSON output, all strategies, samples, openers, hard mode, charts, errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from raten.cli import common
from raten.cli.main import main
from raten.engine.rank import STRATEGIES

_SOLUTIONS = """
cigar rebut sissy humph awake blush focal evade naval serve heath dwarf model karma stink grade
quiet bench abate feign major death fresh crust stool colon abase marry react batty pride floss
"""
_ALLOWED = "raise slate tares crane adieu audio lions pious rusty month vapid fjord glyph nymph soare roate"
SOLUTIONS = _SOLUTIONS.split()
ALLOWED = _ALLOWED.split()


@pytest.fixture(scope="module")
def lists(tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("lists")
    (d / "sol.txt").write_text("\n".join(SOLUTIONS) + "\n")
    (d / "all.txt").write_text("\n".join(ALLOWED) + "\n")
    return ["--solutions", str(d / "sol.txt"), "--allowed", str(d / "all.txt")]


def run(*args: str) -> tuple[int, str]:
    """Exit code and stdout, or stdout and stderr after a failure (a long run's progress lines go to stderr)."""
    result = CliRunner().invoke(main, ["bench", *args])
    return result.exit_code, result.output if result.exit_code else result.stdout


def test_bench_text(lists) -> None:
    code, out = run(*lists, "--worst", "3")
    assert code == 0, out
    assert "entropy" in out and "average" in out and "hardest 3 words" in out
    assert f"{len(SOLUTIONS)} of {len(SOLUTIONS)} solutions" in out


@pytest.mark.slow
def test_bench_json_all(lists) -> None:
    code, out = run(*lists, "--strategy", "all", "--json")
    assert code == 0, out
    results = json.loads(out)["results"]
    assert [r["strategy"] for r in results] == list(STRATEGIES)
    for r in results:
        assert r["games"] == len(SOLUTIONS) and r["hard"] is False
        assert sum(r["distribution"].values()) == r["games"]
        assert list(r["distribution"]) == ["1", "2", "3", "4", "5", "6", "failed"]
        assert r["total"] >= r["games"] and r["average"] == pytest.approx(r["total"] / r["games"], abs=1e-4)
        assert {"opener", "max", "failed", "seconds", "worst"} <= set(r)


def test_bench_comparison_table(lists) -> None:
    code, out = run(*lists, "--strategy", "entropy,minimax,lookahead:2", "--hard")
    assert code == 0, out
    assert "strategies compared" in out and "hard mode" in out
    for name in ("entropy", "minimax", "lookahead:2"):
        assert name in out


def test_bench_sample_opener_hard(lists) -> None:
    code, out = run(*lists, "--sample", "7", "--seed", "3", "--opener", "CRANE", "--hard", "--json")
    assert code == 0, out
    (r,) = json.loads(out)["results"]
    assert r["games"] == 7 and r["opener"] == "crane" and r["hard"] is True
    assert all(w["path"][0] == "crane" for w in r["worst"])
    again = json.loads(run(*lists, "--sample", "7", "--seed", "3", "--opener", "crane", "--hard", "--json")[1])
    assert [w["answer"] for w in again["results"][0]["worst"]] == [w["answer"] for w in r["worst"]]


@pytest.mark.slow
@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_bench_plot(lists, tmp_path, suffix, magic) -> None:
    pytest.importorskip("matplotlib")
    out_file = tmp_path / f"chart{suffix}"
    code, out = run(*lists, "--strategy", "entropy,frequency", "--plot", str(out_file))
    assert code == 0, out
    assert out_file.read_bytes().startswith(magic)
    assert "chart written" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategy", "best"], "unknown strategy"),
        (["--strategy", "lookahead:0"], "positive whole number"),
        (["--opener", "zzzzz"], "not an allowed word"),
        (["--opener", "abc"], "letters"),
        (["--sample", "0"], "sample size"),
        (["--sample", "999"], "sample size"),
        (["--plot", "chart.jpg"], ".png or .svg"),
    ],
)
def test_bench_errors(lists, args, message) -> None:
    code, out = run(*lists, *args)
    assert code != 0
    assert message in out
    assert "Traceback" not in out


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["entropy", "minimax", "lookahead:3"])
@pytest.mark.parametrize("hard", [False, True])
def test_bench_plays_what_hint_shows(lists, strategy, hard) -> None:
    """The hardest games' paths, replayed through `raten hint`, get the same guess every turn."""
    from raten.engine.feedback import format_pattern, pattern

    flags = ["--hard"] if hard else []
    code, out = run(*lists, "--strategy", strategy, "--json", "--worst", "3", *flags)
    assert code == 0, out
    for game in json.loads(out)["results"][0]["worst"]:
        moves: list[str] = []
        for guess in game["path"]:
            args = ["hint", *lists, "--strategy", strategy, "--json", "-n", "1", *flags, *moves]
            res = CliRunner().invoke(main, args)
            assert res.exit_code == 0, res.output
            assert json.loads(res.output)["hints"][0]["word"] == guess
            moves.append(f"{guess}={format_pattern(pattern(guess, game['answer']))}")


def test_bench_play_answers_outside_the_list(lists, tmp_path) -> None:
    # two solutions, one allowed-only word, one word the list does not know at all
    answers = tmp_path / "answers.txt"
    answers.write_text("cigar\nrebut\nslate\nxylyl\n")
    code, out = run(*lists, "--play", str(answers), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["play"] == str(answers) and data["games"] == 4
    assert data["coverage"] == {
        "answers": 4,
        "solutions": 2,
        "allowed": 3,
        "allowed_only": 1,
        "not_allowed": ["xylyl"],
    }
    (r,) = data["results"]
    assert r["notes"]["xylyl"] == "not_allowed"
    failed = {f["answer"]: f for f in r["failures"]}
    assert "xylyl" in failed and not failed["xylyl"]["won"]
    assert r["failed"] == len(failed) == r["distribution"]["failed"]
    assert r["win_rate"] == pytest.approx((4 - r["failed"]) / 4)
    code, text = run(*lists, "--play", str(answers))
    assert code == 0, text
    assert "XYLYL" in text and "not an allowed word" in text and "won within 6" in text


def test_bench_play_errors(lists, tmp_path) -> None:
    code, out = run(*lists, "--play", str(tmp_path / "missing.txt"))
    assert code != 0 and "does not exist" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("cigar\ntoolong\n")
    code, out = run(*lists, "--play", str(bad))
    assert code != 0 and "toolong" in out.lower()
    good = tmp_path / "good.txt"
    good.write_text("cigar\n")
    code, out = run(*lists, "--play", str(good), "--sample", "3")
    assert code != 0 and "--sample" in out


def test_bench_play_all_with_the_guarantee(lists) -> None:
    """--play-all plays every allowed word; with the guarantee every game is within the limit
    when some guess keeps them all (here with six guesses on 32 solutions and 16 more words)."""
    code, out = run(*lists, "--play-all", "--guarantee", "6", "--json")
    assert code == 0, out
    data = json.loads(out)
    (r,) = data["results"]
    assert data["games"] == len(set(SOLUTIONS) | set(ALLOWED)) == r["games"]
    assert r["failed"] == 0 and r["max"] <= 6
    off = json.loads(run(*lists, "--play-all", "--json")[1])["results"][0]
    assert off["games"] == r["games"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--guarantee", "seven"], "--guarantee"),
        (["--guarantee", "0x"], "--guarantee"),
        (["--guarantee-over", "most"], "--guarantee-over"),
        (["--play-all", "--play", "x.txt"], "give one"),
        (["--play-all", "--boards", "2"], "--play-all"),
    ],
)
def test_bench_guarantee_errors(lists, tmp_path, args, message) -> None:
    if "x.txt" in args:
        (tmp_path / "x.txt").write_text("cigar\n")
        args = [str(tmp_path / "x.txt") if a == "x.txt" else a for a in args]
    code, out = run(*lists, *args)
    assert code != 0 and message in out, out
    assert "Traceback" not in out


def test_bench_in_a_pipe_says_how_far_it_got(lists, monkeypatch) -> None:
    """stderr not a terminal (CliRunner's, a pipe, a log): plain lines instead of a bar that cannot
    redraw (before, nothing until the end); here one every call (LINE_EVERY 0 instead of 15 s)."""
    quiet = CliRunner().invoke(main, ["bench", *lists])  # 15 s apart: a short run prints none
    assert quiet.exit_code == 0 and " of 32 after " not in quiet.output
    monkeypatch.setattr(common, "LINE_EVERY", 0.0)
    result = CliRunner().invoke(main, ["bench", *lists, "--strategy", "entropy,minimax"])
    assert result.exit_code == 0, result.output
    for name in ("entropy", "minimax"):
        assert f"{name}: 1 of {len(SOLUTIONS)} after " in result.output
        assert f"{name}: {len(SOLUTIONS)} of {len(SOLUTIONS)} after " in result.output


def test_line_progress_keeps_tasks_apart(capsys) -> None:
    with common.LineProgress(every=0) as progress:
        a = progress.add_task("a", total=3)
        b = progress.add_task("b")
        progress.advance(a, 2)
        progress.advance(b)
        progress.remove_task(a)
        progress.advance(b)
    assert capsys.readouterr().err.split("\n")[:3] == ["a: 2 of 3 after 0 s", "b: 1 after 0 s", "b: 2 after 0 s"]
