"""Play on words of 4 and 6 letters, some beyond a-z: the game and its share text, a solving
session, many boards, simulation and the exact review, each against the rule."""

from __future__ import annotations

import random

import pytest

from raten.engine.alphabet import Alphabet
from raten.engine.boards import Boards
from raten.engine.feedback import format_pattern, pattern
from raten.engine.words import WordSet
from raten.play.game import Game, GameError
from raten.play.review import review
from raten.play.session import Session
from raten.play.simulate import simulate
from reference import ref_code

KEPT = Alphabet("abcdefghijklmnopqrstuvwxyzäöü")


def random_words(length: int, seed: int = 2, n_sol: int = 30, n_allowed: int = 90) -> WordSet:
    rng = random.Random(seed)
    pool: set[str] = set()
    while len(pool) < n_allowed:
        pool.add("".join(rng.choice("aeilnrstäü") for _ in range(length)))
    allowed = sorted(pool)
    return WordSet.from_lists(rng.sample(allowed, n_sol), allowed, name=f"w{length}", alphabet=KEPT)


@pytest.mark.parametrize("length", [4, 6])
def test_a_game_to_its_end_and_its_share_text(length: int) -> None:
    words = random_words(length)
    answer = words.solutions[0]
    game = Game.practice(words, answers=(answer,))
    for guess in [*[w for w in words.allowed if w != answer][:2], answer.upper()]:
        game = game.guess(guess)
    assert game.won and game.tries == 3
    grid = game.share_text().splitlines()[2:]
    assert [len(row) for row in grid] == [length] * 3
    assert grid[-1] == "\U0001f7e9" * length
    keyboard = game.keyboards()[0]
    assert set(keyboard) <= set("".join(game.guesses))
    with pytest.raises(GameError, match=f"not {length}"):
        Game.practice(words, answers=(answer,)).guess("a" * (length + 1))


@pytest.mark.parametrize("length", [4, 6])
def test_a_session_takes_the_lists_patterns(length: int) -> None:
    words = random_words(length, seed=5)
    answer = words.solutions[3]
    session = Session(words, answer=answer)
    guess = session.suggestion()
    session.enter(guess, format_pattern(pattern(guess, answer), "emoji", length))
    assert answer in session.state.candidate_words
    assert session.moves_text() == f"{guess}={format_pattern(ref_code(guess, answer), length=length)}"
    assert len(session.share_grid()) == length


@pytest.mark.parametrize("length", [4, 6])
def test_simulation_and_many_boards(length: int) -> None:
    words = random_words(length, seed=7)
    result = simulate(words, "entropy")
    assert bool(result.solved.all()) and len(result.answers) == len(words.solutions)
    for (answer,), path in zip(result.answers, result.paths, strict=True):
        assert path[-1] == answer  # each game ends on its answer, every step by the rule
    two = Boards.start(words, 2)
    a, b = words.solutions[:2]
    guess = two.hints(top=1)[0].word
    two = two.after(guess, [format_pattern(pattern(guess, a), length=length), pattern(guess, b)])
    assert a in two.states[0].candidate_words and b in two.states[1].candidate_words


@pytest.mark.slow
@pytest.mark.parametrize("length", [4, 6])
def test_the_exact_review_of_a_game(length: int) -> None:
    words = random_words(length, seed=9, n_sol=20, n_allowed=50)
    answer = words.solutions[0]
    guesses = [*[w for w in words.allowed if w != answer][:2], answer]
    result = review(words, guesses, answer)
    assert [m.pattern for m in result.moves] == [format_pattern(ref_code(g, answer), length=length) for g in guesses]
    assert result.moves[-1].pattern == "!" * length and all(m.q_exact for m in result.moves)
    share = "\n".join(format_pattern(ref_code(g, answer), "emoji", length) for g in guesses)
    assert [m.pattern for m in review(words, guesses, share=share).moves] == [m.pattern for m in result.moves]
