"""Simulation: every strategy plays a small list end to end in normal and hard mode, plays the
guesses `raten hint` shows, agrees with a plain-Python player, counts failures, and reaches
the published English figures."""

from __future__ import annotations

import numpy as np
import pytest

from raten.engine.hardmode import violation
from raten.engine.matrix import load_matrix
from raten.engine.rank import STRATEGIES
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.results import NOTES, WIN_WITHIN, BenchResult, coverage
from raten.play.simulate import MAX_TURNS, Simulator, play_answers, sample_answers, simulate
from raten.play.strategies import get_strategy
from reference import ref_code, ref_filter, ref_split

SEVEN = list(STRATEGIES)
# Published greedy figures for the en lists (opener, total guesses; all games within 6).
PUBLISHED = {"entropy": ("soare", 8023), "partitions": ("trace", 7949), "minimax": ("raise", 8245)}
WINDOW = 0.02  # allowed difference in the average
TINY_SOLUTIONS = """
cigar rebut sissy humph awake blush focal evade naval serve heath dwarf model karma stink grade
quiet bench abate feign major death fresh crust stool colon abase marry react batty pride floss
helix croak staff paper unfed whelp trawl outdo adobe crazy sower repay digit crate cluck spike
"""
TINY_ALLOWED = "raise slate tares crane adieu audio lions pious rusty month vapid fjord glyph nymph soare roate irate"


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """75 en solutions and about 400 allowed words."""
    return WordSet.from_lists(en_words.solutions[::31], en_words.allowed[::33], name="small")


def _check_games(result: BenchResult, words: WordSet, hard: bool) -> None:
    """Distribution sums to the games; each game is won (or counted failed); paths are legal."""
    assert result.games == len(result.answers) == len(result.paths)
    dist = result.distribution
    assert list(dist) == [*map(str, range(1, WIN_WITHIN + 1)), "failed"]
    assert sum(dist.values()) == result.games
    assert result.total == sum(len(p) for p in result.paths)
    for (answer,), n, path, solved in zip(result.answers, result.guesses, result.paths, result.solved):
        assert n == len(path)
        assert solved == (path[-1] == answer)
        assert solved or n == MAX_TURNS
        assert len(set(path)) == len(path), f"{answer}: a guess repeated"
        history = []
        for guess in path:
            assert guess in words.allowed_index, (answer, path)
            if hard:
                assert violation(guess, history) is None, (answer, path)
            history.append((guess, ref_code(guess, answer)))
    assert result.failed == sum(1 for n, s in zip(result.guesses, result.solved) if n > WIN_WITHIN or not s)
    assert result.average == pytest.approx(result.total / result.games)
    assert result.max == max(len(p) for p in result.paths)


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("name", [*SEVEN, "lookahead:2"])
@pytest.mark.slow
def test_every_strategy_plays_every_game(small, name, hard) -> None:
    done = []
    result = simulate(small, name, hard=hard, progress=done.append)
    assert sum(done) == result.games == len(small.solutions)
    assert result.strategy == name and result.hard == hard
    _check_games(result, small, hard)
    assert all(result.solved)
    assert all(path[0] == result.opener for path in result.paths)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("name", [*SEVEN, "lookahead:3"])
def test_plays_the_guesses_hint_shows(small, name, hard) -> None:
    """A game replayed move by move through State.after and State.hints gives the same path."""
    answers = [0, 17, 42, len(small.solutions) - 1]
    result = simulate(small, name, hard=hard, answers=answers)
    for (answer,), path in zip(result.answers, result.paths):
        state = State(small, hard=hard)
        for guess in path:
            assert state.hints(top=1, strategy=name)[0].word == guess, (answer, path)
            state = state.after(guess, ref_code(guess, answer))
        assert state.solved


