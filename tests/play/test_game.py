"""The game on one board (Wordle): daily word, tries, hard mode, keyboard, share text, statistics, review."""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine import hardmode
from raten.engine.feedback import ALL_GREEN, parse_pattern, pattern
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.game import (
    EPOCH,
    MAX_TRIES,
    Game,
    GameError,
    daily_answers,
    daily_list,
    daily_number,
    hard_mode_error,
    solver_game,
)
from raten.play.records import Finished, practice_record

SMALL = WordSet.from_lists(
    ["apple", "bread", "crane", "drive", "eagle", "flame", "grape", "house"],
    ["zesty", "lymph", "adieu", "sassy"],
    name="small",
)


# --- daily word ----------------------------------------------------------------------------


def test_daily_number_counts_days_from_the_epoch():
    assert daily_number(EPOCH) == 1
    assert daily_number(EPOCH + timedelta(days=41)) == 42
    assert daily_number(EPOCH - timedelta(days=1)) == 0


def _documented_daily_word(solutions: list[str], allowed: list[str], day: date, secret: str = "") -> str:
    """The daily word by the documented rule, written out here without raten's code: the lists'
    fingerprint (sha256 of the solutions, "|", the allowed words, first 24 hex digits) and the
    secret seed one shuffle of the solutions, walked one per day from 2025-01-01."""
    fingerprint = hashlib.sha256("\n".join(solutions).encode() + b"|" + "\n".join(allowed).encode()).hexdigest()[:24]
    order = list(range(len(solutions)))
    random.Random(hashlib.sha256(f"raten-daily|{fingerprint}|{secret}".encode()).hexdigest()).shuffle(order)
    return solutions[order[(day - date(2025, 1, 1)).days % len(solutions)]]


def test_daily_word_is_the_same_for_everyone_and_walks_every_solution_once_per_cycle():
    day = date(2025, 6, 1)
    for d in (day, day + timedelta(days=3), date(2024, 12, 25)):
        for secret in ("", "x"):
            expected = _documented_daily_word(list(SMALL.solutions), list(SMALL.allowed), d, secret)
            assert daily_answers(SMALL, d, 1, secret)[0] == expected
    n = len(SMALL.solutions)
    cycle = [daily_answers(SMALL, day + timedelta(days=i), 1)[0] for i in range(n)]
    assert sorted(cycle) == list(SMALL.solutions)
    assert daily_answers(SMALL, day + timedelta(days=n), 1)[0] == cycle[0]


def test_daily_words_of_the_en_list_stay_as_published(en_words):
    """Fixed date -> word pairs, recorded from the shipped en lists: changing the lists'
    order, the fingerprint or the shuffle would give every server a new daily sequence."""
    assert daily_answers(en_words, date(2025, 1, 1), 1)[0] == "shirk"
    assert daily_answers(en_words, date(2025, 6, 1), 1)[0] == "fluke"
    assert daily_answers(en_words, date(2026, 1, 1), 1, "s3cret")[0] == "gravy"
    assert daily_answers(en_words, date(2025, 6, 1), 1)[0] == _documented_daily_word(
        list(en_words.solutions), list(en_words.allowed), date(2025, 6, 1)
    )


def test_daily_word_depends_on_the_secret(en_words):
    days = [date(2025, 3, 1) + timedelta(days=i) for i in range(20)]
    plain = [daily_answers(en_words, d, 1)[0] for d in days]
    salted = [daily_answers(en_words, d, 1, secret="s3cret")[0] for d in days]
    assert plain != salted
    assert all(w in en_words.solution_index for w in plain + salted)


def test_daily_game_has_its_number_and_answer():
    day = date(2025, 2, 10)
    game = Game.daily(SMALL, day, secret="x")
    assert game.mode == "daily"
    assert game.number == daily_number(day)
    assert game.answer == daily_answers(SMALL, day, 1, "x")[0]


def test_practice_answers_are_solutions():
    assert {Game.practice(SMALL).answer for _ in range(30)} <= set(SMALL.solutions)


# --- playing -------------------------------------------------------------------------------


def test_a_won_game():
    game = Game.practice(SMALL, answers=("grape",))
    assert game.status == "playing"
    game = game.guess("crane").guess(" GRAPE ")
    assert game.history() == (("crane", pattern("crane", "grape")), ("grape", ALL_GREEN))
    assert game.won and game.over and game.status == "won" and game.tries == 2
    with pytest.raises(GameError) as e:
        game.guess("apple")
    assert e.value.key == "game_over"


