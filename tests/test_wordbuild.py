"""The German list builder on a small made-up dictionary, and the lists that ship with raten."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import raten
from raten.cli.main import main
from raten.errors import RatenError
from raten.wordlists import german as wordbuild
from raten.wordlists.german import (
    Lexicon,
    Morphology,
    build_lists,
    debian_version,
    parse_dictionary,
    read_dictionary,
    write_lists,
)

DATA = Path(raten.__file__).parent / "data" / "de"

# A dictionary with one family of words for each rule, written the way ngerman writes it.
DICTIONARY = """\
# a comment line
Wolke
Wolken
Regenwolke
Regen
Tisch
Tische
Tischen
Tisches
Hund
Hunde
Hunden
Hundes
Jagdhund
Jagdhunde
Foto
Fotos
alt
alte
alten
altem
alter
altes
müde
müden
müdem
müder
müdes
kommen
kommt
komme
kommst
loben
lobt
lobst
lobe
gelobt
Peter
Peters
Größe
Straße
Fuß
Käse
fünf
DDR
McDonald
Jo-Jo
first
"""

# zipf frequencies (German, English) by spelling; anything else is 0.
FREQS: dict[str, tuple[float, float]] = {
    "wolke": (3.8, 0.0),
    "regen": (4.3, 2.0),
    "tisch": (4.2, 0.0),
    "hunde": (4.5, 1.0),
    "fotos": (4.6, 2.0),
    "alten": (5.3, 0.0),
    "alter": (4.7, 2.0),
    "müde": (4.5, 0.0),
    "kommt": (5.9, 0.0),
    "loben": (3.9, 0.0),
    "peter": (5.1, 4.5),
    "käse": (4.1, 0.0),
    "fünf": (5.0, 0.0),
    "first": (3.6, 5.9),
    "größe": (4.9, 0.0),
    "alt": (5.2, 0.0),
    "kommen": (5.8, 0.0),
    "hund": (4.9, 0.0),
}


def fake_zipf(word: str, lang: str) -> float:
    """A frequency source with the same signature as wordfreq.zipf_frequency."""
    de, en = FREQS.get(word, (0.0, 0.0))
    return de if lang == "de" else en


@pytest.fixture
def lex() -> Lexicon:
    return parse_dictionary(DICTIONARY.splitlines())


@pytest.fixture
def dict_file(tmp_path: Path) -> Path:
    path = tmp_path / "ngerman"
    path.write_text(DICTIONARY, encoding="utf-8")
    return path


# --- reading the dictionary ---------------------------------------------------------


def test_parse_sorts_case_and_drops_acronyms_and_other_characters(lex: Lexicon) -> None:
    assert "wolke" in lex.capital and "loben" in lex.lower
    assert "ddr" not in lex and "mcdonald" not in lex and "jojo" not in lex
    assert lex.dropped == {"acronym or mixed case": 2, "other characters": 1}
    assert lex.lines == DICTIONARY.count("\n") - 1  # the comment does not count


def test_five_letter_words_after_transliteration(lex: Lexicon) -> None:
    five = lex.five()
    assert {"kaese", "fuenf", "muede"} <= set(five)  # five letters only after ä→ae, ü→ue
    assert "groesse" not in five and "strasse" not in five and "fuss" not in five
    assert five == sorted(five)
    assert all(re.fullmatch("[a-z]{5}", w) for w in five)
    assert lex.spellings["kaese"] == ("käse",)


def test_read_dictionary_errors(tmp_path: Path) -> None:
    with pytest.raises(RatenError, match="apt-get install wngerman"):
        read_dictionary(tmp_path / "missing")
    with pytest.raises(RatenError, match="directory"):
        read_dictionary(tmp_path)
    empty = tmp_path / "empty"
    empty.write_text("Haus\nBaum\n", encoding="utf-8")
    with pytest.raises(RatenError, match="no five-letter words"):
        read_dictionary(empty)
    latin1 = tmp_path / "latin1"
    latin1.write_bytes("Käse\n".encode("latin-1"))
    with pytest.raises(RatenError, match="not UTF-8"):
        read_dictionary(latin1)


# --- the rules ------------------------------------------------------------------------


def test_rules_on_each_family(lex: Lexicon) -> None:
    morph = Morphology(lex, fake_zipf)
    assert morph.exclusion("alten")[0] == "adjective_form"
    assert morph.exclusion("kommt")[0] == "verb_form"
    assert morph.exclusion("hunde")[0] == "noun_form"  # plural: Hundes is a genitive
    assert morph.exclusion("fotos")[0] == "noun_form"
    assert morph.exclusion("peter") == ("listed", "proper name")
    assert morph.exclusion("first")[0] == "english"
    for base in ("wolke", "regen", "tisch", "loben", "muede", "kaese", "fuenf"):
        assert morph.exclusion(base) is None, base


def test_frequencies_add_up_spellings() -> None:
    lex = parse_dictionary(["Masse", "Maße"])  # both are "masse" in the game
    morph = Morphology(lex, lambda w, lang: 3.0 if lang == "de" else 0.0)
    assert lex.spellings["masse"] == ("masse", "maße")
    assert morph.freq("masse") == pytest.approx(3.0 + 0.30103, abs=1e-4)
    assert morph.freq("masse", "en") == 0.0


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


def test_written_lists_are_deterministic(lex: Lexicon, tmp_path: Path) -> None:
    result = build_lists(lex, fake_zipf, solutions=4)
    first = write_lists(result, tmp_path / "a", "notice\n")
    second = write_lists(build_lists(lex, fake_zipf, solutions=4), tmp_path / "b", "notice\n")
    for name in ("solutions", "allowed", "ngerman"):
        text = first[name].read_text(encoding="utf-8")
        assert text == second[name].read_text(encoding="utf-8")
        assert text.endswith("\n") and text.splitlines() == sorted(set(text.splitlines()))
    assert set(first["solutions"].read_text().split()) <= set(first["allowed"].read_text().split())


def test_debian_version_reads_dpkg_status(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text("Package: other\nVersion: 1\n\nPackage: wngerman\nStatus: ok\nVersion: 20161207-11\n")
    assert debian_version(status=status) == "20161207-11"
    assert debian_version("absent", status=status) is None
    assert debian_version(status=tmp_path / "nothing") is None


# --- the command --------------------------------------------------------------------


def test_command_builds_into_a_directory(dict_file: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(wordbuild, "wordfreq_zipf", lambda: fake_zipf)
    out = tmp_path / "out"
    args = ["words", "build", "--dict", str(dict_file), "--out", str(out), "--solutions", "5", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["solutions"] == 5 and report["allowed"] == 18
    assert (out / "solutions.txt").read_text() == "fuenf\nkaese\nmuede\nregen\ntisch\n"
    notice = (out / "NOTICE").read_text(encoding="utf-8")
    assert "wngerman" in notice and "wordfreq" in notice and "GPL-2+" in notice
    assert f"raten words build --dict {dict_file} --solutions 5 --min-zipf 3.0" in notice

    dry = CliRunner().invoke(
        main, ["words", "build", "--dict", str(dict_file), "--out", str(tmp_path / "dry"), "--dry-run"]
    )
    assert dry.exit_code == 0, dry.output
    assert "nothing written" in dry.output and not (tmp_path / "dry").exists()


def test_command_missing_dictionary_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["words", "build", "--dict", str(tmp_path / "ngerman"), "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "does not exist" in result.output and "wngerman" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "solutions.txt").exists()


def test_command_without_wordfreq_is_a_clear_error(dict_file: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import wordfreq now fails
    result = CliRunner().invoke(main, ["words", "build", "--dict", str(dict_file), "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "needs wordfreq" in result.output and "Traceback" not in result.output


# --- the shipped lists ----------------------------------------------------------------


def test_shipped_lists_load_with_expected_sizes() -> None:
    de = raten.load_words("de")
    ext = raten.load_words("de-ext")
    assert 1000 <= len(de.solutions) <= 1100
    assert 3800 <= len(de.allowed) <= 4200
    assert set(de.solutions) <= set(de.allowed)
    assert len(ext.solutions) >= 3 * len(de.solutions)
    assert set(de.solutions) <= set(ext.solutions) and set(de.allowed) <= set(ext.allowed)
    assert ext.solutions == ext.allowed
    assert de.language == ext.language == "de"


@pytest.mark.parametrize("name", ["solutions.txt", "allowed.txt", "ngerman.txt"])
def test_shipped_files_are_normalised(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    words = text.splitlines()
    assert text.endswith("\n")
    assert words == sorted(set(words))
    assert all(re.fullmatch("[a-z]{5}", w) for w in words)


def test_shipped_solutions_leave_out_what_the_hand_lists_name() -> None:
    solutions = set(raten.load_words("de").solutions)
    assert not solutions & (wordbuild.NAMES | wordbuild.FOREIGN | wordbuild.OFFENSIVE)
    assert {"wolke", "regen", "tisch", "fuenf", "muede"} <= solutions  # common base forms
    assert not {"kommt", "alten", "jahre", "fotos", "peter", "paris"} & solutions


def test_shipped_notice_names_sources_and_licences() -> None:
    notice = (DATA / "NOTICE").read_text(encoding="utf-8")
    for needle in ("wngerman 20161207", "GPL-2+", "wordfreq 3.", "CC BY-SA 4.0", "Apache-2.0", "raten words build"):
        assert needle in notice, needle


def test_shipped_solutions_cover_the_6mal5_list(shared_list) -> None:
    """How many of the 1070 6mal5.com solutions (tests only, ../shared/data) we also pick."""
    reference = set(shared_list("de", "solutions.txt").read_text().split())
    ours = set(raten.load_words("de").solutions)
    assert len(reference) == 1070
    assert len(reference & ours) >= 880  # 893 measured with wngerman 20161207-11, wordfreq 3.1.1
