"""Building and writing the German lists, `raten words build`, and the lists that ship with raten."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import raten
from german_sample import fake_zipf
from raten.cli.main import main
from raten.errors import RatenError
from raten.wordlists.german import build
from raten.wordlists.german.build import build_lists, write_lists, written_forms
from raten.wordlists.german.dictionary import Lexicon
from raten.wordlists.written import written, written_table

DATA = Path(raten.__file__).parent / "data" / "de"


def test_build_lists_ranks_and_cuts(lex: Lexicon) -> None:
    result = build_lists(lex, fake_zipf, solutions=3, min_zipf=3.0)
    # eligible by frequency: fuenf 5.0, muede 4.5, regen 4.3, tisch 4.2, kaese 4.1, loben 3.9, wolke 3.8
    assert result.solutions == ["fuenf", "muede", "regen"]
    assert result.eligible == 7
    assert result.lowest_zipf == pytest.approx(4.3)
    assert result.allowed == lex.five() == result.ngerman
    assert result.excluded["listed"] == ["peter"]
    assert set(result.excluded["verb_form"]) == {"kommt"}
    assert result.transliterated == 3
    summary = result.summary()
    assert summary["solutions"] == 3 and summary["excluded"]["noun_form"] == 2

    few = build_lists(lex, fake_zipf, solutions=100, min_zipf=4.4)
    assert few.solutions == ["fuenf", "muede"]  # fewer words qualify than asked for
    with pytest.raises(RatenError):
        build_lists(lex, fake_zipf, solutions=0)


def test_written_forms_keep_the_spelling_where_it_differs() -> None:
    zipf = {"maße": 3.9, "masse": 4.3, "büße": 2.0, "buße": 3.0}
    forms = written_forms(
        {"boese": ["böse"], "masse": ["masse", "maße"], "busse": ["büße", "buße"], "regen": ["regen"], "xyzzy": []},
        lambda word, _lang: zipf.get(word, 0.0),
    )
    # one spelling that differs; the word itself among them (ambiguous: as typed); the commonest of two
    assert forms == {"boese": "böse", "busse": "buße"}


def test_the_build_writes_the_written_forms(lex: Lexicon, tmp_path: Path) -> None:
    result = build_lists(lex, fake_zipf, solutions=4)
    assert result.written and all(w != form and len(w) == 5 for w, form in result.written.items())
    assert result.written["fuenf"] == "fünf" and result.written["kaese"] == "käse"
    text = write_lists(result, tmp_path, "notice\n")["written"].read_text(encoding="utf-8")
    assert text.splitlines() == [f"{w} {result.written[w]}" for w in sorted(result.written)]


def test_the_shipped_written_forms() -> None:
    """data/de/written.txt: words of the lists with their German spelling, umlauts where German has them."""
    table = written_table("de")
    assert set(table) <= set(raten.load_words("de").allowed) and len(table) > 250
    assert written("boese", "de").upper() == "BÖSE" and written("fuenf", "de") == "fünf"
    assert written("masse", "de") == "masse"  # Masse and Maße: as typed
    assert written("boese", "en") == "boese" and written("crane", "en") == "crane"
    assert all(re.fullmatch("[a-z]{5}", w) and re.fullmatch("[a-zäöüß]+", f) for w, f in table.items())


def test_written_lists_are_deterministic(lex: Lexicon, tmp_path: Path) -> None:
    result = build_lists(lex, fake_zipf, solutions=4)
    first = write_lists(result, tmp_path / "a", "notice\n")
    second = write_lists(build_lists(lex, fake_zipf, solutions=4), tmp_path / "b", "notice\n")
    for name in ("solutions", "allowed", "ngerman"):
        text = first[name].read_text(encoding="utf-8")
        assert text == second[name].read_text(encoding="utf-8")
        assert text.endswith("\n") and text.splitlines() == sorted(set(text.splitlines()))
    assert set(first["solutions"].read_text().split()) <= set(first["allowed"].read_text().split())


def test_command_builds_into_a_directory(dict_file: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build, "wordfreq_zipf", lambda: fake_zipf)
    out = tmp_path / "out"
    args = [
        "words",
        "build",
        "--dict",
        str(dict_file),
        "--no-hunspell",
        "--no-frequent",
        "--out",
        str(out),
        "--solutions",
        "5",
    ]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["solutions"] == 5 and report["allowed"] == 18 and report["hunspell"] is None
    assert (out / "solutions.txt").read_text() == "fuenf\nkaese\nmuede\nregen\ntisch\n"
    notice = (out / "NOTICE").read_text(encoding="utf-8")
    assert "wngerman" in notice and "wordfreq" in notice and "GPL-2+" in notice and "frami" not in notice
    assert f"raten words build --dict {dict_file} --no-hunspell --solutions 5 --min-zipf 3.0" in notice

    dry = CliRunner().invoke(
        main,
        [
            "words",
            "build",
            "--dict",
            str(dict_file),
            "--no-hunspell",
            "--no-frequent",
            "--out",
            str(tmp_path / "dry"),
            "--dry-run",
        ],
    )
    assert dry.exit_code == 0, dry.output
    assert "nothing written" in dry.output and not (tmp_path / "dry").exists()


def test_command_missing_dictionary_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["words", "build", "--dict", str(tmp_path / "ngerman"), "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "does not exist" in result.output and "wngerman" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "solutions.txt").exists()


@pytest.mark.slow
def test_command_without_wordfreq_is_a_clear_error(dict_file: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import wordfreq now fails
    result = CliRunner().invoke(main, ["words", "build", "--dict", str(dict_file), "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "needs wordfreq" in result.output and "Traceback" not in result.output


def test_shipped_lists_load_with_expected_sizes() -> None:
    de = raten.load_words("de", prior="uniform")
    ext = raten.load_words("de-ext", prior="uniform")
    assert 1000 <= len(de.solutions) <= 1100
    assert 6000 <= len(de.allowed) <= 7000  # wordfreq's non-words dropped (issue 23)
    assert set(de.solutions) <= set(de.allowed)
    assert len(ext.solutions) >= 3 * len(de.solutions)
    assert set(de.solutions) <= set(ext.solutions) and set(de.allowed) <= set(ext.allowed)
    assert set(ext.allowed) == set(de.allowed)
    frequent = set((DATA / "frequent.txt").read_text().split())
    assert set(ext.solutions) == set(de.allowed) - frequent  # every dictionary word, no wordfreq-only one
    assert de.language == ext.language == "de"


@pytest.mark.parametrize("name", ["solutions.txt", "allowed.txt", "ngerman.txt", "frequent.txt", "proper.txt"])
def test_shipped_files_are_normalised(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    words = text.splitlines()
    assert text.endswith("\n")
    assert words == sorted(set(words))
    assert all(re.fullmatch("[a-z]{5}", w) for w in words)


def test_shipped_solutions_cover_the_6mal5_list(shared_list) -> None:
    """How many of the 1070 6mal5.com solutions (tests only, ../shared/data) we also pick."""
    reference = set(shared_list("de", "solutions.txt").read_text().split())
    ours = set(raten.load_words("de").list_solutions)
    assert len(reference) == 1070
    assert len(reference & ours) >= 880  # 893 measured with wngerman 20161207-11, wordfreq 3.1.1


@pytest.mark.slow
def test_frequent_words_are_allowed_but_never_solutions(lex: Lexicon) -> None:
    plain = build_lists(lex, fake_zipf, solutions=3)
    listed = set(plain.allowed)
    some = sorted(listed)[:2]
    result = build_lists(lex, fake_zipf, solutions=3, frequent=["sowas", "track", *some], names=["kevin", *some])
    assert result.frequent == ["sowas", "track"]  # a word a dictionary lists is not counted as only wordfreq's
    assert set(result.allowed) == listed | {"sowas", "track"} and result.solutions == plain.solutions
    assert result.proper == []  # names count only when the hunspell forms alone bring them
    assert result.ngerman == sorted(listed)  # de-ext's solutions: the dictionaries' words only
    assert result.summary()["frequent"] == 2 and result.transliterated == plain.transliterated
