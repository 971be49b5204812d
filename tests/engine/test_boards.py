"""engine/boards.py: the many-board state against each board filtered alone, the variants, the
strategies against brute force on small random lists."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.boards import BOARD_STRATEGIES, VARIANTS, Boards, rank_boards, variant
from raten.engine.feedback import ALL_GREEN, format_pattern, pattern
from raten.engine.words import WordSet
from raten.errors import RatenError


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """60 solutions and 150 allowed words drawn from the English lists."""
    rnd = random.Random(14)
    sols = rnd.sample(en_words.solutions, 60)
    extra = rnd.sample([w for w in en_words.allowed if w not in set(sols)], 90)
    return WordSet.from_lists(sols, sols + extra, name="small14")


def slow_candidates(words: WordSet, moves: list[tuple[str, int]]) -> list[str]:
    """The obvious reference: every solution that shows every pattern of the board."""
    return [s for s in words.solutions if all(pattern(g, s) == c for g, c in moves)]


def _play(words: WordSet, answers: list[str], guesses: list[str]) -> Boards:
    game = Boards.start(words, len(answers))
    for g in guesses:
        pats = ["-" if s.solved else format_pattern(pattern(g, a)) for s, a in zip(game.states, answers)]
        game = game.after(g, pats)
    return game


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_each_board_filters_like_the_slow_reference(small: WordSet, data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([2, 3, 4]))
    answers = data.draw(st.lists(st.sampled_from(small.solutions), min_size=n, max_size=n))
    guesses = data.draw(st.lists(st.sampled_from(small.allowed), min_size=1, max_size=4))
    game = _play(small, answers, guesses)
    fast = Boards.start(small, n)
    for g in guesses:
        fast = fast.play(small.allowed_index[g], [small.solution_index[a] for a in answers])
    for b, answer in enumerate(answers):
        moves, solved = [], False
        for g in guesses:
            if solved:
                break
            moves.append((g, pattern(g, answer)))
            solved = g == answer
        assert game.states[b].candidate_words == (slow_candidates(small, moves) if not solved else [answer])
        assert fast.states[b].candidate_words == game.states[b].candidate_words
        assert game.solved[b] == solved == fast.solved[b]


def test_equal_answers_are_solved_by_one_guess(small: WordSet) -> None:
    a = small.solutions[0]
    game = _play(small, [a, a, a], ["soare" if "soare" in small.allowed_index else small.allowed[1], a])
    assert game.done and game.turns == 2
    assert [game.solved_at(b) for b in range(3)] == [2, 2, 2]


def test_a_guess_made_for_one_board_solves_another(small: WordSet) -> None:
    a, b = small.solutions[3], small.solutions[7]
    game = _play(small, [a, b], [b])
    assert game.solved == (False, True) and game.active == (0,)
    game = game.after(a, [format_pattern(ALL_GREEN), "-"])
    assert game.done and game.won and game.solved_at(0) == 2 and game.solved_at(1) == 1


def test_solved_boards_take_no_other_pattern(small: WordSet) -> None:
    a, b = small.solutions[3], small.solutions[7]
    game = _play(small, [a, b], [b])
    with pytest.raises(RatenError, match="board 2 is solved already"):
        game.after(a, ["!!!!!", "....."])
    with pytest.raises(RatenError, match="board 1 is not solved"):
        game.after(a, ["-", "-"])
    with pytest.raises(RatenError, match="needs 2 patterns, one per board, not 3"):
        game.after(a, ["!!!!!", "-", "-"])


def test_variant_limits() -> None:
    assert [(v.name, v.limit) for b, v in sorted(VARIANTS.items()) if b > 1] == [
        ("Dordle", 7),
        ("Quordle", 9),
        ("Octordle", 13),
        ("Sedecordle", 21),
    ]
    assert variant(3).limit == 8 and variant(1).limit == 6
    for bad in (0, 65):
        with pytest.raises(RatenError, match="number of boards"):
            variant(bad)
    with pytest.raises(RatenError, match="no hard mode"):
        Boards.start(WordSet.from_lists(["cigar"], ["cigar"]), 4, hard=True)


def test_won_needs_the_limit(small: WordSet) -> None:
    a, b = small.solutions[0], small.solutions[1]
    probes = [w for w in small.allowed if w not in (a, b)][:6]
    assert not _play(small, [a, b], [*probes, a, b]).won  # 8 guesses > 7
    assert _play(small, [a, b], [*probes[:5], a, b]).won  # exactly 7


def _entropy(codes: list[int]) -> float:
    n = len(codes)
    return -sum(c / n * math.log2(c / n) for c in Counter(codes).values())


def test_joint_partition_entropy_is_the_sum(small: WordSet) -> None:
    """The boards' answers are independent: the joint feedback's entropy is the sum of the boards'."""
    game = _play(
        small,
        [small.solutions[5], small.solutions[9]],
        ["soare" if "soare" in small.allowed_index else small.allowed[0]],
    )
    c1, c2 = (s.candidate_words for s in game.states)
    for hint in rank_boards(game, top=5):
        joint = [(pattern(hint.word, x), pattern(hint.word, y)) for x, y in product(c1, c2)]
        n = len(joint)
        h = -sum(c / n * math.log2(c / n) for c in Counter(joint).values())
        assert hint.bits == pytest.approx(h, abs=1e-9)