def test_a_lost_game_after_six_tries():
    game = Game.practice(SMALL, answers=("house",))
    for word in ["apple", "bread", "crane", "drive", "eagle", "flame"]:
        assert game.status == "playing"
        game = game.guess(word)
    assert game.status == "lost" and game.tries == MAX_TRIES and not game.won


@pytest.mark.parametrize(
    ("guess", "key"),
    [("qqqqq", "unknown_word"), ("abc", "bad_word"), ("toolong", "bad_word"), ("ab1de", "bad_word")],
)
def test_refused_words_cost_no_try(guess, key):
    game = Game.practice(SMALL, answers=("house",)).guess("crane")
    with pytest.raises(GameError) as e:
        game.guess(guess)
    assert e.value.key == key
    assert isinstance(e.value, RatenError)
    assert game.tries == 1


def test_umlauts_are_transliterated_in_guesses():
    words = WordSet.from_lists(["haeus", "baeum"], name="de-mini", language="de")
    game = Game.practice(words, answers=("baeum",)).guess("häus")
    assert game.history()[0][0] == "haeus"


def test_hard_mode_names_the_exact_reason():
    game = Game.practice(SMALL, answers=("grape",), hard=True).guess("crane")  # .!!.!
    assert game.history()[0][1] == parse_pattern(".!!.!")
    with pytest.raises(GameError) as e:
        game.guess("drive")
    assert e.value.key == "hard_green"
    assert e.value.params == {"position": 3, "letter": "A"}
    assert str(e.value) == "hard mode: 3rd letter must be A"
    assert game.guess("grape").won


def test_hard_mode_counts_repeated_letters():
    words = WordSet.from_lists(["sassy", "asset"], ["basis"], name="s")
    game = Game.practice(words, answers=("asset",), hard=True).guess("sassy")
    assert game.history()[0][1] == parse_pattern("??!..")
    assert hard_mode_error("basis", game.history()) is None
    err = hard_mode_error("pasta", game.history())
    assert err is not None and err.key == "hard_present" and err.params == {"letter": "S", "count": 2}
    assert str(err) == "hard mode: guess must contain S 2 times"


def test_soft_mode_allows_anything_listed():
    game = Game.practice(SMALL, answers=("grape",)).guess("crane")
    assert game.guess("drive").tries == 2


history_words = st.sampled_from(["crane", "slate", "soare", "aback", "eerie", "mamma", "geese", "lymph", "fluff"])


@settings(max_examples=150, deadline=None)
@given(answer=history_words, guesses=st.lists(history_words, max_size=3), candidate=history_words)
def test_hard_mode_error_agrees_with_the_library(answer, guesses, candidate):
    history = tuple((g, pattern(g, answer)) for g in guesses)
    err = hard_mode_error(candidate, history)
    expected = hardmode.violation(candidate, history)
    assert (err is None) == (expected is None)
    if err is not None:
        assert str(err) == f"hard mode: {expected}"


# --- keyboard and share text -----------------------------------------------------------------


def test_keyboard_takes_the_strongest_colour():
    game = Game.practice(SMALL, answers=("apple",)).guess("eagle")  # e: ?, a: ?, g: ., l: !, e: !
    keys = game.keyboards()[0]
    assert keys["g"] == "absent"
    assert keys["l"] == "correct"
    assert keys["a"] == "present"
    assert keys["e"] == "correct"  # grey or yellow once, green elsewhere
    assert set(keys) == set("eagl")


def test_share_text_has_name_number_score_and_grid_but_no_letters():
    game = Game.daily(SMALL, date(2025, 1, 5), secret="s")
    answer = game.answer
    others = [w for w in SMALL.solutions if w != answer][:2]
    game = game.guess(others[0]).guess(others[1]).guess(answer)
    text = game.share_text()
    head, _, grid = text.partition("\n\n")
    assert head == "raten small #5 3/6"
    assert grid.splitlines()[-1] == "\U0001f7e9" * 5
    assert len(grid.splitlines()) == 3
    assert not any(ch.isalpha() for ch in grid)


def test_share_text_for_a_lost_hard_practice_game():
    game = Game.practice(SMALL, answers=("house",), hard=False)
    for word in ["apple", "bread", "crane", "drive", "eagle", "flame"]:
        game = game.guess(word)
    assert game.share_text().startswith("raten small practice X/6\n\n")
    hard = Game.practice(SMALL, answers=("house",), hard=True).guess("house")
    assert hard.share_text().splitlines()[0] == "raten small practice 1/6*"
    assert hard.share_text("wortel", "de", "\u00dcbung").splitlines()[0] == "wortel de \u00dcbung 1/6*"


# --- statistics ----------------------------------------------------------------------------


