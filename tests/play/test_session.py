"""Session: the interactive solve loop as a library object (history, undo, legality, suggestions)."""

from __future__ import annotations

import pytest

from raten.engine.feedback import ALL_GREEN, format_pattern
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.session import Session
from raten.trees.model import Tree
from reference import ref_code, ref_dots


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """60 en solutions and about 300 allowed words."""
    return WordSet.from_lists(en_words.solutions[::38], en_words.allowed[::43], name="small")


def test_a_fresh_session_suggests_the_best_opener(small) -> None:
    session = Session(small)
    assert session.history == () and not session.solved and not session.can_undo
    expected = State(small).hints(top=5)
    assert session.suggestions(5) == expected
    assert session.suggestions(3) == expected[:3]
    assert session.suggestion() == expected[0].word
    assert session.new_warnings == ()


def test_enter_moves_on_and_undo_goes_back(small) -> None:
    answer, first = small.solutions[7], small.allowed[0]
    session = Session(small, strategy="minimax")
    after = session.enter(first.upper(), ref_dots(first, answer))
    assert session.state is after
    assert session.history == ((first, ref_code(first, answer)),)
    assert after.candidate_words == State(small).after(first, ref_code(first, answer)).candidate_words
    assert session.suggestions(4) == after.hints(top=4, strategy="minimax")
    assert session.undo() and session.history == () and not session.undo()
    assert session.suggestions(4) == State(small).hints(top=4, strategy="minimax")


def test_playing_to_the_answer_solves_and_stops(small) -> None:
    answer = small.solutions[11]
    session = Session(small)
    while not session.solved:
        guess = session.suggestion()
        session.enter(guess, ref_code(guess, answer))
    assert session.history[-1] == (answer, ALL_GREEN)
    with pytest.raises(RatenError, match="already solved"):
        session.enter(answer, "!!!!!")
    assert session.undo() and not session.solved


def test_bad_input_leaves_the_session_as_it_was(en_words) -> None:
    session = Session(en_words)
    with pytest.raises(RatenError, match="letters a-z only"):
        session.check_guess("cr4ne")
    with pytest.raises(RatenError, match="unknown symbol 'z'"):
        session.enter("crane", "..z..")
    assert session.history == ()
    session.enter("crane", "!....")
    with pytest.raises(RatenError, match="position 1 cannot be both C and B"):
        session.enter("brine", "!....")
    assert session.history == (("crane", ref_code("crane", "cxxxx")),)


def test_hard_mode_refuses_illegal_guesses(en_words) -> None:
    session = Session(en_words, hard=True)
    session.enter("crane", "..?!.")
    with pytest.raises(RatenError, match="hard mode: 4th letter must be N"):
        session.check_guess("slate")
    with pytest.raises(RatenError, match="hard mode"):
        session.enter("slate", ".....")
    assert len(session.history) == 1
    assert session.check_guess("TAUNT") == "taunt"


def test_new_warnings_are_those_of_the_last_move(small) -> None:
    off_list = next(w for w in ("zesty", "fjord", "nymph", "crwth") if w not in small.allowed_index)
    session = Session(small)
    session.enter(off_list, ".....")
    assert len(session.new_warnings) >= 1 and off_list.upper() in session.new_warnings[0]
    word = small.allowed[1]
    session.enter(word, ref_code(word, session.state.candidate_words[0]))
    assert all(off_list.upper() not in w for w in session.new_warnings)
    session.undo()
    assert off_list.upper() in session.new_warnings[0]


def test_a_tree_gives_the_suggestion(small, tmp_path) -> None:
    """With a tree file the suggestion follows the tree; the ranking is still there to show."""
    answer = small.solutions[3]
    other = next(w for w in small.allowed if w != State(small).hints(top=1)[0].word)
    groups: dict[int, list[str]] = {}
    for s in small.solutions:
        groups.setdefault(ref_code(other, s), []).append(s)
    # one guess per history: within a group, guess its first word, then each one in turn
    paths = {}
    for code, members in groups.items():
        for s in members:
            path = [(other, code)]
            for g in members:
                if g == s:
                    break
                path.append((g, ref_code(g, s)))
            if path[-1] != (s, ALL_GREEN):
                path.append((s, ALL_GREEN))
            paths[s] = tuple(path)
    file = tmp_path / "t.tree"
    Tree.from_paths(small, paths, opener=other).write(file)
    session = Session(small, tree=file)
    assert session.suggestion() == other
    assert session.suggestions(3) == State(small).hints(top=3)
    session.enter(other, ref_code(other, answer))
    assert session.suggestion() == paths[answer][1][0]


def test_autoplay_finds_a_known_answer(small) -> None:
    """--answer: the session plays its own suggestions against the answer until solved."""
    answer = small.solutions[5]
    session = Session(small, answer=answer.upper())
    states = list(session.autoplay())
    assert session.solved and session.history[-1] == (answer, ALL_GREEN)
    assert len(states) == len(session.history)
    assert (
        session.status() == f"solved in {len(session.history)} guess{'es' if len(states) > 1 else ''}: {answer.upper()}"
    )
    assert session.share_grid().splitlines() == [format_pattern(c, "emoji") for _, c in session.history]
    assert session.moves_text().split() == [f"{g}={format_pattern(c, 'dots')}" for g, c in session.history]


def test_autoplay_needs_an_answer_of_the_list(small) -> None:
    with pytest.raises(RatenError, match="autoplay needs a known answer"):
        next(Session(small).autoplay())
    with pytest.raises(RatenError, match="is not a word of the small list"):
        Session(small, answer="zzzzz")


def test_status_and_intro_say_where_the_game_stands(en_words) -> None:
    session = Session(en_words)
    assert session.intro() == "en: 2315 candidates left, 12972 allowed guesses"
    assert Session(en_words, hard=True).intro().endswith(", hard mode")
    session.enter("crane", "..?!.")
    assert session.status() == "20 candidates left"
    session.enter("tousy", "?....")
    session.enter("faint", ".!!!!")
    assert session.status() == "the answer is PAINT"
    session.enter("paint", "!!!!!")
    assert session.status() == "solved in 4 guesses: PAINT"