def _ref_play(words: WordSet, hard: bool) -> dict[str, list[str]]:
    """Greedy entropy in plain Python: pool = allowed (legal in hard mode), only the candidates
    when two or fewer are left; ties to a possible answer, then A-Z. Positions are cached."""

    def legal(word: str, history) -> bool:
        for guess, code in history:
            digits = [(code // 3 ** (4 - i)) % 3 for i in range(5)]
            if any(d == 2 and word[i] != guess[i] for i, d in enumerate(digits)):
                return False
            for letter in set(guess):
                if word.count(letter) < sum(1 for i in range(5) if guess[i] == letter and digits[i]):
                    return False
        return True

    cache: dict[tuple, str] = {}
    paths = {}
    for answer in words.solutions:
        history: list[tuple[str, int]] = []
        cands = list(words.solutions)
        while True:
            key = tuple(history)
            if key not in cache:
                pool = cands if len(cands) <= 2 else [w for w in words.allowed if not hard or legal(w, history)]
                scored = [(-round(ref_split(g, cands)[0], 9), g not in cands, g) for g in pool]
                cache[key] = min(scored)[2]
            guess = cache[key]
            code = ref_code(guess, answer)
            history.append((guess, code))
            if guess == answer:
                break
            cands = ref_filter(cands, [(guess, code)])
        paths[answer] = [g for g, _ in history]
    return paths


@pytest.mark.parametrize("hard", [False, True])
def test_entropy_agrees_with_plain_python(hard) -> None:
    words = WordSet.from_lists(
        TINY_SOLUTIONS.split(),
        TINY_ALLOWED.split(),
        name="tiny",
    )
    result = simulate(words, "entropy", hard=hard)
    ref = _ref_play(words, hard)
    assert {a: p for (a,), p in zip(result.answers, result.paths)} == ref
    _check_games(result, words, hard)


def test_sample_answers(small) -> None:
    m = len(small.solutions)
    assert sample_answers(small) == list(range(m))
    a = sample_answers(small, 10, seed=5)
    assert a == sorted(a) and len(set(a)) == 10 and a == sample_answers(small, 10, seed=5)
    assert a != sample_answers(small, 10, seed=6)
    assert sample_answers(small, m) == list(range(m))
    for bad in (0, -1, m + 1):
        with pytest.raises(RatenError, match="sample size"):
            sample_answers(small, bad)


def test_fixed_opener(small) -> None:
    opener = small.allowed[-1]
    result = simulate(small, "minimax", opener=opener.upper())
    assert result.opener == opener
    assert all(p[0] == opener for p in result.paths)
    _check_games(result, small, False)
    with pytest.raises(RatenError, match="not an allowed word"):
        simulate(small, "entropy", opener="qqqqq")
    with pytest.raises(RatenError):
        simulate(small, "entropy", opener="toolong")


class _Stubborn:
    """A broken strategy: always the same guess."""

    name = "stubborn"
    description = "always guesses one word"

    def __init__(self, word: str) -> None:
        self.word = word

    def next_guess(self, _state) -> str:
        return self.word


def test_unsolved_games_are_failed_and_capped(small) -> None:
    word = next(w for w in small.allowed if w not in small.solution_index)
    result = simulate(small, _Stubborn(word), answers=[0, 1, 2])
    assert not result.solved.any()
    assert list(result.guesses) == [MAX_TURNS] * 3
    assert result.failed == 3 and result.distribution["failed"] == 3
    assert sum(result.distribution.values()) == 3
    with pytest.raises(RatenError, match="not an allowed word"):
        simulate(small, _Stubborn("zzzzz"), answers=[0])


def test_failures_beyond_six_are_played_to_the_end(small) -> None:
    """A game solved in more than six guesses is failed but its guesses all count."""
    result = simulate(small, _Stubborn(small.solutions[0]), answers=[0])
    assert result.guesses.tolist() == [1] and result.failed == 0
    result.guesses[0] = 8  # as if solved at the eighth guess
    assert result.failed == 1 and result.distribution["failed"] == 1 and result.max == 8


def test_positions_are_cached(small) -> None:
    matrix = load_matrix(small)
    calls = []

    class Counting:
        name = "counting"
        description = ""

        def next_guess(self, state):
            calls.append(state.history)
            return get_strategy("entropy").next_guess(state)

    sim = Simulator(matrix, Counting())
    first = [sim.play(a) for a in range(len(small.solutions))]
    asked = len(calls)
    assert asked == sim.positions == len(set(calls))
    assert [sim.play(a) for a in range(len(small.solutions))] == first
    assert len(calls) == asked  # the second round asks nothing


def test_result_json_and_worst(small) -> None:
    result = simulate(small, "partitions", answers=range(20))
    d = result.to_dict()
    assert set(d) == {
        "strategy",
        "opener",
        "hard",
        "games",
        "total",
        "average",
        "max",
        "failed",
        "distribution",
        "seconds",
    }
    assert d["games"] == 20 and sum(d["distribution"].values()) == 20
    worst = result.worst(5)
    assert [n for _, n, _ in worst] == sorted((int(n) for n in result.guesses), reverse=True)[:5]
    assert all(path[-1] == answer for (answer,), _, path in worst)


def test_tree_strategy_replays_a_simulation(small, tmp_path) -> None:
    from raten.trees.model import Tree

    played = simulate(small, "expected")
    paths = {a: tuple((g, ref_code(g, a)) for g in p) for (a,), p in zip(played.answers, played.paths)}
    file = tmp_path / "expected.tree"
    Tree.from_paths(small, paths, opener=played.opener).write(file)
    replay = simulate(small, f"tree:{file}")
    assert replay.paths == played.paths and replay.total == played.total
    assert replay.strategy == f"tree:{file}"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PUBLISHED))
