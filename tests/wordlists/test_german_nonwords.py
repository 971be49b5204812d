"""`raten words build` (issue 23, item 5): wordfreq's frequent words that are no German word (runs
of one letter, Roman numerals, interjections, words neither dictionary nor hunspell's affix rules
accept) are dropped unless 6mal5.com accepts them, by default (the shipped `de`,
tests/wordlists/test_german_rebuild.py checks it byte for byte); `--keep-non-words` keeps them
(the `de` before December 2026)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import raten
from german_sample import fake_zipf
from raten.cli.main import main
from raten.wordlists.german.build import build_lists
from raten.wordlists.german.dictionary import parse_dictionary
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL, accepts
from raten.wordlists.german.nonwords import INTERJECTIONS, KINDS, NonWordFilter, non_word_kind

DATA = Path(raten.__file__).parent / "data"
#: The non-words issue 23 found among de's allowed words (they came with wordfreq's frequent words).
ISSUE = {"aaaah", "ahhhh", "hmmmm", "jaaaa", "mmmmm", "neeee", "ohhhh", "ooooh", "soooo", "xxxxx", "xviii"}


def test_the_issues_non_words_are_each_of_a_kind() -> None:
    kinds = {word: non_word_kind(word) for word in ISSUE}
    assert kinds.pop("xviii") == "roman"  # a numeral before a run: XVIII has three I
    assert set(kinds.values()) == {"run"}
    assert non_word_kind("xxvii") == non_word_kind("mmxii") == "roman"
    assert non_word_kind("achso") == "interjection" and {"achso", "ahaha"} <= INTERJECTIONS
    assert non_word_kind("sowas") == "unknown"
    assert non_word_kind("sowas", accepted={"sowas"}) is None  # hunspell's rules accept it
    assert non_word_kind("civil") == "unknown"  # letters of numerals, no numeral
    assert list(KINDS) == ["roman", "run", "interjection", "unknown"]


def test_the_filter_keeps_what_the_other_game_accepts() -> None:
    sifted = NonWordFilter(accepted=frozenset({"huthi"}), keep=frozenset({"track", "soooo"}))
    kept, dropped = sifted.split(["xxxxx", "track", "soooo", "huthi", "jared", "achso", "xviii"])
    assert kept == ["huthi", "soooo", "track"]
    assert dropped == {"roman": ["xviii"], "run": ["xxxxx"], "interjection": ["achso"], "unknown": ["jared"]}


@pytest.mark.slow
def test_build_lists_filters_the_frequent_words_only() -> None:
    """A dictionary word is a word, three letters in a row included (Teeei); the frequent words
    the dictionaries list too are no frequent words, so the filter never sees them."""
    lex = parse_dictionary(["Teeei", "Hunde", "Kasse"])
    frequent = ["xxxxx", "sowas", "track", "kasse", "jared"]
    plain = build_lists(lex, fake_zipf, solutions=1, frequent=frequent)
    assert plain.non_words is None
    assert plain.frequent == ["jared", "sowas", "track", "xxxxx"]
    sifted = NonWordFilter(accepted=frozenset({"sowas"}), keep=frozenset({"track"}))
    result = build_lists(lex, fake_zipf, solutions=1, frequent=frequent, non_words=sifted)
    assert result.allowed == ["hunde", "kasse", "sowas", "teeei", "track"]
    assert result.frequent == ["sowas", "track"] and result.ngerman == plain.ngerman
    assert result.non_words == {"roman": [], "run": ["xxxxx"], "interjection": [], "unknown": ["jared"]}


def test_the_shipped_de_has_none_of_the_issues_non_words() -> None:
    allowed = set(raten.load_words("de").allowed)
    assert not ISSUE & allowed and not {"achso", "ahaha", "xxvii"} & allowed
    assert {"sowas", "track", "email"} <= allowed  # wordfreq's words that 6mal5 accepts stay


def test_hunspell_accepts_a_word_as_wordfreq_writes_it_or_capitalised(debian_german) -> None:  # noqa: ARG001
    got = accepts(DEFAULT_HUNSPELL, {"kaese": {"kaese", "käse"}, "hunde": {"hunde"}, "xxxxx": {"xxxxx"}, "x": {"ł"}})
    assert got == {"kaese", "hunde"}


@pytest.fixture(scope="module")
def sifted(tmp_path_factory, debian_german) -> tuple[Path, dict]:  # noqa: ARG001 - needs the packages
    """The lists built with and without the filter into fresh folders, with their reports (6mal5's
    coverage in them)."""
    pytest.importorskip("wordfreq")
    six = [a for name in ("solutions.txt", "allowed.txt") for a in ("--compare", str(DATA / "6mal5" / name))]
    built = []
    for flag in ("--filter-non-words", "--keep-non-words"):
        out = tmp_path_factory.mktemp("de" + flag)
        result = CliRunner().invoke(main, ["words", "build", flag, "--out", str(out), "--json", *six])
        assert result.exit_code == 0, result.output
        built += [out, json.loads(result.output)]
    return tuple(built)


@pytest.mark.slow
def test_the_filtered_build_drops_the_non_words_and_keeps_6mal5s_coverage(sifted) -> None:
    out, report, kept, kept_report = sifted
    six = raten.load_words("6mal5")
    after = set((out / "allowed.txt").read_text().split())
    before = set((kept / "allowed.txt").read_text().split())
    assert before >= ISSUE and not ISSUE & after and len(before) == 9514 and kept_report["non_words"] is None
    dropped = report["non_words"]
    assert dropped["words"]["roman"] == ["xviii", "xxiii", "xxvii"] and "xxxxx" in dropped["words"]["run"]
    assert dropped["dropped"] == len(before) - len(after) == 3233 and len(after) == 6281
    assert dropped["kept"] == 400 and dropped["kept_by_6mal5"] == 399 and dropped["kept_by_hunspell"] == ["huthi"]
    # what 6mal5 accepts stays: its coverage by de is the same before and after (1070 and 2700)
    coverage = report["coverage"]
    answers, guesses = coverage[str(DATA / "6mal5" / "solutions.txt")], coverage[str(DATA / "6mal5" / "allowed.txt")]
    assert answers["allowed"] == 1070 and answers["not_allowed"] == []
    assert guesses["allowed"] == len(set(six.allowed) & before) == len(set(six.allowed) & after) == 2700
    # the dictionaries' words and the solutions are untouched
    for name in ("solutions.txt", "ngerman.txt", "proper.txt"):
        assert (out / name).read_bytes() == (kept / name).read_bytes(), name
    notice = (out / "NOTICE").read_text(encoding="utf-8")
    assert "raten words build --solutions 1050 --min-zipf 3.0 --filter-non-words" in notice
    assert "rabuu/wordle-bot" in notice and "3233\n     others were dropped" in notice
