"""Feedback: the two-pass rule against an independent reference, hand-worked cases, notations."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import raten
from raten import compat
from raten.compat import feedback
from raten.engine import kernels
from raten.engine.feedback import (
    ALL_GREEN,
    PATTERNS,
    code_to_colours,
    colours_to_code,
    feedback_colours,
    format_pattern,
    parse_pattern,
    pattern,
)
from raten.engine.words import letters
from raten.errors import RatenError
from reference import ref_code, ref_colours, ref_dots

# Worked out by hand, letter by letter (see the comments), in English and German.
HAND_CASES = [
    # guess, answer, feedback
    ("beere", "rente", ".!.?!"),  # 2nd E green, 3rd E finds no E left, R yellow, last E green
    ("spiel", "insel", "?.?!!"),
    ("speed", "abide", "..?.?"),  # one E in ABIDE: the first E takes it, the second is grey
    ("eerie", "there", "?.?.!"),  # last E green; one spare E left for the first E only
    ("there", "eerie", "..??!"),
    ("llama", "hello", "??..."),  # both L yellow: HELLO has two
    ("hello", "llama", "..??."),
    ("sassy", "mossy", "..!!!"),  # the first S finds both S of MOSSY taken by greens
    ("geese", "eerie", ".!?.!"),
    ("lolly", "hello", ".?!!."),  # greens take both L before the first L is looked at
    ("speed", "creep", ".?!!."),
    ("abbey", "kebab", "??!?."),
    ("kebab", "abbey", ".?!??"),
    ("eerie", "eerie", "!!!!!"),
    ("essen", "seele", "??.?."),  # SEELE has one S: the second S is grey; three E, two asked
    ("essen", "messe", "??!?."),
    ("nonne", "nenne", "!.!!!"),
    ("affen", "waffe", "??!?."),  # middle F green, the other F yellow (WAFFE has two)
    ("ebene", "leben", "????."),  # LEBEN has two E: the third E of EBENE is grey
    ("leben", "ebene", ".????"),
    ("masse", "tasse", ".!!!!"),
    ("kanne", "anker", "???.?"),  # one N in ANKER: the first N takes it
]


@pytest.mark.parametrize(("guess", "answer", "expected"), HAND_CASES)
def test_hand_worked_cases(guess: str, answer: str, expected: str) -> None:
    assert feedback(guess, answer) == expected
    assert ref_dots(guess, answer) == expected
    assert raten.feedback(guess.upper(), answer.upper()) == expected
    assert format_pattern(compat.pattern(guess, answer)) == expected


def test_beere_rente_colours() -> None:
    assert feedback_colours("beere", "rente") == (0, 2, 0, 1, 2)  # grey, green, grey, yellow, green


def test_code_of_spiel_insel_and_all_green() -> None:
    assert pattern("spiel", "insel") == 1 * 81 + 0 * 27 + 1 * 9 + 2 * 3 + 2 == 98
    assert pattern("crane", "crane") == ALL_GREEN == 242
    assert pattern("fghij", "abcde") == 0


@pytest.fixture(scope="module")
def repeated_words(en_words, de6_words) -> list[str]:
    """A few hundred words rich in repeated letters from both languages, plus made-up ones."""
    rng = random.Random(2024)
    en = sorted(w for w in en_words.allowed if len(set(w)) <= 3)
    de = sorted(w for w in de6_words.allowed if len(set(w)) <= 3)
    made_up = ["eeeee", "aaaab", "baaaa", "ababa", "eeree", "reeee", "sssss", "esses"]
    words = rng.sample(en, 180) + rng.sample(de, min(120, len(de))) + made_up
    return sorted(set(words))


@pytest.fixture(scope="module")
def reference_table(repeated_words) -> np.ndarray:
    return np.array([[ref_code(g, a) for a in repeated_words] for g in repeated_words], dtype=np.int64)


def test_repeated_words_sample_is_large(repeated_words) -> None:
    assert len(repeated_words) >= 250


@pytest.mark.slow
@pytest.mark.parametrize("threshold", [0, 1 << 62], ids=["parallel", "serial"])
def test_kernel_matrix_equals_reference_on_every_pair(
    repeated_words, reference_table, threshold: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kernels, "PARALLEL_CELLS", threshold)
    arr = letters(repeated_words)
    table = kernels.feedback_matrix(arr, arr)
    assert table.dtype == np.uint8
    mismatch = np.argwhere(table.astype(np.int64) != reference_table)
    assert mismatch.size == 0, [(repeated_words[g], repeated_words[a]) for g, a in mismatch[:5]]


@pytest.mark.slow
def test_python_pattern_equals_reference_on_every_pair(repeated_words, reference_table) -> None:
    for gi, g in enumerate(repeated_words):
        row = [pattern(g, a) for a in repeated_words]
        assert row == reference_table[gi].tolist(), g


@pytest.mark.slow
def test_api_pattern_equals_reference_on_every_pair(repeated_words, reference_table) -> None:
    for gi, g in enumerate(repeated_words):
        row = [compat.pattern(g, a) for a in repeated_words]
        assert row == reference_table[gi].tolist(), g


five_letters = st.text(alphabet="abesr", min_size=5, max_size=5)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(five_letters, five_letters), min_size=1, max_size=40))
def test_random_pairs_agree(pairs: list[tuple[str, str]]) -> None:
    guesses, answers = [g for g, _ in pairs], [a for _, a in pairs]
    table = kernels.feedback_matrix(letters(guesses), letters(answers))
    for i, (guess, answer) in enumerate(pairs):
        expected = ref_code(guess, answer)
        assert pattern(guess, answer) == expected
        assert int(table[i, i]) == expected


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(five_letters, five_letters)
def test_letter_counts_are_conserved(guess: str, answer: str) -> None:
    """For every letter, greens + yellows = min(copies in guess, copies in answer)."""
    colours = feedback_colours(guess, answer)
    shown = Counter(g for g, c in zip(guess, colours) if c != 0)
    cg, ca = Counter(guess), Counter(answer)
    for letter in cg:
        assert shown[letter] == min(cg[letter], ca[letter])
    assert all((c == 2) == (g == a) for g, a, c in zip(guess, answer, colours))
    # no yellow after a grey of the same letter
    for i, (g, c) in enumerate(zip(guess, colours)):
        if c == 1:
            assert all(not (guess[j] == g and colours[j] == 0) for j in range(i))
    assert list(colours) == ref_colours(guess, answer)


# --- codes and notations -----------------------------------------------------------


def test_codes_round_trip() -> None:
    for code in range(PATTERNS):
        colours = code_to_colours(code)
        assert len(colours) == 5
        assert colours_to_code(colours) == code
        assert sum(c * 3 ** (4 - i) for i, c in enumerate(colours)) == code


@pytest.mark.parametrize("code", [-1, 243, 1000])
def test_code_out_of_range(code: int) -> None:
    with pytest.raises(RatenError, match="outside"):
        code_to_colours(code)


@pytest.mark.parametrize("notation", ["dots", "letters", "digits", "emoji"])
def test_every_code_written_and_read_back(notation: str) -> None:
    for code in range(PATTERNS):
        text = format_pattern(code, notation)
        assert parse_pattern(text) == code


@pytest.mark.parametrize(
    "text",
    [
        "?.?!!",
        "ybygg",
        "YBYGG",
        "yxygg",
        "y-ygg",
        "10122",
        "\U0001f7e8\u2b1c\U0001f7e8\U0001f7e9\U0001f7e9",
        "\U0001f7e8\u2b1b\U0001f7e8\U0001f7e9\U0001f7e9",
        "\U0001f7e8\u2b1c\ufe0f\U0001f7e8\U0001f7e9\U0001f7e9",  # white square with variation selector
        "\U0001f7e8\u2b1b\ufe0f\U0001f7e8\U0001f7e9\U0001f7e9",
        "  ?.?!!\n",
        "?b1g!",  # notations may even be mixed
    ],
)
def test_every_notation_is_read(text: str) -> None:
    assert parse_pattern(text) == pattern("spiel", "insel") == 98


def test_written_notations() -> None:
    assert format_pattern(98) == "?.?!!"
    assert format_pattern(98, "letters") == "ybygg"
    assert format_pattern(98, "digits") == "10122"
    assert format_pattern(98, "emoji") == "\U0001f7e8\u2b1c\U0001f7e8\U0001f7e9\U0001f7e9"
    assert feedback("spiel", "insel", "emoji") == format_pattern(98, "emoji")
    assert feedback("spiel", "insel", "digits") == "10122"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("?.?!", "4 symbols, not 5"),
        ("?.?!!.", "6 symbols, not 5"),
        ("", "0 symbols"),
        ("..z..", "unknown symbol 'z'"),
        ("0123.", "unknown symbol '3'"),
        ("?.?!\U0001f7e5", "unknown symbol"),  # a red square (blue is high contrast's yellow now)
        ("? ?!!", "unknown symbol ' '"),
    ],
)
def test_bad_patterns(text: str, message: str) -> None:
    with pytest.raises(RatenError, match=message):
        parse_pattern(text)


def test_unknown_notation() -> None:
    with pytest.raises(RatenError, match="unknown notation"):
        format_pattern(0, "morse")


@pytest.mark.parametrize(("guess", "answer"), [("spie", "insel"), ("spiel", "insels"), ("sp1el", "insel")])
def test_feedback_rejects_bad_words(guess: str, answer: str) -> None:
    with pytest.raises(RatenError):
        feedback(guess, answer)


def test_feedback_transliterates_umlauts() -> None:
    assert feedback("Käse", "kasse") == feedback("kaese", "kasse")


def test_high_contrast_share_squares() -> None:
    """NYT's high-contrast mode shares orange for green and blue for yellow (issue 11 item 8)."""
    assert parse_pattern("\U0001f7e7\U0001f7e6\u2b1b\u2b1c\U0001f7e7") == parse_pattern("!?..!")
    assert parse_pattern("\U0001f7e6\U0001f7e6\U0001f7e6\U0001f7e6\U0001f7e6") == parse_pattern("?????")
    assert parse_pattern("\U0001f7e7\ufe0f" * 5) == ALL_GREEN