def test_published_english_figures(en_words, name) -> None:
    """Greedy strategies over all 2315 en solutions match the published totals within 0.02 per game."""
    opener, total = PUBLISHED[name]
    result = simulate(en_words, name, opener=opener if name == "minimax" else None)
    assert result.opener == opener
    assert result.games == 2315
    assert abs(result.total - total) <= WINDOW * result.games, (result.total, total)
    assert result.max <= WIN_WITHIN and result.failed == 0
    assert np.array_equal(np.sort(result.guesses)[-1:], [result.max])


# --- play_answers: another game's answers, played with this list ---------------------------


def test_play_answers_on_the_solutions_is_the_benchmark(small) -> None:
    bench = simulate(small, "entropy")
    played = play_answers(small, list(small.solutions), "entropy")
    assert played.paths == bench.paths
    assert played.guesses.tolist() == bench.guesses.tolist()
    assert played.notes == {}
    assert played.average_won == pytest.approx(bench.average)


def _ref_candidates(words: WordSet, path: list[str], answer: str) -> list[str]:
    history = [(g, ref_code(g, answer)) for g in path]
    return [s for s in words.solutions if all(ref_code(g, s) == c for g, c in history)]


def test_play_answers_outside_the_solutions(small, en_words) -> None:
    allowed_only = [w for w in small.allowed if w not in small.solution_index][:40]
    not_allowed = [w for w in en_words.solutions if w not in small.allowed_index][:20]
    result = play_answers(small, allowed_only + not_allowed, "entropy")
    assert result.games == 60
    for (answer,), path, won in zip(result.answers, result.paths, result.solved):
        assert path[0] == result.opener
        if won:
            assert path[-1] == answer and answer in small.allowed_index
            assert answer not in result.notes
            continue
        assert answer not in path
        # lost only when no solution fits the colours the answer gave
        assert _ref_candidates(small, path, answer) == []
        assert result.notes[answer] == ("not_solution" if answer in small.allowed_index else "not_allowed")
        assert result.notes[answer] in NOTES
    assert all(result.notes[a] == "not_allowed" for a in not_allowed)
    # an allowed answer is always found: once no solution fits, the solver goes on with the allowed words
    assert all(won for (a,), won in zip(result.answers, result.solved) if a in allowed_only)
    assert result.failed == len(result.notes) + sum(1 for n in result.guesses if n > WIN_WITHIN)
    assert result.to_dict()["notes"] == result.notes


def test_a_probe_can_win_a_game_outside_the_solutions(small) -> None:
    probe = next(w for w in small.allowed if w not in small.solution_index)
    result = play_answers(small, [probe], "entropy", opener=probe)
    assert result.paths == [[probe]] and result.solved.tolist() == [True] and result.notes == {}


