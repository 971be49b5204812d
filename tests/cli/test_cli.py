"""The `raten` command: every engine subcommand, its JSON shapes, and clean errors for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import Result

from cli_runs import ok_json, run
from published import EN_OPENERS
from raten.engine import matrix
from raten.engine.matrix import cache_path
from raten.errors import RatenError
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_preset, load_words
from reference import DOTS, ref_code, ref_colours, ref_dots, ref_filter, ref_split

HINT_KEYS = {"word", "bits", "candidate", "patterns", "largest", "expected_remaining"}


def fails(*args: str, input: str | None = None) -> Result:
    result = run(*args, input=input)
    assert result.exit_code != 0, result.output
    assert "Error" in result.output
    return result


def write(path: Path, content: str | bytes) -> Path:
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


@pytest.fixture
def lists(tmp_path: Path) -> tuple[Path, Path]:
    """A small solutions file and an allowed file that omits the solutions."""
    sols = write(tmp_path / "sols.txt", "# test list\nraten\narten\nkarte\nTorte\nwaren\nLeben\n")
    allowed = write(tmp_path / "allowed.txt", "sarte\nreise\nzebra\n")
    return sols, allowed


def _dots(code: int) -> str:
    return "".join(DOTS[c] for c in [code // 81 % 3, code // 27 % 3, code // 9 % 3, code // 3 % 3, code % 3])


# --- hint --------------------------------------------------------------------------


@pytest.mark.slow
def test_hint_json_shape_and_figures(en_words) -> None:
    out = ok_json("hint", "--words", "en", "crane=..?!.", "-n", "4")
    assert {"candidates", "candidate_words", "hints", "constraints"} <= set(out)
    assert out["candidates"] == 20
    assert out["candidate_words"] == ref_filter(en_words.solutions, [("crane", ref_code("crane", "fanny"))])
    assert [(h["word"], round(h["bits"], 4)) for h in out["hints"]] == [
        ("tousy", 3.3414),
        ("thigs", 3.3087),
        ("tings", 3.2842),
        ("tying", 3.2842),
    ]
    for h in out["hints"]:
        assert set(h) == HINT_KEYS
        bits, patterns, largest, expected = ref_split(h["word"], out["candidate_words"])
        assert h["bits"] == pytest.approx(bits, abs=1e-12)
        assert (h["patterns"], h["largest"], h["candidate"]) == (patterns, largest, False)
        assert h["expected_remaining"] == pytest.approx(expected)
    assert out["constraints"] == {
        "greens": {"4": "n"},
        "not_at": {"a": [3]},
        "min_counts": {"a": 1, "n": 1},
        "exact_counts": {},
        "excluded": ["c", "e", "r"],
    }
    assert out["fallback"] is False and out["warnings"] == []


@pytest.mark.parametrize("pattern", ["⬜⬜🟨🟩⬜", "⬛️⬛️🟨🟩⬛️", "bbygb", "xxygx", "00120", "BBYGB"])
@pytest.mark.slow
def test_hint_reads_every_notation(pattern: str) -> None:
    assert ok_json("hint", f"crane={pattern}", "-n", "1")["candidates"] == 20


def test_hint_without_moves_gives_the_openers() -> None:
    out = ok_json("hint", "-n", "3")
    assert out["candidates"] == 2315
    assert [h["word"] for h in out["hints"]] == ["soare", "roate", "raise"]


def test_hint_text() -> None:
    result = run("hint", "crane=..?!.", "-n", "3")
    assert result.exit_code == 0
    assert "20 candidates left" in result.output
    assert "FANNY" in result.output and "TOUSY" in result.output and "3.3414" in result.output
    assert "greens: ___N_" in result.output


def test_hint_hard_mode() -> None:
    out = ok_json("hint", "--hard", "crane=..?!.", "-n", "20")
    assert "tousy" not in [h["word"] for h in out["hints"]]
    for h in out["hints"]:
        assert h["word"][3] == "n" and "a" in h["word"]
    code = _dots(ref_code("slate", "taint"))
    out = ok_json("hint", "--hard", "crane=..?!.", f"slate={code}")
    assert out["warnings"] == ["SLATE breaks hard mode (4th letter must be N); used anyway"]


def test_hint_unlisted_past_guess_warns(en_words) -> None:
    code = ref_code("zzzzz", "pizza")
    out = ok_json("hint", f"zzzzz={_dots(code)}")
    assert out["warnings"] == ["ZZZZZ is not in the en word list; used anyway"]
    assert out["candidate_words"] == ref_filter(en_words.solutions, [("zzzzz", code)])
    result = run("hint", f"zzzzz={_dots(code)}")
    assert result.exit_code == 0
    assert "warning" in result.stderr and "ZZZZZ is not in the en word list" in result.stderr


@pytest.mark.slow
def test_hint_falls_back_to_allowed_words(en_words) -> None:
    moves = [(g, ref_code(g, "jaxie")) for g in ("crane", "sloth", "guild")]
    assert ref_filter(en_words.solutions, moves) == []
    args = [f"{g}={_dots(c)}" for g, c in moves]
    out = ok_json("hint", *args)
    assert out["fallback"] is True
    assert out["candidate_words"] == ref_filter(en_words.allowed, moves)
    assert out["warnings"] == [
        "no en solution fits these hints: the answer is probably missing from the list; going on with the 5 "
        "allowed words that fit"
    ]
    result = run("hint", *args)
    assert result.exit_code == 0
    assert "allowed words fit" in result.output and "no en solution fits" in result.stderr


def test_hint_with_word_files(lists: tuple[Path, Path]) -> None:
    sols, allowed = lists
    out = ok_json("hint", "--solutions", str(sols), "--allowed", str(allowed), "-n", "20")
    words = sorted(read_word_file(sols))
    assert out["candidate_words"] == words
    pool = sorted(set(words) | set(read_word_file(allowed)))
    assert sorted(h["word"] for h in out["hints"]) == pool
    best = out["hints"][0]
    assert best["bits"] == pytest.approx(max(ref_split(w, words)[0] for w in pool), abs=1e-12)
    # only solutions given: the allowed list is the solutions
    out = ok_json("hint", "--solutions", str(sols), "-n", "20")
    assert sorted(h["word"] for h in out["hints"]) == words
    # every allowed word may be the answer
    out = ok_json("hint", "--solutions", str(sols), "--allowed", str(allowed), "--any-answer", "-n", "1")
    assert out["candidates"] == len(pool)


@pytest.mark.parametrize("strategy", ["entropy", "partitions", "expected", "minimax", "frequency"])
def test_hint_strategies(strategy: str) -> None:
    out = ok_json("hint", "crane=..?!.", "--strategy", strategy, "-n", "3")
    assert len(out["hints"]) == 3 and all(set(h) == HINT_KEYS for h in out["hints"])


# --- openers, analyze, score, words --------------------------------------------------


def test_openers_json() -> None:
    out = ok_json("openers", "--words", "en", "-n", "10")
    assert set(out) == {"openers", "list", "solutions", "allowed", "strategy", "prior", "hard"}  # item 10 adds context
    assert (out["list"], out["solutions"], out["allowed"], out["strategy"], out["prior"]) == (
        "en",
        2315,
        12972,
        "entropy",
        "uniform",
    )
    assert [(h["word"], round(h["bits"], 4)) for h in out["openers"]] == EN_OPENERS
    assert all(set(h) == HINT_KEYS for h in out["openers"])


def test_openers_german_reference_lists(shared_list) -> None:
    sols, allowed = shared_list("de", "solutions.txt"), shared_list("de", "allowed.txt")
    out = ok_json("openers", "--solutions", str(sols), "--allowed", str(allowed), "-n", "2")
    sarte = out["openers"][0]
    assert (sarte["word"], round(sarte["bits"], 4), sarte["patterns"], sarte["largest"], sarte["candidate"]) == (
        "sarte",
        5.8835,
        121,
        93,
        False,
    )
    assert (out["openers"][1]["word"], round(out["openers"][1]["bits"], 4)) == ("raten", 5.8223)
    assert out["openers"][1]["candidate"] is True


def test_openers_text() -> None:
    result = run("openers", "-n", "3")
    assert result.exit_code == 0
    assert "SOARE" in result.output and "5.8860" in result.output
    assert "2315 solutions, 12972 allowed" in result.output


def test_analyze_json(en_words) -> None:
    out = ok_json("analyze", "tousy", "crane=..?!.")
    assert {"word", "bits", "patterns", "largest", "buckets"} <= set(out)
    cands = ref_filter(en_words.solutions, [("crane", ref_code("crane", "fanny"))])
    bits, patterns, largest, _ = ref_split("tousy", cands)
    assert out["word"] == "tousy"
    assert out["bits"] == pytest.approx(bits, abs=1e-12)
    assert (out["patterns"], out["largest"]) == (patterns, largest)
    groups: dict[str, list[str]] = {}
    for w in cands:
        groups.setdefault(ref_dots("tousy", w), []).append(w)
    for b in out["buckets"]:
        assert set(b) == {"pattern", "count", "words"}
        assert b["words"] == groups[b["pattern"]] and b["count"] == len(b["words"])
    assert len(out["buckets"]) == len(groups)
    counts = [b["count"] for b in out["buckets"]]
    assert counts == sorted(counts, reverse=True)


def test_analyze_text() -> None:
    result = run("analyze", "TOUSY", "crane=..?!.")
    assert result.exit_code == 0
    assert "TOUSY against 20 candidates: 3.3414 bits" in result.output
    assert "12 patterns, largest group 5" in result.output


def test_score() -> None:
    answers = ["insel", "spiel", "piste", "lisps"]
    out = ok_json("score", "spiel", *answers)
    # issue 11 item 10: each answer paired with its pattern; "patterns" stays for old scripts
    assert out["patterns"] == [ref_dots("spiel", a) for a in answers]
    assert out["results"] == [{"answer": a, "pattern": ref_dots("spiel", a)} for a in answers]
    assert (out["guess"], out["notation"]) == ("spiel", "dots")
    assert out["patterns"][0] == "?.?!!"
    out = ok_json("score", "--notation", "digits", "beere", "rente")
    assert out["patterns"] == ["".join(str(c) for c in ref_colours("beere", "rente"))] == ["02012"]
    assert out["results"] == [{"answer": "rente", "pattern": "02012"}]
    result = run("score", "spiel", "Insel")
    assert result.exit_code == 0
    assert result.output.strip() == "SPIEL vs INSEL: 🟨⬜🟨🟩🟩"
    assert run("score", "--notation", "letters", "spiel", "insel").output.strip() == "SPIEL vs INSEL: ybygg"


@pytest.mark.slow
def test_words_json() -> None:
    out = ok_json("words")
    rows = {r["name"]: r for r in out["presets"]}
    assert set(rows) == {"en", "de", "de-ext", "6mal5"}
    assert (rows["en"]["solutions"], rows["en"]["allowed"]) == (2315, 12972)
    for r in rows.values():
        assert {"name", "language", "solutions", "allowed", "description", "source"} <= set(r)
    result = run("words")
    assert result.exit_code == 0 and "12972" in result.output


# --- solve: scripted input --------------------------------------------------------------


def test_solve_taking_the_suggestion() -> None:
    # SOARE is the first suggestion (published best opener); Enter takes it.
    script = f"\n{ref_dots('soare', 'taint')}\ntaint\n!!!!!\n"
    result = run("solve", input=script)
    assert result.exit_code == 0, result.output
    assert "SOARE" in result.output
    assert "solved in 2" in result.output


def test_solve_recovers_from_bad_input_and_undo() -> None:
    script = "\n".join(["cr4ne", "crane", "..z..", "crane", "..?!.", "tousy", "undo", "quit"]) + "\n"
    result = run("solve", input=script)
    assert result.exit_code == 0, result.output
    assert "letters a-z only" in result.output
    assert "unknown symbol 'z'" in result.output
    assert "20 candidates left" in result.output
    assert "solved" not in result.output


def test_solve_hard_mode_refuses_illegal_guesses() -> None:
    script = "\n".join(["crane", "..?!.", "slate", "quit"]) + "\n"
    result = run("solve", "--hard", input=script)
    assert result.exit_code == 0
    assert "hard mode: 4th letter must be N" in result.output


def test_solve_contradiction_is_reported_and_play_goes_on() -> None:
    script = "\n".join(["crane", "!!!!!"]) + "\n"
    assert "solved in 1" in run("solve", input=script).output
    script = "\n".join(["crane", "!....", "brine", "!....", "quit"]) + "\n"
    result = run("solve", input=script)
    assert result.exit_code == 0
    assert "position 1 cannot be both C and B" in result.output


def test_solve_end_of_input_ends_cleanly() -> None:
    """Issue 11 item 9: Ctrl-D (end of input) is a way to stop, like quit: exit 0, no 'Aborted!',
    and the moves so far printed as a command that takes the game up again."""
    result = run("solve", input="")
    assert result.exit_code == 0, result.output
    assert "Aborted" not in result.output and "end of input; no moves entered" in result.output
    result = run("solve", "--words", "en", input="crane\n..?!.\n")
    assert result.exit_code == 0, result.output
    assert "end of input; to go on: raten hint --words en 'crane=..?!.'" in result.output


# --- bad input: a clear message, a non-zero exit, no traceback ----------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "cran=....."], "'cran' has 4 letters, not 5"),
        (["hint", "cranes=....."], "has 6 letters"),
        (["hint", "cr4ne=....."], "letters a-z only"),
        (["hint", "crane=...."], "has 4 symbols, not 5"),
        (["hint", "crane=......"], "has 6 symbols, not 5"),
        (["hint", "crane=..z.."], "unknown symbol 'z'"),
        (["hint", "crane"], "is not GUESS=PATTERN"),
        (["hint", "=....."], "is not GUESS=PATTERN"),
        (["hint", "crane=!!!!!", "crane=....."], "no word fits these hints"),
        (["hint", "crane=!....", "brine=!...."], "position 1 cannot be both C and B"),
        (["hint", "eerie=.?..."], "a yellow E cannot follow a grey E"),
        (["hint", "--words", "xx"], "unknown word list 'xx'"),
        (["openers", "--words", "klingon"], "unknown word list 'klingon'"),
        (["hint", "--strategy", "best"], "unknown strategy"),
        (["hint", "--top", "0"], "top must be at least 1"),
        (["hint", "--top", "x"], "is not a valid integer"),
        (["analyze", "tou5y"], "letters a-z only"),
        (["analyze", "tousy", "crane=..?!"], "4 symbols"),
        (["analyze"], "Missing argument"),
        (["score", "crane"], "Missing argument"),
        (["score", "crane", "fan"], "'fan' has 3 letters"),
        (["score", "cr@ne", "fanny"], "letters a-z only"),
        (["score", "--notation", "morse", "crane", "fanny"], "Invalid value"),
        (["bogus"], "No such command"),
    ],
)
def test_bad_input(args: list[str], message: str) -> None:
    result = fails(*args)
    assert message in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        ("raten\nrat\n", "line 2: 'rat' has 3 letters"),
        ("raten\nr@ten\n", "letters a-z only"),
        ("", "has no words"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "is not UTF-8 text"),
    ],
)
@pytest.mark.parametrize("option", ["--solutions", "--allowed"])
def test_bad_list_files(tmp_path: Path, lists: tuple[Path, Path], content, message: str, option: str) -> None:
    bad = tmp_path / "bad.txt"
    if content is not None:
        write(bad, content)
    sols, allowed = lists
    args = (
        ["--solutions", str(bad), "--allowed", str(allowed)]
        if option == "--solutions"
        else ["--solutions", str(sols), "--allowed", str(bad)]
    )
    result = fails("hint", *args)
    assert message in result.output
    assert "bad.txt" in result.output


def test_list_file_is_a_directory(tmp_path: Path) -> None:
    assert "is a directory" in fails("hint", "--solutions", str(tmp_path)).output


def test_allowed_needs_solutions(lists: tuple[Path, Path]) -> None:
    assert "--allowed needs --solutions" in fails("hint", "--allowed", str(lists[1])).output


@pytest.mark.slow
def test_missing_german_preset_is_a_clean_error() -> None:
    try:
        load_preset("de")
    except RatenError:
        result = fails("hint", "--words", "de")
        assert "is missing" in result.output
    else:
        out = ok_json("hint", "--words", "de", "-n", "1")
        assert out["candidates"] > 0


# --- corrupt cache files: a warning, a rebuild, the right answer --------------------------


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(matrix, "_LOADED", {})
    return tmp_path / "cache"


def _corrupt(kind: str, shape: tuple[int, int], tmp_path: Path) -> bytes:
    good = tmp_path / "good.npy"
    np.save(good, np.zeros(shape, dtype=np.uint8))
    size = good.stat().st_size
    if kind == "truncated":
        return good.read_bytes()[: size // 2]
    if kind == "garbage, right size":
        return bytes((i * 37 + 11) % 256 for i in range(size))
    if kind == "right size, wrong content":
        return good.read_bytes()  # a well-formed file of zeros: the spot checks catch it
    if kind == "wrong shape":
        np.save(good, np.zeros((shape[0] + 1, shape[1]), dtype=np.uint8))
        return good.read_bytes()
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["truncated", "garbage, right size", "right size, wrong content", "wrong shape"])
@pytest.mark.usefixtures("fresh_cache")
def test_corrupt_cache_file_is_rebuilt(kind: str, lists: tuple[Path, Path], tmp_path: Path) -> None:
    sols, allowed = lists
    words = load_words(solutions=sols, allowed=allowed)
    path = cache_path(words)
    path.parent.mkdir(parents=True)
    path.write_bytes(_corrupt(kind, (len(words.allowed), len(words.solutions)), tmp_path))
    result = run("hint", "--solutions", str(sols), "--allowed", str(allowed), "--json", "-n", "3")
    assert result.exit_code == 0, result.output
    assert "rebuilding it" in result.stderr
    out = json.loads(result.stdout)
    best = max(ref_split(w, words.solutions)[0] for w in words.allowed)
    assert out["hints"][0]["bits"] == pytest.approx(best, abs=1e-12)
    data = np.load(path)
    assert data.shape == (len(words.allowed), len(words.solutions))
    assert data[words.allowed_index["zebra"], words.solution_index["raten"]] == ref_code("zebra", "raten")


# --- the process as a whole ---------------------------------------------------------------


def _env() -> dict[str, str]:
    return {**os.environ, "RATEN_CACHE_DIR": os.environ["RATEN_CACHE_DIR"]}


def test_python_dash_m_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "raten", "--help"], capture_output=True, text=True, env=_env())
    assert proc.returncode == 0, proc.stderr
    for command in ("hint", "openers", "analyze", "score", "solve", "words"):
        assert command in proc.stdout


@pytest.mark.slow
def test_python_dash_m_hint_and_error() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "raten", "hint", "--json", "-n", "1", "crane=..?!."],
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hints"][0]["word"] == "tousy"
    proc = subprocess.run(
        [sys.executable, "-m", "raten", "hint", "crane=..z.."], capture_output=True, text=True, env=_env()
    )
    assert proc.returncode != 0
    assert "Error" in proc.stderr and "unknown symbol" in proc.stderr and "Traceback" not in proc.stderr


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and "raten" in result.output


@pytest.mark.slow
def test_words_json_names_the_extra_presets() -> None:
    out = ok_json("words")
    extra = {p["name"]: p for p in out["extra_presets"]}
    nyt = extra["en-nyt"]
    assert {"en-4", "de-6", "de-umlaut", "fr"} <= set(extra)  # the built lists of other lengths and languages
    assert nyt["name"] == "en-nyt" and (nyt["solutions"], nyt["allowed"]) == (14855, 14855)
    assert "nyt-wordle-cli" in nyt["source"] and "frequency prior" in nyt["description"]
    assert "en-nyt" in run("words").output


# --- --prior and --answers-only ------------------------------------------------------------------


@pytest.mark.slow
def test_prior_option_on_hint_and_openers() -> None:
    from raten.engine.state import State

    de_words_frequency = load_words("de", prior="frequency")
    out = ok_json("hint", "--words", "de", "--prior", "frequency", "raten=...?.", "-n", "3")
    assert out["prior"] == "frequency"
    state = State(de_words_frequency).after("raten", "...?.")
    assert out["candidates"] == state.count and [h["word"] for h in out["hints"]] == [
        h.word for h in state.hints(top=3)
    ]
    assert ok_json("hint", "--words", "de", "raten=...?.")["prior"] == "mixture"  # de's own
    assert ok_json("hint", "--words", "en", "raten=...?.")["prior"] == "uniform"
    openers = ok_json("openers", "--words", "de", "--prior", "FREQUENCY", "-n", "2")
    assert openers["prior"] == "frequency" and openers["solutions"] == openers["allowed"]
    result = fails("hint", "--prior", "zipf")
    assert "zipf" in result.output and "uniform" in result.output


def test_commands_not_weighted_yet_refuse_the_frequency_prior(tmp_path: Path) -> None:
    """The SQL tables and queries count answers equally; trees and reviews weigh them (test_review_prior)."""
    result = fails("sql", "build", "--words", "de", "--prior", "frequency", "--db", str(tmp_path / "t.sqlite"))
    assert "does not weigh answers by a prior yet: use --prior uniform" in result.output
    assert not (tmp_path / "t.sqlite").exists()


def test_answers_only_option() -> None:
    out = ok_json("hint", "--answers-only", "crane=..?!.", "-n", "50")
    assert {h["word"] for h in out["hints"]} == set(out["candidate_words"])
    assert ok_json("openers", "--answers-only", "-n", "3")["openers"][0]["candidate"] is True


def test_an_answer_outside_the_list_is_a_clear_message() -> None:
    result = fails("hint", "clamp=.!!!!")  # GLAMP
    assert "the answer is probably a word the list does not know" in result.output
    assert "Traceback" not in result.output
