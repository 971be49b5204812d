"""Reading the wngerman dictionary: which entries the builder keeps, and its errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from german_sample import DICTIONARY
from raten.errors import RatenError
from raten.wordlists.german.dictionary import Lexicon, read_dictionary


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
