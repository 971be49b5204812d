"""The command line's rough edges (issue 11, items 6-10): outputs checked before the work, exact
messages, the input people have, `raten solve` to play, and JSON that says what it was computed on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_runs import run
from raten.cli import tree as tree_cli
from reference import ref_dots


def fails(*args: str, input: str | None = None) -> str:
    result = run(*args, input=input)
    assert result.exit_code == 1, result.output
    assert "Error" in result.output
    return result.output


@pytest.fixture
def lists(tmp_path: Path) -> list[str]:
    sols = tmp_path / "sols.txt"
    sols.write_text("raten\narten\nkarte\ntorte\nwaren\nleben\n", encoding="utf-8")
    return ["--solutions", str(sols)]


# --- item 6: an output that cannot be written fails before the work ------------------------------


@pytest.fixture
def no_search(monkeypatch):
    """Any search the command starts fails the test: the output check must come first."""

    def searched(*_args, **_kwargs):
        raise AssertionError("the search ran before the output was checked")

    monkeypatch.setattr(tree_cli, "OpenerProof", searched)
    monkeypatch.setattr(tree_cli, "_best", searched)


@pytest.mark.parametrize(
    ("option", "target", "message"),
    [
        ("--out", "", "tree file {path!r} is a directory, not a file"),
        ("--out", "missing/tree.txt", "the folder {folder!r} for the tree file does not exist"),
        ("--table", "missing/t.tsv", "the folder {folder!r} for the table file does not exist"),
        ("--results", "", "results file {path!r} is a directory"),
    ],
)
@pytest.mark.usefixtures("no_search")
def test_tree_checks_its_outputs_before_searching(lists, tmp_path, option: str, target: str, message: str) -> None:
    path = tmp_path / target if target else tmp_path
    extra = ["--best"] if option != "--out" else []
    out = fails("tree", *lists, *extra, option, str(path))
    assert message.format(path=str(path), folder=str(path.parent)) in out.replace("\n", " ")


def test_tree_writes_where_it_was_told(lists, tmp_path) -> None:
    out = tmp_path / "tree.txt"
    result = run("tree", *lists, "--opener", "raten", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("#")


def test_bench_checks_the_plot_path_before_playing(lists, tmp_path, monkeypatch) -> None:
    from raten.cli import bench as bench_cli

    monkeypatch.setattr(bench_cli, "simulate", lambda *_a, **_k: pytest.fail("played before checking --plot"))
    path = tmp_path / "missing" / "chart.png"
    assert "does not exist" in fails("bench", *lists, "--plot", str(path))
    assert not path.parent.exists()  # no folder is created: the same rule as sql build and tree


def test_words_build_out_inside_a_missing_folder(tmp_path) -> None:
    out = fails("words", "build", "--dry-run", "--out", str(tmp_path / "a" / "b"))
    assert "for the output folder does not exist" in out


def test_an_unforeseen_os_error_is_one_line(monkeypatch, lists) -> None:
    """The safety net: a file-system failure no command foresaw is a message, never a traceback."""
    from raten.cli import common

    def broken(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied", "/some/file")

    monkeypatch.setattr(common, "load_words", broken)
    assert "cannot use '/some/file': Permission denied" in fails("hint", *lists)


# --- item 7: exact and stable messages ------------------------------------------------------------


def test_a_contradiction_is_named_the_same_way_every_time() -> None:
    outputs = {fails("hint", "crane=!!!!!", "crane=.....") for _ in range(3)}
    assert len(outputs) == 1
    (out,) = outputs
    assert "row 1 (CRANE) says C is in the word, but row 2 (CRANE) says there is no C" in out.replace("\n", " ")
    assert "1 times" not in out


def test_one_word_left_is_named_and_all_green_is_solved() -> None:
    out = run("hint", "--words", "en", "crane=..?!.", "tousy=?....", "faint=.!!!!").output
    assert "the answer is PAINT" in out and "candidates left" not in out and "1 candidate" not in out
    result = run("hint", "--words", "en", "crane=..?!.", "paint=!!!!!")
    assert result.exit_code == 0
    assert "solved in 2 guesses: PAINT" in result.output and "best next guesses" not in result.output
    assert json.loads(run("hint", "--json", "paint=!!!!!").stdout)["solved"] is True


def test_an_umlaut_word_too_long_shows_its_spelling() -> None:
    assert "'größe' is GROESSE: 7 letters, not 5" in fails("hint", "--words", "de", "größe=.....")


def test_echoed_input_is_cut_short() -> None:
    out = fails("hint", "x" * 500 + "=.....")
    assert "x" * 41 not in out and "\u2026" in out
    out = fails("hint", "--words", "q" * 500)
    assert "q" * 41 not in out


def test_score_spells_both_words_alike() -> None:
    assert run("score", "müde", "möwe").output.strip() == "MUEDE vs MOEWE: 🟩⬜🟩⬜🟩"


# --- item 8: the input people have ----------------------------------------------------------------


def test_list_names_in_any_case_and_files_with_a_byte_order_mark(tmp_path) -> None:
    assert json.loads(run("openers", "--words", "EN", "-n", "1", "--json").stdout)["list"] == "en"
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbfraten\narten\nkarte\n")
    result = run("hint", "--solutions", str(bom), "--json")
    assert json.loads(result.stdout)["candidate_words"] == ["arten", "karte", "raten"]


def test_words_and_solutions_together_are_an_error(lists) -> None:
    assert "not both" in fails("hint", "--words", "de", *lists)
    assert run("hint", *lists).exit_code == 0


def test_high_contrast_squares_are_patterns() -> None:
    out = json.loads(run("hint", "--json", "crane=⬛⬛🟦🟧⬛").stdout)
    assert out["candidates"] == 20


# --- item 9: raten solve -------------------------------------------------------------------------


def test_solve_shows_the_board_and_asks_a_mistyped_pattern_again() -> None:
    script = "crane\n..z..\n..?!.\n\n" + ref_dots("tousy", "paint") + "\nquit\n"
    result = run("solve", "--words", "en", input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("raten solve en: 2315 candidates left, 12972 allowed guesses")
    assert "unknown symbol 'z'" in out
    assert out.count("colours for CRANE") == 2  # asked again, not back to the guess
    assert " C   R   A   N   E   ⬜⬜🟨🟩⬜" in out  # the board: tiles (coloured on a terminal) and emoji
    assert "2 candidates left" in out
    assert "stopped; to go on: raten hint --words en 'crane=..?!.' 'tousy=?....'" in out


def test_undo_at_every_prompt() -> None:
    # undo at the colours prompt drops the guess just typed; at the guess prompt the last move
    script = "crane\nundo\nslate\n.....\nundo\nundo\nquit\n"
    out = run("solve", "--words", "en", input=script).output
    assert "colours for CRANE" in out and "colours for SLATE" in out
    assert "nothing to undo" in out
    assert "to go on" not in out and "stopped; no moves entered" in out


def test_solve_with_a_known_answer_plays_by_itself() -> None:
    result = run("solve", "--words", "en", "--answer", "Paint")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    solved = next(i for i, line in enumerate(lines) if line.startswith("solved in"))
    grid = lines[solved + 1 :]
    assert lines[solved] == f"solved in {len(grid)} guesses: PAINT"
    assert grid[-1] == "🟩🟩🟩🟩🟩" and all(len(row) == 5 for row in grid)  # one row per line
    assert "not a word of the en list" in fails("solve", "--answer", "zzzzz")


def test_solve_final_grid_one_row_per_line() -> None:
    script = f"\n{ref_dots('soare', 'taint')}\ntaint\n!!!!!\n"
    lines = run("solve", "--words", "en", input=script).output.splitlines()
    assert lines[-3:] == ["solved in 2 guesses: TAINT", ref_grid("soare", "taint"), "🟩🟩🟩🟩🟩"]


def ref_grid(guess: str, answer: str) -> str:
    return ref_dots(guess, answer).translate(str.maketrans(".?!", "⬜🟨🟩"))


def test_ctrl_c_ends_cleanly(monkeypatch) -> None:
    import builtins

    answers = iter(["crane", "..?!."])

    def typed(_prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(builtins, "input", typed)
    result = run("solve", "--words", "en")
    assert result.exit_code == 130
    assert "interrupted; to go on: raten hint --words en 'crane=..?!.'" in result.output


# --- item 10: JSON that says what it was computed on ------------------------------------------------


def test_openers_say_their_criterion() -> None:
    out = run("openers", "--words", "en", "-n", "2", "--strategy", "minimax").output
    assert "ranked by minimax: smallest largest group" in out


def test_bench_json_names_list_sizes_strategy_and_prior(lists) -> None:
    out = json.loads(run("bench", *lists, "--strategy", "entropy,minimax", "--json").stdout)
    assert (out["list"], out["solutions"], out["allowed"], out["prior"]) == ("sols", 6, 6, "uniform")
    assert out["strategy"] == ["entropy", "minimax"] and out["games"] == 6 and out["hard"] is False


# --- item 11: dependency floors and the constraints file -------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def test_security_floors_and_the_constraints_file_agree() -> None:
    """The web floors sit past known security fixes, python-multipart is gone, and constraints.txt
    pins exact versions (raten itself left out) that meet every floor."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name  # pip freeze writes fastapi_offline, pyproject fastapi-offline

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    web = {canonicalize_name(r.name): r for r in map(Requirement, project["optional-dependencies"]["web"])}
    assert "python-multipart" not in web
    floors = {"jinja2": "3.1.6", "h11": "0.16", "starlette": "0.49.1"}
    for name, floor in floors.items():
        assert web[name].specifier.contains(floor) and not web[name].specifier.contains("0.0.1"), name
    pins = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(req.name)] = spec.version
    assert "raten" not in pins and "python-multipart" not in pins
    for name, req in web.items():
        assert req.specifier.contains(pins[name]), f"constraints.txt pins {name} {pins[name]} below {req}"
