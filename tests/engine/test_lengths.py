"""Words of 4 to 8 letters and letters beyond a-z, against the slow obvious reference
(tests/reference.py: another algorithm, any length): feedback, notations, the table and its
cell type, the word set's alphabet, ranking (numpy and compiled), hard mode and look-ahead."""

from __future__ import annotations

import ast
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine import kernels
from raten.engine.alphabet import LATIN, Alphabet
from raten.engine.feedback import (
    all_green,
    code_dtype,
    code_to_colours,
    colours_to_code,
    format_pattern,
    parse_pattern,
    pattern,
    pattern_count,
)
from raten.engine.hardmode import find_violation, legal_mask
from raten.engine.matrix import build_matrix, feedback_against, load_matrix
from raten.engine.partition import partition_stats_numpy
from raten.engine.state import State
from raten.engine.words import WordSet, check_word, letters
from raten.errors import RatenError
from reference import ref_code, ref_dots, ref_filter, ref_rank, ref_split

#: Few letters, so that most pairs share letters and repeat them; ä ö ü ß ñ beyond a-z.
SMALL = "abeäöüßñ"
KEPT = Alphabet("abcdefghijklmnopqrstuvwxyzäöüßñ")


def word(length: int, letters_: str = SMALL):
    return st.text(alphabet=letters_, min_size=length, max_size=length)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_feedback_of_any_length_and_letters_equals_the_reference(data) -> None:
    """Random pairs of 4 to 8 letters: the rule, its notations and the compiled table."""
    length = data.draw(st.integers(4, 8))
    pairs = data.draw(st.lists(st.tuples(word(length), word(length)), min_size=1, max_size=12))
    for g, a in pairs:
        code = pattern(g, a)
        assert code == ref_code(g, a)
        assert format_pattern(code, length=length) == ref_dots(g, a)
        assert parse_pattern(ref_dots(g, a), length) == code
        assert parse_pattern(format_pattern(code, "emoji", length), length) == code
    guesses, answers = [g for g, _ in pairs], [a for _, a in pairs]
    table = kernels.feedback_matrix(letters(guesses, KEPT), letters(answers, KEPT))
    assert table.dtype == code_dtype(length)
    assert table.tolist() == [[ref_code(g, a) for a in answers] for g in guesses]
    assert feedback_against(guesses[0], answers).tolist() == table[0].tolist()


@pytest.mark.parametrize("length", [4, 5, 6, 7, 8])
def test_codes_of_each_length(length: int) -> None:
    """3**L codes, all green the last; one byte a cell up to five letters, two above."""
    assert pattern_count(length) == 3**length and all_green(length) == 3**length - 1
    assert pattern("abcdefgh"[:length], "abcdefgh"[:length]) == all_green(length)
    assert np.dtype(code_dtype(length)).itemsize == (1 if length <= 5 else 2)
    codes = range(3**length) if length <= 6 else random.Random(length).sample(range(3**length), 500)
    for code in codes:
        assert colours_to_code(code_to_colours(code, length)) == code
        assert parse_pattern(format_pattern(code, "letters", length), length) == code
    with pytest.raises(RatenError, match=f"outside 0..{3**length - 1}"):
        code_to_colours(3**length, length)
    with pytest.raises(RatenError, match=f"not {length}"):
        parse_pattern("!" * (length + 1), length)


def test_feedback_refuses_words_of_two_lengths() -> None:
    with pytest.raises(RatenError, match="differ in length"):
        pattern("planet", "plane")


def test_a_list_keeps_its_own_letters_or_folds_them() -> None:
    umlauts = Alphabet("abcdefghijklmnopqrstuvwxyzäöü")
    assert umlauts.normalise(" Bären ") == "bären" and umlauts.normalise("Maße") == "masse"
    assert LATIN.normalise("Bären") == "baeren"
    accents = Alphabet("abcdefghijklmnopqrstuvwxyzñ", "accents")
    assert accents.normalise("Niño") == "niño" and accents.normalise("Árbol") == "arbol"
    assert accents.normalise("Cœur") == "coeur" and accents.normalise("pingüino") == "pinguino"
    assert Alphabet(fold="accents").normalise("Français") == "francais"
    assert check_word("Bären", length=5, alphabet=umlauts) == "bären"
    with pytest.raises(RatenError, match="must be letters a-z, ä, ö, ü only") as info:
        check_word("bäñer", length=5, alphabet=umlauts)
    assert info.value.params["fold"] == "ss"
    with pytest.raises(RatenError, match=r"'Bären' is BAEREN: 6 letters, not 5"):
        check_word("Bären", length=5)


