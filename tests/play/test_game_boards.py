"""play/game.py on many boards: the Dordle and Quordle game against plain Python: its answers, rules,
keyboards and share text (the variants' limits are the published ones: Dordle 7, Quordle 9)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import pattern
from raten.errors import RatenError
from raten.play.game import (
    GAME_BOARDS,
    MAX_TRIES,
    Game,
    GameError,
    daily_answers,
    daily_number,
    game_variant,
    offered_boards,
    practice_answers,
)

GREEN, YELLOW, GREY = "\U0001f7e9", "\U0001f7e8", "\u2b1c"
ORANGE, BLUE = "\U0001f7e7", "\U0001f7e6"
DAY = date(2025, 6, 1)


def squares_of(guess: str, answer: str, green: str = GREEN, yellow: str = YELLOW) -> str:
    """Share squares worked out letter by letter from the code's digits (2 green, 1 yellow, 0 grey)."""
    code, digits = pattern(guess, answer), []
    for _ in range(5):
        code, d = divmod(code, 3)
        digits.append(d)
    return "".join({2: green, 1: yellow, 0: GREY}[d] for d in reversed(digits))


@pytest.mark.parametrize(("boards", "limit"), [(2, 7), (4, 9)])
def test_the_published_limits(en_words, boards, limit):
    game = Game.practice(en_words, boards)
    assert game.max_tries == limit and game.boards == boards


