"""The base-form rules on a small made-up dictionary, and the hand-kept lists they read."""

from __future__ import annotations

import re
from importlib import resources

import pytest

import raten
from german_sample import fake_zipf
from raten.wordlists.german import morphology
from raten.wordlists.german.dictionary import Lexicon, parse_dictionary
from raten.wordlists.german.morphology import Morphology


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
    morph = Morphology(lex, lambda _w, lang: 3.0 if lang == "de" else 0.0)
    assert lex.spellings["masse"] == ("masse", "maße")
    assert morph.freq("masse") == pytest.approx(3.0 + 0.30103, abs=1e-4)
    assert morph.freq("masse", "en") == 0.0


def test_shipped_solutions_leave_out_what_the_hand_lists_name() -> None:
    solutions = set(raten.load_words("de").list_solutions)
    assert not solutions & (morphology.NAMES | morphology.FOREIGN | morphology.OFFENSIVE)
    assert {"wolke", "regen", "tisch", "fuenf", "muede"} <= solutions  # common base forms
    assert not {"kommt", "alten", "jahre", "fotos", "peter", "paris"} & solutions


@pytest.mark.parametrize("name", ["names.txt", "foreign.txt", "offensive.txt", "interjections.txt"])
def test_hand_lists_are_package_files_of_sorted_five_letter_words(name: str) -> None:
    text = resources.files("raten.wordlists.german").joinpath(name).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("# ")  # a header says what the list holds and why
    words = [line for line in lines if not line.startswith("#")]
    assert words == sorted(set(words))
    assert all(re.fullmatch("[a-z]{5}", w) for w in words)


def test_hand_lists_are_read_and_disjoint() -> None:
    names, foreign, offensive = morphology.NAMES, morphology.FOREIGN, morphology.OFFENSIVE
    assert {"peter", "koeln"} <= names and "queen" in foreign and "neger" in offensive
    assert not names & foreign and not names & offensive and not foreign & offensive
    morph = Morphology(parse_dictionary(["Queen", "Neger"]), fake_zipf)
    assert morph.listed("queen") == "foreign word" and morph.listed("neger") == "offensive"