def test_a_word_set_takes_its_length_and_letters_from_its_words() -> None:
    umlauts = Alphabet("abcdefghijklmnopqrstuvwxyzäöü")
    words = WordSet.from_lists(["Bären", "Söhne", "Äpfel"], ["abend", "Maße"], name="t", alphabet=umlauts)
    assert words.length == 5 and words.patterns == 243 and words.code_dtype == "uint8"
    assert words.solutions == ("bären", "söhne", "äpfel") and "masse" in words.allowed  # ß folds
    assert words.solution_letters.tolist()[0] == [1, 26, 17, 4, 13]
    six = WordSet.from_lists(["planet", "planes"], ["citrus"], name="six")
    assert (six.length, six.patterns, six.all_green, six.code_dtype) == (6, 729, 728, "uint16")
    assert six.check("PLANET") == "planet"
    with pytest.raises(RatenError, match="'plane' has 5 letters, not 6"):
        six.check("plane")
    with pytest.raises(RatenError, match=r"six allowed line 1: 'cat' has 3 letters, not 6"):
        WordSet.from_lists(["planet"], ["cat"], name="six")
    with pytest.raises(RatenError, match="raten plays words of 4 to 8"):
        WordSet.from_lists(["cat"], name="three")
    assert letters(["äbc"], Alphabet("abcä")).tolist() == [[3, 1, 2]]


def test_a_word_set_of_words_of_two_lengths_is_refused() -> None:
    with pytest.raises(RatenError, match="differ in length"):
        WordSet("mixed", ("planet",), ("planet", "plane"))


def random_words(seed: int, length: int, n_sol: int, n_allowed: int, letters_: str = "aeilnorstäü") -> WordSet:
    """Random strings of ``length`` letters (ä and ü kept as letters): many shared letters."""
    rng = random.Random(seed)
    pool: set[str] = set()
    while len(pool) < n_allowed:
        pool.add("".join(rng.choice(letters_) for _ in range(length)))
    allowed = sorted(pool)
    sols = rng.sample(allowed, n_sol)
    return WordSet.from_lists(sols, allowed, name=f"r{length}-{seed}", alphabet=KEPT)


@pytest.mark.parametrize("length", [4, 6, 8])
@pytest.mark.slow
def test_ranking_equals_the_reference(length: int) -> None:
    """The first ranking and one after a guess: bits, patterns, largest and expected left by
    the reference's histograms, the order by its tie rule."""
    words = random_words(length, length, 40, 150)
    state = State(words)
    for _ in range(2):
        got = [(round(h.bits, 9), h.word, h.candidate) for h in state.hints(top=8)]
        pool = words.allowed if state.count > 2 else state.candidate_words  # two left: one of them
        want = [(round(b, 9), w, c) for b, w, c in ref_rank(state.candidate_words, pool, top=8)]
        assert got == want
        for h in state.hints(top=3):
            bits, patterns, largest, expected = ref_split(h.word, state.candidate_words)
            assert (h.patterns, h.largest) == (patterns, largest)
            assert h.bits == pytest.approx(bits, abs=1e-9) and h.expected_remaining == pytest.approx(expected)
        guess = got[0][1]
        answer = max(
            state.candidate_words, key=lambda a: len(ref_filter(state.candidate_words, [(guess, pattern(guess, a))]))
        )
        state = state.after(guess, format_pattern(pattern(guess, answer), length=length))
        assert state.candidate_words == ref_filter(words.solutions, state.history)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 400), st.integers(1, 30), st.sampled_from([6, 7, 8]))