@pytest.mark.slow
def test_daily_answers_are_fixed_distinct_and_walk_the_list(en_words):
    first = daily_answers(en_words, DAY, 4, "s")
    assert first == daily_answers(en_words, DAY, 4, "s")
    assert first != daily_answers(en_words, DAY, 4, "other secret")
    assert all(a in en_words.solution_index for a in first)
    # consecutive days use new words until the list is used up: 2315 // 4 = 578 days
    seen: set[str] = set()
    for d in range(len(en_words.solutions) // 4):
        words = daily_answers(en_words, DAY + timedelta(days=d), 4, "s")
        assert len(set(words)) == 4 and not seen & set(words)
        seen |= set(words)
    # Dordle's words are another shuffle, not Quordle's first two
    dordle = [daily_answers(en_words, DAY + timedelta(days=d), 2, "s") for d in range(20)]
    quordle = [daily_answers(en_words, DAY + timedelta(days=d), 4, "s")[:2] for d in range(20)]
    assert dordle != quordle
    game = Game.daily(en_words, DAY, 2, secret="s")
    assert game.mode == "daily" and game.number == daily_number(DAY) and game.answers == dordle[0]


def test_practice_answers_are_different_words(en_words):
    for _ in range(50):
        words = practice_answers(en_words, 4)
        assert len(set(words)) == 4 and all(w in en_words.solution_index for w in words)


def test_a_quordle_won_on_the_last_guess_or_lost(en_words):
    answers = ("pleat", "dumpy", "shirk", "crane")
    game = Game.practice(en_words, 4, answers=answers)
    for word in ("slate", "fjord", "gawky", "vixen", "chomp", "crane", "pleat", "dumpy"):
        game = game.guess(word)
    assert game.status == "playing" and game.tries == 8
    assert [game.solved_at(b) for b in range(4)] == [7, 8, None, 6]
    with pytest.raises(GameError) as e:
        game.guess("qxzvj")
    assert e.value.key == "unknown_word" and game.tries == 8  # refused: no try used
    won = game.guess("SHIRK")
    assert won.status == "won" and won.solved_at(2) == 9
    lost = game.guess("brick")  # the ninth guess solves nothing: lost, and over
    assert lost.status == "lost" and lost.over and not lost.won
    with pytest.raises(GameError) as e:
        lost.guess("shirk")
    assert e.value.key == "game_over"


def test_a_board_solved_by_a_guess_made_for_another_and_equal_answers(en_words):
    game = Game.practice(en_words, 2, answers=("crane", "crane")).guess("crane")
    assert game.won and game.tries == 1 and [game.solved_at(b) for b in range(2)] == [1, 1]
    game = Game.practice(en_words, 2, answers=("pleat", "dumpy")).guess("dumpy")
    assert game.solved_at(1) == 1 and game.solved_at(0) is None
    # a solved board takes no more rows
    game = game.guess("slate")
    assert game.rows() == [("dumpy", (pattern("dumpy", "pleat"), 242)), ("slate", (pattern("slate", "pleat"), None))]


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rows_and_keyboards_against_plain_python(en_words, data):
    answers = tuple(data.draw(st.lists(st.sampled_from(en_words.solutions[:300]), min_size=4, max_size=4)))
    guesses = data.draw(st.lists(st.sampled_from([*en_words.solutions[:300], *answers]), min_size=1, max_size=8))
    game = Game.practice(en_words, 4, answers=answers)
    for g in guesses:
        if game.over:
            break
        game = game.guess(g)
    for b, answer in enumerate(answers):
        played = []
        for g in game.guesses:
            played.append(g)
            if g == answer:
                break
        assert [c for _, c in game.history(b)] == [pattern(g, answer) for g in played]
        # each letter's strongest colour over the board's rows, read from its squares
        best: dict[str, int] = {}
        for g in played:
            for letter, sq in zip(g, squares_of(g, answer)):
                best[letter] = max(best.get(letter, 0), {GREY: 0, YELLOW: 1, GREEN: 2}[sq])
        names = ("absent", "present", "correct")
        assert game.keyboards()[b] == {k: names[v] for k, v in sorted(best.items())}


def test_share_text_a_line_per_board_then_the_grids_in_pairs(en_words):
    game = Game.practice(en_words, 2, answers=("pleat", "dumpy")).guess("dumpy").guess("pleat")
    assert game.share_text() == "\n".join(
        [
            "raten Dordle en practice 2/7",
            "",
            "2\ufe0f\u20e3 1\ufe0f\u20e3",
            "",
            squares_of("dumpy", "pleat") + " " + GREEN * 5,
            GREEN * 5 + " " + "\u2b1b" * 5,
        ]
    )
    high = game.share_text(palette="high")
    assert GREEN not in high and YELLOW not in high and ORANGE * 5 in high
    assert high.splitlines()[4] == squares_of("dumpy", "pleat", ORANGE, BLUE) + " " + ORANGE * 5


def test_share_text_of_a_lost_quordle_marks_the_boards_not_solved(en_words):
    game = Game.daily(en_words, DAY, 4, secret="s")
    words = [
        w
        for w in ("slate", "fjord", "gawky", "vixen", "crane", "pious", "dumpy", "chomp", "brick")
        if w not in game.answers
    ]
    game = Game(en_words, game.answers, mode="daily", number=game.number)
    for w in [game.answers[0], *words[:8]]:
        game = game.guess(w)
    text = game.share_text(list_name="en", practice="Übung")
    lines = text.splitlines()
    assert lines[0] == f"raten Quordle en #{daily_number(DAY)} X/9"
    assert lines[2:4] == ["1\ufe0f\u20e3 \U0001f7e5", "\U0001f7e5 \U0001f7e5"]
    assert len(lines) == 4 + 1 + 9 + 1 + 9  # results, then two pairs of grids of nine rows


def test_an_unknown_palette_is_an_error(en_words):
    game = Game.practice(en_words, 2, answers=("pleat", "dumpy")).guess("pleat")
    with pytest.raises(RatenError) as e:
        game.share_text(palette="neon")
    assert e.value.key == "palette"


# --- the variant's rules, for every number of boards --------------------------------------------


def test_hard_mode_only_on_one_board(en_words):
    assert Game.practice(en_words, 1, hard=True).hard
    for make in (
        lambda: Game.practice(en_words, 2, hard=True),
        lambda: Game.daily(en_words, DAY, 4, hard=True),
        lambda: Game(en_words, ("pleat", "dumpy"), hard=True),
        lambda: Game.practice(en_words, 2, answers=("pleat", "dumpy")).with_hard(True),
    ):
        with pytest.raises(RatenError) as e:
            make()
        assert e.value.key == "boards_hard" and e.value.params["name"] in ("Dordle", "Quordle")
    assert game_variant(4).limit == 9 and game_variant(1, hard=True).limit == MAX_TRIES


def test_the_game_offers_one_two_or_four_boards():
    assert [offered_boards(n) for n in GAME_BOARDS] == [1, 2, 4]
    with pytest.raises(RatenError) as e:
        offered_boards(3)
    assert e.value.key == "game_boards" and e.value.params == {"boards": 3}


def test_one_board_is_the_case_n_equals_one(en_words):
    """The same rows, keyboards and results on one board as on many: a board's history is the
    game's, and the daily answer is the one-board walk of daily_answers."""
    game = Game.practice(en_words, answers=("pleat",)).guess("crane").guess("pleat")
    assert game.boards == 1 and game.max_tries == MAX_TRIES and game.answer == "pleat"
    assert game.rows() == [(g, (c,)) for g, c in game.history()]
    assert game.solved_at(0) == 2 and game.status == "won"
    daily = Game.daily(en_words, DAY, secret="s")
    assert daily.answers == daily_answers(en_words, DAY, 1, "s") and len(daily.answers) == 1


def test_the_review_is_offered_on_one_board_once_over(en_words):
    dordle = Game.practice(en_words, 2, answers=("pleat", "dumpy")).guess("pleat").guess("dumpy")
    with pytest.raises(RatenError) as e:
        dordle.exact_review()
    assert e.value.key == "review_boards"
    with pytest.raises(GameError) as e:
        Game.practice(en_words, answers=("pleat",)).guess("crane").check_reviewable()
    assert e.value.key == "not_over"
