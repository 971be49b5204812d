"""The review's "best safe guess" (issue 23 item 2): each reviewed guess judged by the guarantee,
the first two from the opening book only, every verdict checked against a fresh guarantee."""

from __future__ import annotations

import pytest

from raten.engine.feedback import pattern
from raten.engine.words import WordSet
from raten.play.review import review
from raten.play.review_safety import review_safety
from raten.trees.safety import Guarantee
from raten.wordlists.presets import load_words

#: A 6mal5 game whose fifth guess, EIMER, could send two words past six (found by playing the
#: last candidate each turn); the book's opener SARTE opens it.
GAME = ["sarte", "bevor", "wider", "einer", "eimer", "eifer"]
ANSWER = "eifer"


@pytest.fixture(scope="module")
def words() -> WordSet:
    return load_words("6mal5")


@pytest.fixture(scope="module")
def reviewed(words):
    return review(words, GAME, ANSWER, guarantee=6)


@pytest.mark.slow
def test_each_verdict_is_the_guarantees_own(words, reviewed) -> None:
    """Over the coverage the verdict names: after EIMER no guess keeps every word within six, so
    the sixth is judged over the first narrower step, the words of frequency weight 0.02 or
    more, as the hints fall back (docs/safe-play.md)."""
    history = [(g, pattern(g, ANSWER)) for g in GAME]
    assert [m.safety.over for m in reviewed.moves] == ["all"] * 5 + ["weight>=0.02"]
    for i, m in enumerate(reviewed.moves[2:], start=2):
        v = Guarantee(words, over=m.safety.over).judge(history[:i], [m.guess])[0]
        assert m.safety.safe is v.safe, m
        assert m.safety.at_risk == v.at_risk


@pytest.mark.slow
def test_an_unsafe_guess_names_a_safe_one_and_its_words_at_risk(words, reviewed) -> None:
    m = reviewed.moves[4]
    assert (m.guess, m.safety.status, m.safety.over) == ("eimer", "unsafe", "all")
    assert m.safety.at_risk > 0
    assert m.safety.best != "eimer" and m.safety.best_safe is True
    history = [(g, pattern(g, ANSWER)) for g in GAME[:4]]
    assert Guarantee(words, over="all").judge(history, [m.safety.best])[0].safe is True
    assert [x.safety.status for x in reviewed.moves] == ["safe", "safe", "safe", "safe", "unsafe", "safe"]


@pytest.mark.slow
def test_the_first_two_moves_come_from_the_book(words) -> None:
    r = review(words, ["sarte", "bevor"], ANSWER, guarantee=6, solver=False)
    assert r.moves[0].safety.best == "sarte" and r.moves[0].safety.status == "safe"
    assert r.moves[1].safety.best_safe is True
    # an opener the book does not judge is beyond what a review checks, the book's opener named
    other = review(words, ["moder", "eifer"], ANSWER, guarantee=6, solver=False)
    assert other.moves[0].safety.status == "unchecked" and other.moves[0].safety.best == "sarte"
    assert other.moves[1].safety.status == "unchecked" and other.moves[1].safety.best is None


def test_a_list_without_a_book_says_so_for_its_first_two_moves(words) -> None:
    mine = WordSet.from_lists(list(words.solutions[:300]), list(words.allowed[:900]), name="mine")
    answer = mine.solutions[7]
    guesses = [mine.solutions[0], mine.solutions[1], mine.solutions[2], answer]
    verdicts = review_safety(mine, False, [(g, pattern(g, answer)) for g in guesses], 6, "all")
    assert [v.status for v in verdicts[:2]] == ["unchecked", "unchecked"]
    assert verdicts[2].status in ("safe", "unsafe") and verdicts[2].best is not None


@pytest.mark.slow
def test_off_and_past_the_limit_there_is_no_verdict(words) -> None:
    r = review(words, GAME, ANSWER, solver=False)
    assert r.guarantee is None and all(m.safety is None for m in r.moves)
    long = review_safety(words, False, [(g, pattern(g, ANSWER)) for g in GAME], 4, "all")
    assert long[4] is None and long[5] is None and long[3] is not None
    assert review(words, GAME, ANSWER, guarantee=6, solver=False).to_dict()["moves"][4]["safety"]["status"] == "unsafe"
