"""play/simulate.py on many boards: seeded tuples, the simulator against playing the boards by hand, the
result's counts; and the many-board session (play/session.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from raten.engine.boards import Boards, rank_boards
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.session import BoardsSession
from raten.play.simulate import sample_tuples, simulate


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    rnd = random.Random(7)
    sols = rnd.sample(en_words.solutions, 40)
    return WordSet.from_lists(sols, sols + rnd.sample(en_words.allowed, 60), name="small7")


def test_tuples_are_seeded(small: WordSet) -> None:
    a, b = sample_tuples(small, 4, 50, seed=3), sample_tuples(small, 4, 50, seed=3)
    assert a.shape == (50, 4) and (a == b).all() and not (a == sample_tuples(small, 4, 50, seed=4)).all()
    with pytest.raises(RatenError, match="at least 1"):
        sample_tuples(small, 4, 0)


@pytest.mark.parametrize("strategy", ["entropy", "finish"])
def test_simulator_plays_what_the_ranking_says(small: WordSet, strategy: str) -> None:
    r = simulate(small, strategy, boards=3, games=15, seed=2)
    for answers, guesses, path in zip(r.answers, r.guesses, r.paths):
        game = Boards.start(small, 3)
        cols = [small.solution_index[a] for a in answers]
        played = []
        while not game.done:
            word = rank_boards(game, top=1, strategy=strategy)[0].word
            played.append(word)
            game = game.play(small.allowed_index[word], cols)
        assert played == path and len(path) == guesses


def test_counts_add_up(small: WordSet) -> None:
    r = simulate(small, boards=2, games=30, seed=1)
    d = r.to_dict()
    assert sum(d["distribution"].values()) == 30 and d["won"] + d["distribution"]["failed"] == 30
    assert d["variant"] == "Dordle" and d["limit"] == 7
    assert r.average == pytest.approx(np.mean(r.guesses)) and r.max == max(r.guesses)
    assert r.worst(3)[0][1] == r.max


def test_equal_answers_in_a_tuple(small: WordSet) -> None:
    a = small.solution_index[small.solutions[4]]
    r = simulate(small, boards=4, answers=np.array([[a, a, a, a]]))
    single = simulate(small, boards=1, answers=np.array([[a]]))
    assert r.guesses[0] == single.guesses[0]


def test_bad_answer_shape(small: WordSet) -> None:
    with pytest.raises(RatenError, match="3 columns"):
        simulate(small, boards=3, answers=np.zeros((2, 2), dtype=np.int64))


def test_session_enter_and_undo(small: WordSet) -> None:
    s = BoardsSession(small, 2)
    a, b = small.solutions[0], small.solutions[1]
    from raten.engine.feedback import format_pattern, pattern

    s.enter(a, ["!!!!!", format_pattern(pattern(a, b))])
    assert s.boards.solved == (True, False) and not s.done
    s.undo()
    s.undo()
    assert s.boards.turns == 0
