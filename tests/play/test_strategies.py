"""Strategies: names and the registry, each ranking in normal and hard mode, candidates-only
entropy, the two-step look-ahead against plain Python, and the English openers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from raten.engine.hardmode import violation
from raten.engine.lookahead import second_step_bits
from raten.engine.rank import LOOKAHEAD_K, STRATEGIES, parse_strategy, rank
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.strategies import RankingStrategy, TreeStrategy, get_strategy, resolve
from reference import ref_code, ref_filter, ref_split

SEVEN = ["entropy", "partitions", "expected", "minimax", "frequency", "candidates-entropy", "lookahead"]

# Each strategy's first guess for the en lists (ties: could be the answer first, then A-Z).
EN_OPENERS = {
    "entropy": "soare",
    "partitions": "trace",
    "expected": "roate",
    "minimax": "arise",  # ties with raise at a largest group of 168: arise comes first A-Z
    "frequency": "alert",
    "candidates-entropy": "raise",
    "lookahead": "slate",
}


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """60 en solutions and about 300 allowed words: small enough for plain-Python checks."""
    sols = en_words.solutions[::38]
    allowed = en_words.allowed[::43]
    return WordSet.from_lists(sols, allowed, name="small")


def test_registry_covers_seven() -> None:
    assert list(STRATEGIES) == SEVEN
    for name in SEVEN:
        strat = get_strategy(name)
        assert strat.name == name and strat.description


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("entropy", ("entropy", 0)),
        (" Minimax ", ("minimax", 0)),
        ("lookahead", ("lookahead", LOOKAHEAD_K)),
        ("lookahead:3", ("lookahead", 3)),
        ("candidates-entropy", ("candidates-entropy", 0)),
    ],
)
def test_parse_strategy(name, parsed) -> None:
    assert parse_strategy(name) == parsed


@pytest.mark.parametrize("bad", ["nope", "entropy:3", "lookahead:0", "lookahead:x", "lookahead:", "", "tree"])
def test_parse_strategy_rejects(bad) -> None:
    with pytest.raises(RatenError):
        parse_strategy(bad)


def test_resolve_lists_and_all(small) -> None:
    assert [s.name for s in resolve("all")] == SEVEN
    assert [s.name for s in resolve("minimax, entropy,minimax")] == ["minimax", "entropy"]
    assert [s.name for s in resolve(["lookahead:4", "all"])] == ["lookahead:4", *SEVEN]
    assert get_strategy("lookahead:10") is get_strategy("lookahead")  # the default K is the plain name
    tree = get_strategy("tree:some.tree", small)
    assert isinstance(tree, TreeStrategy) and tree.name == "tree:some.tree"
    with pytest.raises(RatenError):
        resolve(" , ")
    with pytest.raises(RatenError):
        get_strategy("tree:")
    with pytest.raises(RatenError):
        get_strategy("tree:x.tree")  # no word set to check it against


@pytest.mark.slow
def test_en_openers(en_words) -> None:
    start = State(en_words)
    for name, opener in EN_OPENERS.items():
        assert get_strategy(name).next_guess(start) == opener, name
    ties = [h for h in rank(start, top=3, strategy="minimax") if h.largest == 168]
    assert [h.word for h in ties][:2] == ["arise", "raise"]


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("name", [*SEVEN, "lookahead:2"])
def test_every_strategy_ranks_legal_guesses(small, name, hard) -> None:
    state = State(small, hard=hard)
    answer = small.solutions[7]
    for _ in range(8):
        hints = rank(state, top=4, strategy=name)
        assert 1 <= len(hints) <= 4
        assert len({h.word for h in hints}) == len(hints)
        guess = get_strategy(name).next_guess(state)
        assert guess == hints[0].word
        if hard:
            assert all(violation(h.word, state.history) is None for h in hints)
        if name in ("frequency", "candidates-entropy"):
            assert all(h.word in state.candidate_words for h in hints)
        state = state.after(guess, ref_code(guess, answer))
        assert answer in state.candidate_words
        if state.solved:
            break
    assert state.solved


def test_candidates_entropy_is_entropy_over_candidates(small) -> None:
    state = State(small).after("raise", ref_code("raise", small.solutions[3]))
    cands = state.candidate_words
    best = rank(state, top=len(cands), strategy="candidates-entropy")
    assert sorted(h.word for h in best) == cands
    expected = sorted(cands, key=lambda w: (-round(ref_split(w, cands)[0], 9), w))
    assert [h.word for h in best] == expected


def _legal(word: str, history) -> bool:
    """Hard mode in plain Python: greens kept, every revealed letter used as often as shown."""
    for guess, code in history:
        digits = [(code // 3 ** (4 - i)) % 3 for i in range(5)]
        for i in range(5):
            if digits[i] == 2 and word[i] != guess[i]:
                return False
        for letter in set(guess):
            shown = sum(1 for i in range(5) if guess[i] == letter and digits[i] > 0)
            if word.count(letter) < shown:
                return False
    return True


def _ref_second_step(first: str, pool: list[str], cands: list[str], history, hard: bool) -> float:
    """Expected best entropy of a second guess after ``first``, by brute force."""
    groups: dict[int, list[str]] = {}
    for c in cands:
        groups.setdefault(ref_code(first, c), []).append(c)
    total = 0.0
    for code, group in groups.items():
        if len(group) <= 2:
            best = math.log2(len(group))
        else:
            after = [*history, (first, code)]
            legal = [g for g in pool if not hard or _legal(g, after)]
            best = max(ref_split(g, group)[0] for g in legal)
        total += len(group) * best
    return total / len(cands)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("opened", [False, True])
def test_second_step_against_plain_python(small, hard, opened) -> None:
    history = [("jumpy", ref_code("jumpy", small.solutions[11]))] if opened else []
    state = State(small, hard=hard).replay(history)
    cands = state.candidate_words
    assert len(cands) > 5
    table, cols = state.answer_table()
    rows = state.guess_rows()
    pool = [small.allowed[r] for r in rows]
    letters = small.allowed_letters
    for first in (pool[-1], pool[0], pool[len(pool) // 2], cands[0]):
        row = small.allowed_index[first]
        got = second_step_bits(table, rows, cols, row, letters[row], letters[rows] if hard else None, hard, alphabet=26)
        assert got == pytest.approx(_ref_second_step(first, pool, cands, history, hard), abs=1e-9), first


def test_lookahead_reranks_the_entropy_leaders(small) -> None:
    state = State(small)
    k = 5
    leaders = rank(state, top=k, strategy="entropy")
    ahead = rank(state, top=k + 3, strategy=f"lookahead:{k}")
    assert {h.word for h in ahead[:k]} == {h.word for h in leaders}
    assert [h.word for h in ahead[k:]] == [h.word for h in rank(state, top=k + 3, strategy="entropy")[k:]]
    table, cols = state.answer_table()
    rows = state.guess_rows()
    letters = small.allowed_letters

    def two_step(word: str) -> float:
        row = small.allowed_index[word]
        return ref_split(word, state.candidate_words)[0] + second_step_bits(
            table, rows, cols, row, letters[row], alphabet=26
        )

    scores = [round(two_step(h.word), 9) for h in ahead[:k]]
    assert scores == sorted(scores, reverse=True)
    assert rank(state, top=1, strategy="lookahead:1")[0].word == leaders[0].word


def test_lookahead_via_state_hints(small) -> None:
    hints = State(small, hard=True).hints(top=3, strategy="lookahead:3")
    assert len(hints) == 3


def test_ranking_strategy_is_rank(small) -> None:
    state = State(small).after("slate", ref_code("slate", small.solutions[20]))
    for name in SEVEN:
        strat = get_strategy(name)
        assert isinstance(strat, RankingStrategy)
        assert strat.rank(state, top=3) == rank(state, top=3, strategy=name)


def test_fallback_state_ranks(small) -> None:
    """When no solution fits (the lists drifted), every strategy ranks the allowed words that do."""
    word = next(
        w
        for w in small.allowed
        if w not in small.solution_index and ref_filter(small.solutions, [("raise", ref_code("raise", w))]) == []
    )
    state = State(small).after("raise", ref_code("raise", word))
    assert state.fallback is not None
    for name in SEVEN:
        assert rank(state, top=1, strategy=name)[0].word in state.fallback


def test_unknown_strategy_in_rank(small) -> None:
    with pytest.raises(RatenError, match="unknown strategy"):
        State(small).hints(strategy="greedy")
    assert np.all(np.diff([h.bits for h in State(small).hints(top=5)]) <= 1e-12)
