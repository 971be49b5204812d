"""Expanding a hunspell dictionary into its five-letter forms: a sample dictionary, and Debian's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from german_sample import fake_zipf
from raten.cli.common import console
from raten.cli.main import main
from raten.errors import RatenError
from raten.wordlists.german import build, hunspell
from raten.wordlists.german.dictionary import parse_dictionary
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL, HunspellDict, expand, five_letter, from_path

# Affix rules the way de_DE.aff writes them: plural -e, past tense -te/-ten, comparative -er,
# prefix un-; NEEDAFFIX (h: the stem alone is no word) and ONLYINCOMPOUND (o: only in compounds).
AFF = """\
SET {charset}
ONLYINCOMPOUND o
NEEDAFFIX h
COMPOUNDBEGIN x

SFX E Y 1
SFX E 0 e .

SFX T Y 2
SFX T 0 te .
SFX T 0 ten .

SFX C Y 1
SFX C 0 er .

PFX U Y 1
PFX U 0 un .
"""
DIC = "9\nHund/E\nging/E\nerb/T\neng/C\nSpaß/E\nKraut/hE\nAbhol/ox\nklar/UC\nTaler\n"


def sample(tmp_path: Path, charset: str = "UTF-8", codec: str = "utf-8") -> HunspellDict:
    stem = tmp_path / "sample"
    stem.with_suffix(".aff").write_bytes(AFF.format(charset=charset).encode(codec))
    stem.with_suffix(".dic").write_bytes(DIC.encode(codec))
    return HunspellDict(stem)


@pytest.mark.parametrize(("charset", "codec"), [("UTF-8", "utf-8"), ("ISO8859-1", "latin-1")])
def test_expansion_of_a_sample_dictionary(tmp_path: Path, hunspell_tools, charset: str, codec: str) -> None:  # noqa: ARG001
    forms = expand(sample(tmp_path, charset, codec))
    # Hunde (plural), ginge, erbte, enger (comparative): forms made by the affix rules; Spaß is
    # five letters after ß -> ss; Taler has no flags. Kraut needs an affix (and Kraute, unklar
    # have six letters); Abhol exists only in compounds (unmunch lists it, hunspell rejects it).
    assert forms == ["Hunde", "Spaß", "Taler", "enger", "erbte", "ginge"]
    assert parse_dictionary(forms).five() == ["enger", "erbte", "ginge", "hunde", "spass", "taler"]


def test_five_letter_counts_letters_after_transliteration() -> None:
    assert five_letter(["Größe", "Spaß", "Maße", "Tisch", "Tische", "Tisch", "ab-zu"]) == ["Maße", "Spaß", "Tisch"]


def test_missing_dictionary_and_tools_are_clear_errors(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(RatenError, match="does not exist: apt-get install hunspell-de-de-frami"):
        expand(HunspellDict(tmp_path / "de_DE_frami", "hunspell-de-de-frami"))
    with pytest.raises(RatenError, match="does not exist: pass another with --hunspell"):
        expand(from_path(tmp_path / "other.dic"))
    d = sample(tmp_path)
    monkeypatch.setattr(hunspell.shutil, "which", lambda _name: None)
    with pytest.raises(RatenError, match="needs unmunch: apt-get install hunspell-tools hunspell"):
        expand(d)


def test_charset_comes_from_the_affix_file(tmp_path: Path) -> None:
    assert hunspell.encoding(sample(tmp_path, "ISO8859-1", "latin-1")) == "ISO8859-1"
    stem = tmp_path / "bad"
    stem.with_suffix(".aff").write_text("SET KLINGON-8\n")
    with pytest.raises(RatenError, match="unknown character set 'KLINGON-8'"):
        hunspell.encoding(HunspellDict(stem))
    with pytest.raises(RatenError, match="cannot read the hunspell affix file"):
        hunspell.encoding(HunspellDict(tmp_path / "absent"))
    bare = tmp_path / "bare"
    bare.with_suffix(".aff").write_text("SFX E Y 1\n")
    assert hunspell.encoding(HunspellDict(bare)) == "ISO8859-1"  # hunspell's default


def test_from_path_takes_either_file_or_the_stem(tmp_path: Path) -> None:
    assert from_path(tmp_path / "x.dic").stem == from_path(tmp_path / "x.aff").stem == from_path(tmp_path / "x").stem
    assert from_path(DEFAULT_HUNSPELL.dic) == DEFAULT_HUNSPELL  # the Debian package's name goes in the NOTICE
    assert from_path(tmp_path / "x").package is None


@pytest.fixture(scope="module")
def frami(debian_german) -> set[str]:  # noqa: ARG001 - skips (fails under make test) without the packages
    """Debian's frami dictionary expanded, transliterated: the five-letter words it accepts."""
    return set(parse_dictionary(expand(DEFAULT_HUNSPELL)).five())


