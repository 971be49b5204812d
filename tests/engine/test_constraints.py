"""The constraint summary: keeps exactly what pattern equality keeps, and names contradictions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.constraints import Constraints, standing
from raten.engine.feedback import PATTERNS, parse_pattern
from raten.engine.state import fitting_words
from reference import ref_code, ref_filter

ALPHABET = "abers"
#: Every word over a small alphabet: rich in repeated letters, small enough to filter in full.
UNIVERSE = tuple("".join(t) for t in itertools.product(ALPHABET, repeat=5))

words = st.text(alphabet=ALPHABET + "t", min_size=5, max_size=5)


def by_constraints(history: list[tuple[str, int]]) -> tuple[str, ...]:
    c = Constraints.from_history(history)
    return tuple(w for w in UNIVERSE if c.allows(w))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(secret=words, guesses=st.lists(words, min_size=1, max_size=4))
def test_real_histories_filter_the_same(secret: str, guesses: list[str]) -> None:
    """Histories a real answer produced: no problems, and the same words survive both ways."""
    history = [(g, ref_code(g, secret)) for g in guesses]
    c = Constraints.from_history(history)
    assert c.problems == []
    kept = fitting_words(UNIVERSE, history)
    assert kept == by_constraints(history)
    if set(secret) <= set(ALPHABET):
        assert secret in kept


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(words, st.integers(0, PATTERNS - 1)), min_size=1, max_size=3))
def test_any_history_filters_the_same_unless_contradictory(history: list[tuple[str, int]]) -> None:
    """Arbitrary colours: constraints never lose a word; without a named problem they keep no extra one."""
    kept = set(fitting_words(UNIVERSE, history))
    allowed = set(by_constraints(history))
    assert kept <= allowed
    if not Constraints.from_history(history).problems:
        assert kept == allowed


def test_fitting_words_equals_reference_filter() -> None:
    history = [("arbes", parse_pattern("?.?!.")), ("sabre", parse_pattern("?!..?"))]
    assert list(fitting_words(UNIVERSE, history)) == ref_filter(UNIVERSE, history)
    assert fitting_words(UNIVERSE, []) == UNIVERSE


def test_summary_after_crane() -> None:
    c = Constraints.from_history([("crane", parse_pattern("..?!."))])
    assert c.problems == []
    assert c.to_dict() == {
        "greens": {"4": "n"},
        "not_at": {"a": [3]},
        "min_counts": {"a": 1, "n": 1},
        "exact_counts": {},
        "excluded": ["c", "e", "r"],
    }
    assert c.describe() == [
        "greens: ___N_",
        "A is in the word, not at position 3",
        "not in the word: C E R",
    ]
    assert c.allows("fanny") and c.allows("manna")
    assert not c.allows("tonal")  # N must be 4th
    assert not c.allows("giant")  # A must not be 3rd
    assert not c.allows("shank")  # the same
    assert not c.allows("brand")  # no R
    assert not c.allows("synod")  # A is in the word


def test_summary_with_repeated_letters() -> None:
    # SPEED against ABIDE: one E yellow, the other grey; D yellow -> exactly one E
    c = Constraints.from_history([("speed", ref_code("speed", "abide"))])
    assert c.problems == []
    d = c.to_dict()
    assert d["exact_counts"] == {"e": 1}
    assert d["min_counts"] == {"d": 1, "e": 1}
    assert d["not_at"] == {"d": [5], "e": [3, 4]}
    assert d["excluded"] == ["p", "s"]
    assert "E appears exactly 1 time" in c.describe()
    assert c.allows("abide") and c.allows("edict")
    assert not c.allows("erode")  # two E
    assert not c.allows("eerie")
    # GEESE against THERE (..!.!): the grey E says exactly two
    c2 = Constraints.from_history([("geese", ref_code("geese", "there"))])
    assert c2.to_dict()["exact_counts"] == {"e": 2}
    c3 = Constraints.from_history([("ebbed", parse_pattern("!..!."))])
    assert c3.to_dict()["min_counts"] == {"e": 2}
    assert "E appears at least 2 times" in c3.describe()


@pytest.mark.parametrize(
    ("history", "problem"),
    [
        (
            [("crane", "!...."), ("brine", "!....")],
            "row 1 (CRANE) and row 2 (BRINE) contradict each other: position 1 cannot be both C and B",
        ),
        ([("eerie", ".?...")], "row 1 (EERIE): a yellow E cannot follow a grey E"),
        (
            [("crane", "....."), ("eerie", "?....")],
            "row 1 (CRANE) says there is no E, but row 2 (EERIE) says E appears exactly once",
        ),
        (
            [("eerie", "!...."), ("ebbed", "!..!.")],
            "row 1 (EERIE) says E appears exactly once, but row 2 (EBBED) says E appears at least twice",
        ),
        (
            [("abcde", "?????"), ("fghij", "?????")],
            "row 1 (ABCDE) and row 2 (FGHIJ) together show 10 letters: more than 5 letters are known to be in the word",
        ),
    ],
)
def test_contradictions_are_named(history: list[tuple[str, str]], problem: str) -> None:
    """Issue 11 item 7 changes these texts: each names the row or the two rows that clash, counts in words."""
    c = Constraints.from_history([(g, parse_pattern(p)) for g, p in history])
    assert c.problems[0] == problem


def test_the_first_problem_is_the_same_on_every_run() -> None:
    """CRANE all green then all grey: every letter clashes; the first named is the first letter, C, always
    (the grey letters used to come out of a set, so the letter changed from run to run)."""
    c = Constraints.from_history([("crane", parse_pattern("!!!!!")), ("crane", parse_pattern("....."))])
    assert [p.split(" says ")[1][0] for p in c.problems] == list("CRANE")
    assert c.problems[0] == "row 1 (CRANE) says C is in the word, but row 2 (CRANE) says there is no C"
    assert not any("1 times" in p for p in c.problems)


def test_standing_counts_in_the_singular_and_names_the_one_word() -> None:
    assert standing(["ikone"]) == "the answer is IKONE"
    assert standing(["ikone", "ikons"]) == "2 candidates left"
    assert standing(["ikone"], solved=True, guesses=1) == "solved in 1 guess: IKONE"
    assert standing(["ikone"], solved=True, guesses=3) == "solved in 3 guesses: IKONE"
    assert standing(["abcde", "bcdea"], fallback=True) == "2 allowed words fit"


# --- satisfiable: is there any string of five letters at all? -------------------------------------

_GUESSES = ("crane", "eerie", "llama", "sissy", "xylyl", "abbey")


@pytest.fixture(scope="module")
def every_string_feedback():
    """The feedback of each of ``_GUESSES`` against all 26^5 strings of five letters (a-z)."""
    import numpy as np

    from raten.engine import kernels
    from raten.engine.words import letters

    grid = np.indices((26,) * 5, dtype=np.uint8).reshape(5, -1).T.copy()
    return kernels.feedback_matrix(letters(list(_GUESSES)), grid)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_satisfiable_equals_brute_force_over_every_string(every_string_feedback, data):
    """Histories of two or three rows, each row's colours those of some string, one colour then
    changed at random (so some contradict each other, some do not): satisfiable() says whether
    any of the 11,881,376 strings shows all of them."""
    import random as _random

    import numpy as np

    from raten.engine.feedback import pattern

    rng = _random.Random(data.draw(st.integers(0, 2**32 - 1)))
    rows = rng.sample(range(len(_GUESSES)), data.draw(st.integers(1, 3)))
    history = []
    for r in rows:
        target = "".join(rng.choice("abcdeilmnrsxy") for _ in range(5))
        code = pattern(_GUESSES[r], target)
        if rng.random() < 0.7:
            digits = [code // 3**k % 3 for k in range(5)]
            digits[rng.randrange(5)] = rng.randrange(3)
            code = sum(d * 3**k for k, d in enumerate(digits))
        history.append((_GUESSES[r], code))
    keep = np.ones(every_string_feedback.shape[1], dtype=bool)
    for (_guess, code), r in zip(history, rows):
        keep &= every_string_feedback[r] == code
    assert Constraints.from_history(history).satisfiable() == bool(keep.any()), history