def test_two_byte_tables_split_bit_for_bit_in_numpy_and_compiled(seed, n, k, length) -> None:
    """uint16 tables (above five letters): numpy's statistics equal the kernel's, bit for bit
    unweighted, to 1e-12 weighted; group counts by the plain count."""
    rng = np.random.default_rng(seed)
    used = rng.choice(3**length, size=min(3**length, int(rng.integers(1, 50))), replace=False)
    data = rng.choice(used, size=(k + 3, n + 5)).astype(code_dtype(length))
    rows = np.arange(k, dtype=np.int64) + 1
    cols = np.sort(rng.choice(n + 5, n, replace=False)).astype(np.int64)
    got = kernels.partition_stats(data, rows, cols)
    want = partition_stats_numpy(data, rows, cols)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b)
    assert got[1].tolist() == [len(set(data[r, cols].tolist())) for r in rows]
    w = rng.random(n) + 0.1
    w /= w.sum()
    got_w, want_w = kernels.partition_stats(data, rows, cols, w), partition_stats_numpy(data, rows, cols, w)
    assert np.array_equal(got_w[1], want_w[1]) and np.array_equal(got_w[2], want_w[2])
    assert np.allclose(got_w[0], want_w[0], atol=1e-12) and np.allclose(got_w[3], want_w[3], atol=1e-12)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_hard_mode_of_any_length_and_letters_equals_the_readable_rule(data) -> None:
    """The compiled rule (``legal_mask``) against ``find_violation`` on every word over a few
    letters, two of them beyond a-z, after random histories of real games."""
    length = data.draw(st.sampled_from([4, 6, 7]))
    letters_ = "aäbß" if length < 7 else "aäb"
    alphabet = Alphabet("abcdefghijklmnopqrstuvwxyzäß")
    universe = [""]
    for _ in range(length):
        universe = [w + c for w in universe for c in letters_]
    secret = data.draw(word(length, letters_))
    history = [(g, pattern(g, secret)) for g in data.draw(st.lists(word(length, letters_), max_size=3))]
    mask = legal_mask(letters(universe, alphabet), history, alphabet)
    assert mask.tolist() == [find_violation(w, history) is None for w in universe]


@pytest.mark.parametrize("length", [4, 6])
def test_lookahead_and_hard_mode_rank_on_other_lengths(length: int) -> None:
    """Look-ahead's second step (its compiled rules sized by the list's alphabet) against a
    brute force, in hard mode with letters beyond a-z."""
    words = random_words(10 + length, length, 25, 70)
    state = State(words, hard=True)
    first = state.hints(top=1)[0].word
    cands = state.candidate_words
    best = state.hints(top=3, strategy="lookahead:3")
    assert {h.word for h in best} <= set(words.allowed)
    # the second step of ``first`` by brute force: each group scored by its best legal guess
    groups: dict[int, list[str]] = {}
    for c in cands:
        groups.setdefault(pattern(first, c), []).append(c)
    expect = 0.0
    for code, grp in groups.items():
        legal = [g for g in words.allowed if find_violation(g, [(first, code)]) is None]
        top = max((ref_split(g, grp)[0] for g in legal), default=0.0) if len(grp) > 2 else math.log2(len(grp))
        expect += len(grp) * min(top, math.log2(len(grp)))
    from raten.engine.lookahead import second_step_bits

    table, cols = state.answer_table()
    rows = state.guess_rows()
    row = words.allowed_index[first]
    got = second_step_bits(
        table, rows, cols, row, words.allowed_letters[row], words.allowed_letters[rows], True, alphabet=KEPT.size
    )
    assert got == pytest.approx(expect / len(cands), abs=1e-9)


def test_a_six_letter_table_is_cached_as_two_bytes_a_cell() -> None:
    words = random_words(3, 6, 30, 90)
    fresh = build_matrix(words)
    loaded = load_matrix(words).data  # written to the cache, mapped back
    again = load_matrix(words).data
    assert fresh.dtype == loaded.dtype == np.uint16
    assert np.array_equal(fresh, loaded) and again is loaded
    assert int(fresh.max()) == all_green(6)


# --- nothing else says five ----------------------------------------------------------------

SRC = Path(__file__).resolve().parents[2] / "src" / "raten"
CLASSIC = {"WORD_LENGTH", "PATTERNS", "ALL_GREEN"}


def classic_constants(source: str) -> list[str]:
    """The five-letter constants of ``raten.engine.feedback`` a module imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "raten.engine.feedback":
            found += [a.name for a in node.names if a.name in CLASSIC]
        elif isinstance(node, ast.Attribute) and node.attr in CLASSIC:
            found.append(node.attr)
    return found


@pytest.mark.slow
def test_no_module_takes_the_five_letter_constants() -> None:
    """Every module but feedback.py takes the length, the codes and all green from its words."""
    used = {
        str(p.relative_to(SRC)): names
        for p in sorted(SRC.rglob("*.py"))
        if p.name != "feedback.py" and (names := classic_constants(p.read_text(encoding="utf-8")))
    }
    assert used == {}
    assert classic_constants("from raten.engine.feedback import ALL_GREEN, pattern\nx = feedback.PATTERNS") == [
        "ALL_GREEN",
        "PATTERNS",
    ]