@pytest.mark.slow
def test_debian_dictionary_expands_to_inflected_forms(frami: set[str]) -> None:
    # wordle.at's examples (the issue): conjugations; plurals, cases, comparatives
    for word in ("ginge", "erbte", "gehst", "hunde", "tages", "enger", "kluge", "spass"):
        assert word in frami, word
    # parts that exist only inside compounds (Abholdienst, Duschgel) are no words of their own
    for part in ("abhol", "dusch", "brech", "fecht"):
        assert part not in frami, part
    assert all(re.fullmatch("[a-z]{5}", w) for w in frami)


def test_build_allows_the_hunspell_forms_and_keeps_the_solutions(
    dict_file: Path,
    tmp_path: Path,
    monkeypatch,
    hunspell_tools,  # noqa: ARG001
) -> None:
    monkeypatch.setattr(build, "wordfreq_zipf", lambda: fake_zipf)
    d = sample(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("ginge\nhunde\nwolke\nzebra\n")
    base = ["words", "build", "--dict", str(dict_file), "--no-frequent", "--solutions", "5", "--json"]
    before = CliRunner().invoke(main, [*base, "--no-hunspell", "--out", str(tmp_path / "before")])
    after = CliRunner().invoke(
        main, [*base, "--hunspell", str(d.dic), "--compare", str(other), "--out", str(tmp_path / "after")]
    )
    assert before.exit_code == after.exit_code == 0, after.output
    old, new = json.loads(before.output), json.loads(after.output)
    sample_forms = {"enger", "erbte", "ginge", "hunde", "spass", "taler"}
    old_allowed = set((tmp_path / "before" / "allowed.txt").read_text().split())
    new_allowed = (tmp_path / "after" / "allowed.txt").read_text().split()
    assert set(new_allowed) == old_allowed | sample_forms
    assert (tmp_path / "after" / "ngerman.txt").read_text().split() == new_allowed  # de-ext: every word
    same = (tmp_path / "before" / "solutions.txt").read_text()
    assert (tmp_path / "after" / "solutions.txt").read_text() == same  # solutions: wngerman's alone
    assert new["hunspell"] == {"path": str(d.stem), "forms": 6}
    assert new["added_by_hunspell"] == len(sample_forms - old_allowed) and old["added_by_hunspell"] == 0
    coverage = new["coverage"][str(other)]
    solutions = set(same.split())
    expected = {"ginge", "hunde", "wolke", "zebra"}
    assert coverage == {
        "words": 4,
        "allowed": len(expected & set(new_allowed)),
        "allowed_wngerman_only": len(expected & old_allowed),
        "solutions": len(expected & solutions),
        "not_allowed": ["zebra"],
    }
    notice = (tmp_path / "after" / "NOTICE").read_text(encoding="utf-8")
    assert f"--hunspell {d.stem} --solutions 5" in notice and "GPL-2 or GPL-3" in notice
    assert f"files {d.stem}.dic and .aff" in notice and "(not a Debian package)" in notice
    assert "ginge" not in (tmp_path / "before" / "allowed.txt").read_text().split()


def test_build_command_reports_a_bad_compare_file_before_building(dict_file: Path, tmp_path: Path) -> None:
    args = ["words", "build", "--dict", str(dict_file), "--no-hunspell", "--dry-run"]
    result = CliRunner().invoke(main, [*args, "--compare", str(tmp_path / "absent.txt")])
    assert result.exit_code != 0 and "does not exist" in result.output and "Traceback" not in result.output
    bad = tmp_path / "bad.txt"
    bad.write_text("toolong\n")
    result = CliRunner().invoke(main, [*args, "--compare", str(bad)])
    assert result.exit_code != 0 and "7 letters" in result.output


def test_a_failing_tool_is_a_clear_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(hunspell, "_tool", lambda _name: "/bin/false")
    with pytest.raises(RatenError, match=r"false failed \(exit 1\): no message"):
        expand(sample(tmp_path))


def test_build_command_prints_what_hunspell_added_and_the_coverage(
    dict_file: Path,
    tmp_path: Path,
    monkeypatch,
    hunspell_tools,  # noqa: ARG001
) -> None:
    monkeypatch.setattr(build, "wordfreq_zipf", lambda: fake_zipf)
    other = tmp_path / "other.txt"
    other.write_text("ginge\nzebra\n")
    d = sample(tmp_path)
    args = [
        "words",
        "build",
        "--dict",
        str(dict_file),
        "--hunspell",
        str(d.stem),
        "--compare",
        str(other),
        "--no-frequent",
    ]
    monkeypatch.setattr(console, "_width", 1000)  # rich folds long lines (and paths) at the terminal's width
    result = CliRunner().invoke(main, [*args, "--dry-run"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"{d.stem}: 6 five-letter forms" in text
    assert f"{other}: 2 words, 1 allowed (wngerman alone 0), 0 solutions; not allowed: zebra" in text
    assert "nothing written" in text
