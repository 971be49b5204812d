"""Ranking next guesses: entropy (default), partitions, expected size, minimax, frequency.

All partition-based strategies share one compiled pass that measures how each guess
splits the candidates; they differ only in which statistic they sort by. Ties go to
words that could still be the answer, then alphabetically.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from raten import kernels
from raten.errors import RatenError
from raten.words import letters

#: Decimal places bits are compared at, so equal splits tie regardless of summation order.
_TIE_DECIMALS = 9
#: Bonus per distinct letter in the frequency ranking.
_DISTINCT_BONUS = 0.1

STRATEGIES = {
    "entropy": "most information: highest entropy of the feedback distribution",
    "partitions": "most distinct feedback patterns",
    "expected": "smallest expected number of remaining candidates",
    "minimax": "smallest largest group",
    "frequency": "candidates with the most common letters (no look-ahead)",
}


@dataclass(frozen=True)
class Hint:
    """A suggested guess and how it splits the remaining candidates."""

    word: str
    bits: float
    candidate: bool
    patterns: int
    largest: int
    expected_remaining: float

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Split:
    """How each of several guesses splits the candidates (arrays aligned with the guesses)."""

    bits: np.ndarray
    patterns: np.ndarray
    largest: np.ndarray
    expected_remaining: np.ndarray


def split_stats(table: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> Split:
    """Entropy, pattern count, largest group and expected remaining for each guess row."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    bits, patterns, largest, sum_sq = kernels.partition_stats(table, rows, cols)
    n = max(len(cols), 1)
    return Split(bits, patterns, largest, sum_sq / n)


def _sort_order(strategy: str, split: Split, is_candidate: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Indices into ``rows``, best first. ``rows`` are alphabetical ranks (allowed is sorted)."""
    keys = {
        "entropy": -np.round(split.bits, _TIE_DECIMALS),
        "partitions": -split.patterns,
        "expected": np.round(split.expected_remaining, _TIE_DECIMALS),
        "minimax": split.largest,
    }
    # np.lexsort sorts by the last key first.
    return np.lexsort((rows, ~is_candidate, keys[strategy]))


def frequency_scores(candidate_letters: np.ndarray) -> np.ndarray:
    """Score each candidate: share of candidates containing each of its distinct letters,
    summed, plus a small bonus per distinct letter."""
    n = candidate_letters.shape[0]
    onehot = np.zeros((n, 26), dtype=bool)
    np.put_along_axis(onehot, candidate_letters.astype(np.int64), True, axis=1)
    share = onehot.mean(axis=0)
    return onehot @ share + _DISTINCT_BONUS * onehot.sum(axis=1)


def rank_table(
    table: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    candidate_rows: np.ndarray,
    guess_words: tuple[str, ...] | list[str],
    top: int = 5,
    strategy: str = "entropy",
) -> list[Hint]:
    """Rank guess ``rows`` of ``table`` against candidate ``cols``.

    ``candidate_rows`` are the rows whose word could be the answer (for the mark and the
    tie-break); ``guess_words[row]`` is the word of a row, in alphabetical order.
    """
    if strategy not in STRATEGIES:
        raise RatenError(f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
    if len(cols) == 0:
        raise RatenError("no candidates are left to rank guesses against")
    if top < 1:
        raise RatenError("top must be at least 1")
    if strategy == "frequency":
        rows = np.asarray(candidate_rows, dtype=np.int64)
        scores = frequency_scores(letters([guess_words[r] for r in rows]))
        order = np.lexsort((rows, -np.round(scores, _TIE_DECIMALS)))[:top]
        rows = rows[order]
        split = split_stats(table, rows, cols)
        chosen = np.arange(len(rows))
        is_candidate = np.ones(len(rows), dtype=bool)
    else:
        rows = np.asarray(rows, dtype=np.int64)
        split = split_stats(table, rows, cols)
        is_candidate = np.isin(rows, candidate_rows)
        chosen = _sort_order(strategy, split, is_candidate, rows)[:top]
    return [
        Hint(
            word=guess_words[rows[i]],
            bits=float(split.bits[i]),
            candidate=bool(is_candidate[i]),
            patterns=int(split.patterns[i]),
            largest=int(split.largest[i]),
            expected_remaining=float(split.expected_remaining[i]),
        )
        for i in chosen
    ]


def rank(state, top: int = 5, strategy: str = "entropy") -> list[Hint]:
    """The best next guesses for a ``State``, best first."""
    table, cols = state.answer_table()
    return rank_table(
        table, state.guess_rows(), cols, state.candidate_rows(), state.words.allowed, top=top, strategy=strategy
    )


def analyze(state, word: str) -> dict:
    """How ``word`` splits the current candidates: every group with its pattern and words."""
    from raten.feedback import format_pattern
    from raten.matrix import feedback_against

    cands = state.candidate_words
    codes = feedback_against(word, cands)
    table = codes[None, :]
    split = split_stats(table, np.zeros(1, dtype=np.int64), np.arange(len(cands), dtype=np.int64))
    groups: dict[int, list[str]] = {}
    for w, c in zip(cands, codes.tolist()):
        groups.setdefault(c, []).append(w)
    buckets = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return {
        "word": word,
        "bits": float(split.bits[0]),
        "patterns": int(split.patterns[0]),
        "largest": int(split.largest[0]),
        "expected_remaining": float(split.expected_remaining[0]),
        "candidate": word in set(cands),
        "buckets": [{"pattern": format_pattern(c), "count": len(ws), "words": ws} for c, ws in buckets],
    }