def test_stats_record_wins_losses_and_streaks():
    assert practice_record([], MAX_TRIES).win_percent == 0
    games = [Finished(None, won, tries) for won, tries in [(True, 3), (True, 4), (False, 6), (True, 3)]]
    s = practice_record(games, MAX_TRIES)
    assert s.played == 4 and s.wins == 3
    assert s.win_percent == 75
    assert s.current_streak == 1 and s.max_streak == 2
    assert s.distribution == (0, 0, 2, 1, 0, 0)
    assert s.to_dict()["distribution"] == [0, 0, 2, 1, 0, 0]
    with pytest.raises(RatenError):
        practice_record([*games, Finished(None, True, 7)], MAX_TRIES)


# --- the daily-game rules a server follows -------------------------------------------------


def test_hard_mode_changes_only_before_the_first_guess():
    game = Game.daily(SMALL, EPOCH)
    assert not game.hard
    hard = game.with_hard(True)
    assert hard.hard and hard.answer == game.answer and hard.number == game.number
    assert hard.with_hard(False) == game
    begun = hard.guess("crane")
    assert begun.with_hard(False) is begun and begun.hard
    assert begun.with_hard(True) is begun


def test_one_daily_game_per_language_on_its_first_list():
    de = WordSet.from_lists(["haeus", "baeum"], name="de", language="de")
    de_ext = WordSet.from_lists(["haeus", "baeum", "kraut"], name="de-ext", language="de")
    offered = {"en": SMALL, "de": de, "de-ext": de_ext}
    assert daily_list(offered, "de") == "de"
    assert daily_list(offered, "en") == "en"
    assert daily_list({"de-ext": de_ext, "de": de}, "de") == "de-ext"
    with pytest.raises(RatenError) as e:
        daily_list(offered, "fr" * 100)
    assert e.value.key == "no_daily_list" and len(str(e.value)) < 100


def test_a_refused_word_keeps_its_input_error_as_the_cause():
    game = Game.practice(SMALL, answers=("house",))
    with pytest.raises(GameError) as e:
        game.guess("x" * 10_000)
    assert e.value.key == "bad_word" and len(str(e.value)) < 120
    cause = e.value.__cause__
    assert isinstance(cause, RatenError) and cause.key == "word_length"
    assert cause.params["length"] == 10_000 and len(cause.params["word"]) <= 40


def test_game_errors_are_raten_errors_of_the_same_shape():
    import pickle

    error = GameError("hard mode: 3rd letter must be A", "hard_green", position=3, letter="A")
    assert isinstance(error, RatenError)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is GameError
    assert (str(again), again.key, again.params) == (str(error), "hard_green", {"position": 3, "letter": "A"})
    assert RatenError("anything").key == "invalid" and RatenError("anything").params == {}


# --- review --------------------------------------------------------------------------------


def test_review_shows_the_solver_next_to_each_row(en_words):
    game = Game.practice(en_words, answers=("pleat",)).guess("crane").guess("slate").guess("pleat")
    review = game.review()
    assert review.answer == "pleat"
    assert [s.guess for s in review.steps] == ["crane", "slate", "pleat"]
    first = review.steps[0]
    assert first.candidates_before == len(en_words.solutions)
    assert first.best[0].bits >= first.bits
    assert review.steps[-1].candidates_after == 1
    assert review.solver[-1] == ("pleat", ALL_GREEN)
    d = review.to_dict()
    assert d["solver"][-1] == {"guess": "pleat", "pattern": "!!!!!"}
    assert d["steps"][0]["pattern"] == "..?.?"


def test_review_reuses_precomputed_openers(en_words):
    from raten.engine.state import State

    openers = State(en_words).hints(top=3)
    game = Game.practice(en_words, answers=("crimp",)).guess("flame")
    assert game.review(openers=openers).to_dict() == game.review().to_dict()
    assert solver_game(game, openers)[0][0] == openers[0].word


def test_a_games_answers_are_the_lists_own_under_any_prior() -> None:
    """Under the mixture every allowed word is a possible answer to the solver, but a game draws
    from the list's own solutions, and the daily words do not depend on the prior."""
    from raten.play.game import daily_answers, practice_answers
    from raten.wordlists.presets import load_words

    mixed, plain = load_words("de"), load_words("de", prior="uniform")
    assert mixed.prior == "mixture" and set(mixed.solutions) > set(plain.solutions)
    own = set(plain.solutions)
    for k in range(40):
        day = date(2026, 1, 1) + timedelta(days=k)
        assert daily_answers(mixed, day, secret="s") == daily_answers(plain, day, secret="s")
        assert set(daily_answers(mixed, day, boards=4, secret="s")) <= own
    assert all(set(practice_answers(mixed, 4)) <= own for _ in range(20))