def brute_best(game: Boards, strategy: str) -> str:
    """The best guess by the definitions, in plain Python."""
    words = game.words
    boards = [game.states[b].candidate_words for b in game.active]
    pool = list(words.allowed)
    if all(len(c) <= 2 for c in boards):
        pool = sorted({w for c in boards for w in c})
    if strategy.startswith("finish"):
        determined = sorted({c[0] for c in boards if len(c) == 1})
        pool = determined or pool

    def key(w: str):
        codes = [[pattern(w, s) for s in c] for c in boards]
        bits = sum(_entropy(cs) for cs in codes)
        exp = sum(sum(v * v for v in Counter(cs).values()) / len(cs) for cs in codes)
        chance = sum((w in c) / len(c) for c in boards)
        primary = -round(bits, 9) if strategy in ("entropy", "finish") else round(exp, 9)
        return (primary, -round(chance, 9), w)

    return min(pool, key=key)


@pytest.mark.parametrize("strategy", list(BOARD_STRATEGIES))
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_strategies_choose_like_brute_force(small: WordSet, strategy: str, seed: int) -> None:
    rnd = random.Random(seed)
    answers = rnd.sample(small.solutions, 3)
    game = _play(small, answers, rnd.sample(small.allowed, rnd.randint(1, 2)))
    if game.done:
        pytest.skip("solved by chance")
    assert rank_boards(game, top=1, strategy=strategy)[0].word == brute_best(game, strategy)


def test_one_board_ranks_like_the_single_board_state(en_words) -> None:
    from raten.engine.state import State

    single = State(en_words).after("crane", "..?!.")
    many = Boards.start(en_words, 1).after("crane", ["..?!."])
    assert [h.word for h in many.hints(top=5)] == [h.word for h in single.hints(top=5)]


def test_unknown_strategy_and_finished_game(small: WordSet) -> None:
    game = Boards.start(small, 2)
    with pytest.raises(RatenError, match="unknown strategy"):
        game.hints(strategy="minimax")
    a = small.solutions[0]
    with pytest.raises(RatenError, match="every board is solved"):
        _play(small, [a, a], [a]).hints()
    assert "start" in repr(game) and "2/" not in repr(_play(small, [a, a], [a]))


def brute_best_weighted(game: Boards, strategy: str, weight: dict[str, float]) -> str:
    """The best guess by the weighted definitions, in plain Python: each board's answer drawn from
    the prior over its candidates; bits = the joint feedback's entropy (a sum over boards)."""
    boards = [game.states[b].candidate_words for b in game.active]
    pool = list(game.words.allowed)
    if all(len(c) <= 2 for c in boards):
        pool = sorted({w for c in boards for w in c})
    if strategy.startswith("finish"):
        pool = sorted({c[0] for c in boards if len(c) == 1}) or pool

    def key(w: str):
        bits = exp = chance = 0.0
        for c in boards:
            total = sum(weight[s] for s in c)
            mass: Counter[int] = Counter()
            size: Counter[int] = Counter()
            for s in c:
                mass[pattern(w, s)] += weight[s] / total
                size[pattern(w, s)] += 1
            bits -= sum(m * math.log2(m) for m in mass.values())
            exp += sum(mass[p] * size[p] for p in mass)
            chance += weight[w] / total if w in c else 0.0
        primary = -round(bits, 9) if strategy in ("entropy", "finish") else round(exp, 9)
        return (primary, -round(chance, 9), w)

    return min(pool, key=key)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", list(BOARD_STRATEGIES))
@pytest.mark.parametrize("seed", range(4))
def test_boards_rank_by_each_boards_prior_weights(small: WordSet, strategy: str, seed: int) -> None:
    """With a prior (every allowed word an answer, random weights), the boards' ranking is the
    weighted one: bits, expected remaining and the chance to solve a board, as brute force has them."""
    import numpy as np

    rnd = random.Random(100 + seed)
    weights = np.array([rnd.uniform(0.01, 1.0) for _ in small.allowed])
    words = small.with_prior("test", weights, solutions=small.allowed)
    weight = dict(zip(small.allowed, weights))
    answers = rnd.sample(small.allowed, 3)
    game = _play(words, answers, rnd.sample(small.allowed, rnd.randint(1, 2)))
    if game.done:
        pytest.skip("solved by chance")
    best = rank_boards(game, top=1, strategy=strategy)[0]
    assert best.word == brute_best_weighted(game, strategy, weight)
    one = game.states[game.active[0]]
    single = {h.word: h for h in one.hints(top=len(small.allowed))}
    if len(game.active) == 1 and best.word in single:
        assert best.bits == pytest.approx(single[best.word].bits, abs=1e-9)