def test_coverage_counts(small) -> None:
    answers = [*small.solutions[:5], small.allowed[0], "zzzzz", "qqqqq", "zzzzz"]
    cover = coverage(small, answers)
    expected_only = sum(1 for w in {small.allowed[0]} if w not in small.solution_index)
    assert cover.answers == 8
    assert cover.solutions == len(set(small.solutions[:5]) | ({small.allowed[0]} & set(small.solutions)))
    assert cover.allowed_only == expected_only
    assert cover.not_allowed == ("qqqqq", "zzzzz")
    assert cover.to_dict()["allowed"] == cover.solutions + cover.allowed_only


def test_de_allows_the_6mal5_answers_the_issue_named(shared_list) -> None:
    """Issue 10 measured 34 of 6mal5's 1,070 answers that de did not allow (chili, coach, email,
    label, solar, turbo ...); with the word forms of the hunspell dictionary these are allowed."""
    from raten.wordlists.files import read_word_file
    from raten.wordlists.presets import load_words

    answers = read_word_file(shared_list("de", "solutions.txt"))
    de = load_words("de")
    cover = coverage(de, answers)
    assert cover.answers == 1070
    assert cover.not_allowed == tuple(sorted(set(answers) - set(de.allowed)))
    assert cover.solutions == len(set(answers) & set(de.solutions))
    assert len(cover.not_allowed) < 34
    assert not {"chili", "coach", "email", "joint", "label", "salsa", "shirt", "solar", "turbo"} & set(
        cover.not_allowed
    )


def test_a_tree_plays_answers_outside_its_list(small, en_words, tmp_path) -> None:
    """A tree covers only its list's solutions: another answer ends where no solution fits,
    as with a ranking, never in an error for leaving the tree."""
    from raten.trees.model import Tree

    played = simulate(small, "expected")
    paths = {a: tuple((g, ref_code(g, a)) for g in p) for (a,), p in zip(played.answers, played.paths)}
    file = tmp_path / "expected.tree"
    Tree.from_paths(small, paths, opener=played.opener).write(file)
    outside = [w for w in en_words.solutions if w not in small.allowed_index][:30]
    result = play_answers(small, [*small.solutions[:10], *outside], f"tree:{file}")
    assert result.paths[:10] == played.paths[:10]
    for answer, path in zip(outside, result.paths[10:]):
        assert result.notes[answer] == "not_allowed"
        assert _ref_candidates(small, path, answer) == []


# --- a prior: weighted averages ------------------------------------------------------------


def test_simulation_under_a_prior_averages_by_the_weights(small) -> None:
    """Each game's answer weighs by its prior: the average is the expected number of guesses
    when the answer is drawn from the prior; every game is still played and counted, and the
    guesses are what the weighted hints say."""
    rng = np.random.default_rng(4)
    weights = rng.random(len(small.solutions)) ** 2 + 0.01
    weighted = small.with_prior("test", weights)
    result = simulate(weighted, "entropy")
    _check_weighted_games(result, weighted)
    want = sum(w * g for w, g in zip(weights.tolist(), result.guesses.tolist())) / sum(weights.tolist())
    assert result.average == pytest.approx(want, rel=1e-12)
    assert result.average_games == pytest.approx(result.total / result.games)
    out = result.to_dict()
    assert out["prior"] == "test" and out["average"] == round(want, 4)
    # the weighted hints are what it plays: its opener is the best guess under the weights
    assert result.opener == State(weighted).hints(top=1)[0].word
    # equal weights are the uniform prior: the very same games as without weights
    same = simulate(small.with_prior("test", np.full(len(small.solutions), 2.0)), "entropy")
    plain = simulate(small, "entropy")
    assert same.paths == plain.paths and same.average == plain.average and same.weights is None


def _check_weighted_games(result: BenchResult, words: WordSet) -> None:
    assert result.games == len(words.solutions) and result.solved.all()
    for (answer,), path in zip(result.answers, result.paths):
        assert path[-1] == answer


def test_play_answers_is_a_plain_average_under_a_prior(small) -> None:
    """Answers from a file are games as they come (each once), whatever the list's prior."""
    weighted = small.with_prior("test", np.linspace(1, 9, len(small.solutions)))
    result = play_answers(weighted, list(small.solutions[:20]), "entropy")
    assert result.weights is None and result.average == pytest.approx(result.total / 20)
