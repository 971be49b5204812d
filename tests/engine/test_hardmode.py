"""Hard mode: the rule itself by hand, and the compiled rule (mask, reveal, keeping) against the readable one."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import PATTERNS, parse_pattern
from raten.engine.hardmode import (
    NO_GREEN,
    _requirements,
    find_violation,
    keeping,
    legal_mask,
    letter_counts,
    no_rules,
    reveal,
    rules,
    rules_after,
    violation,
)
from raten.engine.words import letters
from raten.errors import RatenError
from reference import ref_code

LETTERS = 26  # a-z

ALPHABET = "aberst"
UNIVERSE = tuple("".join(t) for t in itertools.product("aber", repeat=5))
UNIVERSE_LETTERS = letters(UNIVERSE)

words = st.text(alphabet=ALPHABET, min_size=5, max_size=5)


def _check_mask(history: list[tuple[str, int]]) -> None:
    mask = legal_mask(UNIVERSE_LETTERS, history)
    by_word = np.array([violation(w, history) is None for w in UNIVERSE])
    assert mask.dtype == bool
    bad = np.flatnonzero(mask != by_word)
    assert bad.size == 0, [UNIVERSE[i] for i in bad[:5]]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(secret=words, guesses=st.lists(words, min_size=0, max_size=4))
def test_mask_equals_violation_for_real_games(secret: str, guesses: list[str]) -> None:
    _check_mask([(g, ref_code(g, secret)) for g in guesses])


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(words, st.integers(0, PATTERNS - 1)), min_size=1, max_size=3))
def test_mask_equals_violation_for_any_colours(history: list[tuple[str, int]]) -> None:
    _check_mask(history)


@settings(max_examples=100, deadline=None)
@given(secret=words, guesses=st.lists(words, min_size=1, max_size=4))
def test_the_answer_is_always_legal(secret: str, guesses: list[str]) -> None:
    """Any word that fits every hint keeps the greens and the revealed letters."""
    history = [(g, ref_code(g, secret)) for g in guesses]
    assert violation(secret, history) is None
    assert legal_mask(letters([secret]), history)[0]


CRANE = [("crane", parse_pattern("..?!."))]
THERE = [("crane", parse_pattern(".?..!")), ("tyres", parse_pattern("!.??."))]  # answer THERE
SPEED = [("speed", parse_pattern("..?!."))]  # one E yellow (3rd), one green (4th): two E needed


@pytest.mark.parametrize(
    ("history", "guess", "reason"),
    [
        ([], "xylyl", None),
        (CRANE, "fanny", None),
        (CRANE, "crank", None),  # grey letters may be used again
        (CRANE, "giant", None),  # a yellow may stay where it was
        (CRANE, "slate", "4th letter must be N"),
        (CRANE, "dunno", "guess must contain A"),
        (SPEED, "tweet", None),
        (SPEED, "erode", "4th letter must be E"),
        (SPEED, "brief", "guess must contain E 2 times"),
        ([("eerie", parse_pattern("!!..."))], "eeeee", None),
        (THERE, "three", None),
        (THERE, "those", "guess must contain R"),
        (THERE, "tower", "5th letter must be E"),
        (THERE, "hater", "1st letter must be T"),
    ],
)
def test_hand_worked_rules(history: list[tuple[str, int]], guess: str, reason: str | None) -> None:
    assert violation(guess, history) == reason
    assert legal_mask(letters([guess]), history)[0] == (reason is None)


def test_empty_history_allows_everything() -> None:
    assert legal_mask(UNIVERSE_LETTERS, []).all()


# --- the compiled rule against the readable one -----------------------------------------

histories = st.lists(st.tuples(words, st.integers(0, PATTERNS - 1)), min_size=0, max_size=4)
game_histories = st.builds(lambda secret, guesses: [(g, ref_code(g, secret)) for g in guesses], words, st.lists(words))


def _readable_rules(history) -> tuple[np.ndarray, np.ndarray]:
    """``_requirements`` (the readable rule's own bookkeeping) as the compiled form's arrays."""
    greens_by_pos, need_by_letter = _requirements(history)
    greens, need = no_rules(5, LETTERS)
    for pos, letter in greens_by_pos.items():
        greens[pos] = ord(letter) - ord("a")
    for letter, n in need_by_letter.items():
        need[ord(letter) - ord("a")] = n
    return greens, need


def _compiled_rules(history, reveal_fn) -> tuple[np.ndarray, np.ndarray]:
    greens, need = no_rules(5, LETTERS)
    for guess, code in history:
        reveal_fn(letters([guess])[0], code, greens, need)
    return greens, need


@pytest.mark.slow
@pytest.mark.parametrize("reveal_fn", [reveal, reveal.py_func], ids=["compiled", "python"])
@settings(max_examples=150, deadline=None)
@given(history=st.one_of(histories, game_histories))
def test_reveal_equals_the_readable_rule(reveal_fn, history) -> None:
    want_greens, want_need = _readable_rules(history)
    greens, need = _compiled_rules(history, reveal_fn)
    assert greens.tolist() == want_greens.tolist()
    assert need.tolist() == want_need.tolist()
    got_greens, got_need = rules(history, 5)
    assert got_greens.tolist() == want_greens.tolist() and got_need.tolist() == want_need.tolist()


@pytest.mark.parametrize("after_fn", [rules_after, rules_after.py_func], ids=["compiled", "python"])
def test_rules_after_leaves_its_arguments_alone(after_fn) -> None:
    greens, need = rules(SPEED, 5)
    before = greens.copy(), need.copy()
    g2, n2 = after_fn(letters(["eerie"])[0], parse_pattern("!...."), greens, need)
    assert greens.tolist() == before[0].tolist() and need.tolist() == before[1].tolist()
    want_g, want_n = rules([*SPEED, ("eerie", parse_pattern("!...."))], 5)
    assert g2.tolist() == want_g.tolist() and n2.tolist() == want_n.tolist()


@pytest.mark.parametrize("keeping_fn", [keeping, keeping.py_func], ids=["compiled", "python"])
@settings(max_examples=100, deadline=None)
@given(history=st.one_of(histories, game_histories), data=st.data())
@pytest.mark.slow
def test_keeping_equals_find_violation(keeping_fn, history, data) -> None:
    """Over a random subset of rows, in a random order: the rows kept are those find_violation passes."""
    rows = np.array(data.draw(st.lists(st.integers(0, len(UNIVERSE) - 1), max_size=60)), dtype=np.int64)
    greens, need = rules(history, 5)
    kept = keeping_fn(rows, UNIVERSE_LETTERS, letter_counts(UNIVERSE_LETTERS, LETTERS), greens, need)
    want = [r for r in rows.tolist() if find_violation(UNIVERSE[r], history) is None]
    assert kept.dtype == np.int32
    assert kept.tolist() == want


@pytest.mark.parametrize("counts_fn", [letter_counts, letter_counts.py_func], ids=["compiled", "python"])
def test_letter_counts(counts_fn) -> None:
    counts = counts_fn(letters(["eerie", "abbey", "zzzzz"]), LETTERS)
    assert counts.dtype == np.uint8 and counts.shape == (3, LETTERS)
    for row, word in zip(counts, ["eerie", "abbey", "zzzzz"]):
        assert {chr(ord("a") + i): int(n) for i, n in enumerate(row) if n} == dict(Counter(word))


def test_no_rules_keep_everything() -> None:
    greens, need = no_rules(5, LETTERS)
    assert (greens == NO_GREEN).all() and not need.any()
    every = np.arange(len(UNIVERSE))
    assert (
        keeping(every, UNIVERSE_LETTERS, letter_counts(UNIVERSE_LETTERS, LETTERS), greens, need).tolist()
        == every.tolist()
    )


@pytest.mark.parametrize(
    ("history", "message"),
    [([("crane", 243)], "outside 0..242"), ([("cran", 0)], "not 5 letters"), ([("cr4ne", 0)], "not 5 letters")],
)
def test_rules_refuse_what_is_not_a_move(history, message) -> None:
    with pytest.raises(RatenError, match=message):
        rules(history, 5)
