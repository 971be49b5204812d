"""Playing 6mal5.com's 1070 answers with raten's own German lists (issue 10's "must show"): under the
frequency prior every answer is solved within six, under the uniform prior every one is solved."""

from __future__ import annotations

import pytest

from raten.play.simulate import play_answers
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_words

pytestmark = pytest.mark.slow  # seconds: 1070 games over 9514 candidates


@pytest.fixture(scope="module")
def answers(shared_list) -> list[str]:
    return read_word_file(shared_list("de", "solutions.txt"))


def test_every_6mal5_answer_within_six_under_the_frequency_prior(answers: list[str]) -> None:
    de = load_words("de", prior="frequency")
    assert set(answers) <= set(de.allowed)
    result = play_answers(de, answers)
    assert len(result.guesses) == 1070 and result.solved.all() and result.max <= 6


def test_every_6mal5_answer_solved_under_the_uniform_prior(answers: list[str]) -> None:
    """The uniform prior knows only 893 of the answers as solutions; the others are found through
    the fallback to the allowed words, a few past six (KELLE and NAGEN in eight: docs/benchmarks.md)."""
    de = load_words("de", prior="uniform")
    result = play_answers(de, answers)
    assert result.solved.all() and result.max <= 8
