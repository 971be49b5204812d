"""The solver state: filtering, unlisted guesses, fallback to allowed words, hard mode."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import format_pattern, parse_pattern
from raten.engine.state import State
from raten.errors import RatenError
from raten.wordlists.prior import apply_prior, frequency_weights
from reference import ref_code, ref_filter, ref_histogram, ref_split, ref_weighted_split


@pytest.fixture(scope="module")
def start(en_words) -> State:
    return State(en_words)


def test_fresh_state(start: State, en_words) -> None:
    assert start.count == 2315
    assert start.candidate_words == list(en_words.solutions)
    assert start.history == ()
    assert not start.solved
    assert start.fallback is None
    assert start.guess_rows().tolist() == list(range(12972))
    assert [en_words.allowed[r] for r in start.candidate_rows()] == list(en_words.solutions)
    assert repr(start) == "State(en, start, 2315 candidates)"


def test_crane_leaves_the_published_twenty(start: State, en_words) -> None:
    after = start.after("crane", "..?!.")
    assert after.count == 20  # published figure
    assert after.candidate_words == ref_filter(en_words.solutions, [("crane", parse_pattern("..?!."))])
    assert [en_words.solutions[i] for i in after.candidates] == after.candidate_words
    assert start.count == 2315  # states are values: the old one is unchanged
    assert after.history == (("crane", parse_pattern("..?!.")),)
    assert repr(after) == "State(en, crane=..?!., 20 candidates)"
    assert after.warnings == ()


@pytest.mark.parametrize("pattern", ["..?!.", "bbygb", "xxygx", "--yg-", "00120", 15, "⬜⬛🟨🟩⬜️"])
def test_every_notation_and_code_filters_alike(start: State, pattern: str | int) -> None:
    assert start.after("CRANE", pattern).candidate_words == start.after("crane", "..?!.").candidate_words


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_filtering_equals_reference(data: st.DataObject, en_words) -> None:
    secret = data.draw(st.sampled_from(en_words.solutions))
    guesses = data.draw(st.lists(st.sampled_from(en_words.allowed), min_size=1, max_size=3))
    history = [(g, ref_code(g, secret)) for g in guesses]
    state = State(en_words).replay([(g, format_pattern(c)) for g, c in history])
    assert state.candidate_words == ref_filter(en_words.solutions, history)
    assert secret in state.candidate_words
    assert state.fallback is None


def test_replay_and_solved(start: State) -> None:
    state = start.replay([("crane", "..?!."), ("tousy", ref_code("tousy", "taint"))])
    assert "taint" in state.candidate_words
    assert not state.solved
    assert state.after("taint", "!!!!!").solved
    assert state.after("taint", "!!!!!").candidate_words == ["taint"]


def test_unlisted_guess_is_used_with_a_warning(start: State, en_words) -> None:
    """Game lists drift: a past guess missing from our list still counts."""
    assert "qajaq" in en_words.allowed_index and "zzzzz" not in en_words.allowed_index
    code = ref_code("zzzzz", "pizza")
    state = start.after("zzzzz", code)
    assert state.warnings == ("ZZZZZ is not in the en word list; used anyway",)
    assert state.candidate_words == ref_filter(en_words.solutions, [("zzzzz", code)])
    assert "pizza" in state.candidate_words
    # warnings accumulate along the game
    assert state.after("crane", ref_code("crane", "pizza")).warnings == state.warnings


JAXIE = ("crane", "sloth", "guild")  # against JAXIE (allowed, not a solution): no solution fits


def test_fallback_to_allowed_words_when_no_solution_fits(start: State, en_words) -> None:
    history = [(g, ref_code(g, "jaxie")) for g in JAXIE]
    assert ref_filter(en_words.solutions, history) == []  # the premise of this test
    state = start.replay(history)
    fitting = ref_filter(en_words.allowed, history)
    assert state.fallback == tuple(fitting)
    assert state.candidate_words == fitting
    assert state.count == len(fitting) == 5
    assert state.warnings == (
        "no en solution fits these hints: the answer is probably missing from the list; going on with the 5 "
        "allowed words that fit",
    )
    assert state.warnings[0].key == "fallback" and state.warnings[0].params == {"list": "en", "n": 5}
    assert [en_words.allowed[r] for r in state.candidate_rows()] == fitting
    table, _cols = state.answer_table()
    assert table.shape == (12972, 5)
    assert table[en_words.allowed_index["maize"]].tolist() == [ref_code("maize", w) for w in fitting]
    # ranking works on the fallback words, equally likely (as the browser's engine ranks them)
    assert state.answer_weights() is None
    best = state.hints(top=1)[0]
    assert best.bits == pytest.approx(ref_split(best.word, fitting)[0], abs=1e-12)
    # or weighted by frequency, when the word set says so
    weighed = State(apply_prior(en_words, "uniform", weigh_fallback=True)).replay(history)
    weights = frequency_weights(fitting, "en")
    assert weighed.answer_weights().tolist() == weights.tolist()
    assert weighed.warnings[0].endswith("(likelier the commoner they are)")
    best = weighed.hints(top=1)[0]
    assert best.bits == pytest.approx(ref_weighted_split(best.word, fitting, weights)[0], abs=1e-12)
    # and the next guess filters the fallback words
    code = ref_code("maize", "jaxie")
    nxt = state.after("maize", code)
    assert nxt.candidate_words == ref_filter(fitting, [("maize", code)])
    assert nxt.warnings == state.warnings  # said once
    assert nxt.fallback is not None


def test_one_fallback_word_is_named_in_the_singular(start: State) -> None:
    state = start.after("soare", "!!!!!")  # SOARE is allowed, not a solution
    assert state.candidate_words == ["soare"]
    assert state.warnings == (
        "no en solution fits these hints: the answer is probably missing from the list; going on with the 1 "
        "allowed word that fits",
    )
    assert state.hints(top=3)[0].word == "soare"


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([("crane", "!!!!!"), ("crane", ".....")], "no word fits these hints"),
        ([("crane", "!...."), ("brine", "!....")], "position 1 cannot be both C and B"),
        ([("eerie", ".?...")], "a yellow E cannot follow a grey E"),
        ([("qxzvj", "!!!!!")], "no word of the en list fits these hints, and they agree with each other"),
        # a contradiction Constraints has no sentence for: C green, then yellow in the same place
        ([("crane", "20000"), ("crane", "10000")], r"row 1 \(CRANE\) and row 2 \(CRANE\) contradict each other"),
    ],
)
def test_nothing_fits_is_an_error(start: State, moves: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(RatenError, match=message):
        start.replay(moves)


@pytest.mark.parametrize(
    ("guess", "pattern", "message"),
    [
        ("cran", ".....", "guess: 'cran' has 4 letters"),
        ("cr4ne", ".....", "letters a-z only"),
        ("crane", "....", "4 symbols"),
        ("crane", "..a..", "unknown symbol 'a'"),
        ("crane", 243, "outside 0..242"),
        ("crane", -1, "outside 0..242"),
    ],
)
def test_bad_moves(start: State, guess: str, pattern: str | int, message: str) -> None:
    with pytest.raises(RatenError, match=message):
        start.after(guess, pattern)


def test_hard_mode(en_words) -> None:
    state = State(en_words, hard=True).after("crane", "..?!.")
    assert state.hard
    assert state.hard_mode_violation("slate") == "4th letter must be N"
    assert state.hard_mode_violation("giant") is None
    assert State(en_words).after("crane", "..?!.").hard_mode_violation("slate") is None
    assert (
        state.hard_mode_violation("CRANK") is None and state.hard_mode_violation(" Crank ") is None
    )  # normalised first
    with pytest.raises(RatenError, match="letters a-z only"):
        state.hard_mode_violation("cr4nk")
    rows = state.guess_rows()
    legal = [w for w in en_words.allowed if state.hard_mode_violation(w) is None]
    assert [en_words.allowed[r] for r in rows] == legal
    code = ref_code("slate", "taint")
    nxt = state.after("slate", code)
    assert nxt.warnings == ("SLATE breaks hard mode (4th letter must be N); used anyway",)
    assert nxt.candidate_words == ref_filter(state.candidate_words, [("slate", code)])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_few_candidates_rank_only_candidates(start: State, en_words, n: int) -> None:
    """With one or two candidates left only they are worth guessing; from three on, every word."""
    hist = ref_histogram("crane", en_words.solutions)
    state = start.after("crane", min(code for code, k in hist.items() if k == n))
    assert state.count == n
    rows = [state.words.allowed[r] for r in state.guess_rows()]
    assert rows == (state.candidate_words if n <= 2 else list(en_words.allowed))


def test_german_state(de6_words) -> None:
    state = State(de6_words).after("Käse", ref_code("kaese", "raten"))
    assert state.history[0][0] == "kaese"
    assert "raten" in state.candidate_words
    assert state.candidate_words == ref_filter(de6_words.solutions, [("kaese", ref_code("kaese", "raten"))])
    assert np.all(np.diff(state.candidates) > 0)
