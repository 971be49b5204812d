"""Hard mode: the vectorised mask agrees with the per-word reason, and the rule itself."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import PATTERNS, parse_pattern
from raten.engine.hardmode import legal_mask, violation
from raten.engine.words import letters
from reference import ref_code

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


@settings(max_examples=100, deadline=None)
@given(secret=words, guesses=st.lists(words, min_size=0, max_size=4))
def test_mask_equals_violation_for_real_games(secret: str, guesses: list[str]) -> None:
    _check_mask([(g, ref_code(g, secret)) for g in guesses])


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
